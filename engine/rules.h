// Rule variants (R4.3, R6.5) and their R7-style text "penk-lines=columns,line-min=N".
#ifndef PENK_ENGINE_RULES_H_
#define PENK_ENGINE_RULES_H_

#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace penk {

struct Rules {
  // R6.5: a row or column scores only with at least this many circled cells.
  int line_min = 3;
  // R4.3: when false, only completed columns make PENK.
  bool penk_rows = true;

  bool operator==(const Rules&) const = default;
};

// "line-min=3,penk-lines=all"; the canonical text of a variant, also used in
// table file names.
std::string FormatRules(const Rules& rules);

// Parses a comma-separated list of `penk-lines=all|columns` and `line-min=1..5`;
// unspecified options keep their defaults. Empty text is the default rules.
absl::StatusOr<Rules> ParseRules(absl::string_view text);

}  // namespace penk

#endif  // PENK_ENGINE_RULES_H_
