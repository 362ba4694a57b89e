#include "engine/rules.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/quoted_input.h"

namespace penk {

std::string FormatRules(const Rules& rules) {
  return absl::StrCat("line-min=", rules.line_min,
                      ",penk-lines=", rules.penk_rows ? "all" : "columns");
}

absl::StatusOr<Rules> ParseRules(absl::string_view text) {
  Rules rules;
  // The empty text is the default rules; otherwise every option is named
  // once and nothing is empty, so a typo never falls back to a default.
  if (absl::StripAsciiWhitespace(text).empty()) return rules;
  bool seen_lines = false, seen_min = false;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (item.empty())
      return absl::InvalidArgumentError(absl::StrCat(
          "rules text ", QuotedInput(text), " has an empty option; expected e.g. line-min=3,penk-lines=all"));
    const bool lines = absl::StartsWith(item, "penk-lines=");
    if (lines ? seen_lines : seen_min && absl::StartsWith(item, "line-min="))
      return absl::InvalidArgumentError(absl::StrCat(
          "rules text ", QuotedInput(text), " names ", lines ? "penk-lines" : "line-min",
          " twice; each option at most once"));
    seen_lines = seen_lines || lines;
    seen_min = seen_min || absl::StartsWith(item, "line-min=");
    if (item == "penk-lines=columns") {
      rules.penk_rows = false;
    } else if (item == "penk-lines=all" || item == "penk-lines=rows,columns") {
      rules.penk_rows = true;
    } else if (absl::ConsumePrefix(&item, "line-min=") && item.size() == 1 && item[0] >= '1' &&
               item[0] <= '5') {
      rules.line_min = item[0] - '0';
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "rules are a comma-separated list of penk-lines=all|columns and line-min=1..5 "
          "(docs/RULES.md R4.3, R6.5); got ",
          QuotedInput(text)));
    }
  }
  return rules;
}

}  // namespace penk
