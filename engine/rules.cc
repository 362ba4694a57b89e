#include "engine/rules.h"

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
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    if (item == "penk-lines=columns") {
      rules.penk_rows = false;
    } else if (item == "penk-lines=all" || item == "penk-lines=rows,columns") {
      rules.penk_rows = true;
    } else if (absl::ConsumePrefix(&item, "line-min=") && item.size() == 1 && item[0] >= '1' &&
               item[0] <= '5') {
      rules.line_min = item[0] - '0';
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "rules are a comma-separated list of penk-lines=all|columns and line-min=1..5; got ",
          QuotedInput(text)));
    }
  }
  return rules;
}

}  // namespace penk
