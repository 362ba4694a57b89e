// Players named with options for measurements, "kind:key=value:..." (e.g.
// "expert:lambda=0.5", "master:trials=100"): the one parser of the syntax;
// each player checks its own keys and ranges.
#ifndef PENK_AI_NAME_OPTIONS_H_
#define PENK_AI_NAME_OPTIONS_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace penk {

// The longest player name with options: every key once fits in far less,
// and a name is kept and echoed with every decision (issue 20, item 11).
inline constexpr size_t kMaxPlayerNameLength = 100;

// The (key, value) pairs of `name` (case-insensitive), which must be `kind`
// alone or followed by ":key=number" parts, each number finite and each key
// at most once, the whole at most kMaxPlayerNameLength characters. The
// error names the part that is not.
absl::StatusOr<std::vector<std::pair<std::string, double>>> ParseNameOptions(
    absl::string_view name, absl::string_view kind);

}  // namespace penk

#endif  // PENK_AI_NAME_OPTIONS_H_
