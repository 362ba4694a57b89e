#include "ai/name_options.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/quoted_input.h"

namespace penk {

absl::StatusOr<std::vector<std::pair<std::string, double>>> ParseNameOptions(
    absl::string_view name, absl::string_view kind) {
  if (name.size() > kMaxPlayerNameLength)
    return absl::InvalidArgumentError(absl::StrCat("a player name has at most ",
                                                   kMaxPlayerNameLength, " characters; got ",
                                                   name.size(), ": ", QuotedInput(name)));
  std::vector<std::string> parts = absl::StrSplit(absl::AsciiStrToLower(name), ':');
  if (parts.empty() || parts[0] != kind)
    return absl::InvalidArgumentError(absl::StrCat("not a ", kind, " name: ", QuotedInput(name)));
  std::vector<std::pair<std::string, double>> out;
  for (size_t i = 1; i < parts.size(); ++i) {
    std::vector<std::string> kv = absl::StrSplit(parts[i], absl::MaxSplits('=', 1));
    double x;
    if (kv.size() != 2 || !absl::SimpleAtod(kv[1], &x) || !std::isfinite(x))
      return absl::InvalidArgumentError(
          absl::StrCat(kind, " option ", QuotedInput(parts[i]), " must be key=number"));
    for (const auto& [key, value] : out)
      if (key == kv[0])
        return absl::InvalidArgumentError(
            absl::StrCat(kind, " option ", QuotedInput(kv[0]), " is given twice"));
    out.emplace_back(kv[0], x);
  }
  return out;
}

}  // namespace penk
