// Untrusted JSON text (a request line, libpenk's options) parsed with its
// nesting bounded (issue 20, item 1).
//
// nlohmann's parser and the copies of its values recurse once per level of
// arrays and objects within each other, so a line of a few hundred KB of
// `[[[[...` overflows the stack of whoever parses it: the engine, a libpenk
// host program, the server with every other client's game. Requests need
// four levels (new_game's position: object, sheets list, string); a scan of
// the brackets outside strings refuses anything deeper than kMaxJsonDepth
// before the parser sees it.
#ifndef PENK_PROTOCOL_JSON_TEXT_H_
#define PENK_PROTOCOL_JSON_TEXT_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace penk::protocol {

inline constexpr int kMaxJsonDepth = 32;

// The deepest nesting of arrays and objects in `text` (brackets outside
// strings), scanning no further than the first level deeper than `limit`
// (so the result is at most limit + 1). For valid JSON this is its depth;
// for invalid text, a number the parser's refusal makes irrelevant.
int JsonDepth(absl::string_view text, int limit = kMaxJsonDepth);

// `text` as JSON: InvalidArgument "nested deeper than 32 levels ..." past the
// bound, "not valid JSON" when nlohmann refuses it. Never throws but
// std::bad_alloc.
absl::StatusOr<nlohmann::ordered_json> ParseBoundedJson(absl::string_view text,
                                                        int max_depth = kMaxJsonDepth);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_JSON_TEXT_H_
