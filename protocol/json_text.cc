#include "protocol/json_text.h"

#include "absl/strings/str_cat.h"

namespace penk::protocol {

int JsonDepth(absl::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

absl::StatusOr<nlohmann::ordered_json> ParseBoundedJson(absl::string_view text, int max_depth) {
  if (JsonDepth(text, max_depth) > max_depth)
    return absl::InvalidArgumentError(
        absl::StrCat("nested deeper than ", max_depth,
                     " levels of arrays and objects (a request needs at most 4)"));
  nlohmann::ordered_json j =
      nlohmann::ordered_json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("not valid JSON");
  return j;
}

}  // namespace penk::protocol
