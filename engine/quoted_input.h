// User input quoted in an error message. Every parser of engine/ (and the
// commands above it) quotes what it refuses through this one function, so a
// 100 KB argument or a pasted file cannot flood a terminal or a log line.
#ifndef PENK_ENGINE_QUOTED_INPUT_H_
#define PENK_ENGINE_QUOTED_INPUT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace penk {

// Longest input quoted whole; longer ones show their first kQuotedMax
// characters and "...".
inline constexpr size_t kQuotedMax = 40;

// `text` between double quotes, cut to kQuotedMax characters plus "..."; a
// control character (newline, NUL, ...) shows as '?' so the error stays one
// line.
inline std::string QuotedInput(absl::string_view text) {
  const bool cut = text.size() > kQuotedMax;
  std::string out = "\"";
  for (char c : cut ? text.substr(0, kQuotedMax) : text)
    out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
  return out + (cut ? "...\"" : "\"");
}

}  // namespace penk

#endif  // PENK_ENGINE_QUOTED_INPUT_H_
