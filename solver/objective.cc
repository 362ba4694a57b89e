#include "solver/objective.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/quoted_input.h"

namespace penk {

std::string FormatObjective(const Objective& objective) {
  if (!objective.is_target()) return "mean";
  return absl::StrCat("target=", objective.target);
}

absl::StatusOr<Objective> ParseObjective(absl::string_view text) {
  if (text.empty() || text == "mean") return Objective{};
  constexpr absl::string_view kPrefix = "target=";
  int x = 0;
  if (absl::StartsWith(text, kPrefix) && text.size() - kPrefix.size() <= 3 &&
      absl::SimpleAtoi(text.substr(kPrefix.size()), &x) && x >= 0 && x <= kMaxTarget &&
      text.substr(kPrefix.size()).find_first_not_of("0123456789") == absl::string_view::npos)
    return Objective{x};
  return absl::InvalidArgumentError(
      absl::StrCat("bad objective ", QuotedInput(text), ": expected mean or target=X with X in 0..",
                   kMaxTarget, " (the final score to reach)"));
}

}  // namespace penk
