// A request's fields, typed (docs/PROTOCOL.md "Requests and replies"): a
// missing or ill-typed field is bad_field naming it, strings never hold a
// NUL byte, integers are range-checked; and new_game's "position".
#ifndef PENK_PROTOCOL_REQUEST_H_
#define PENK_PROTOCOL_REQUEST_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ai/cancel.h"
#include "engine/game.h"
#include "nlohmann/json.hpp"
#include "protocol/errors.h"
#include "protocol/session.h"
#include "solver/work_progress.h"

namespace penk::protocol {

using json = nlohmann::ordered_json;

// What bounds and watches one request's work (protocol 3, docs/PROTOCOL.md
// "Requests in flight"): set by the dispatcher (protocol/dispatch.h) for a
// request it runs; a request handled directly (HandleLine) has the
// session's cancel flag and nothing else.
struct RequestWork {
  // Set by a cancel, by the deadline, or when the client has gone; the
  // long work (rollouts, master) stops soon after.
  CancelFlag cancel;
  // From "time_ms": the request is answered by then. Rollouts stop at it
  // (their partial result is the answer); the rest is the dispatcher's.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // Told what the work has done ("progress_ms"); null: nobody watches.
  WorkProgress* progress = nullptr;
};

// Typed access to request fields; a missing or ill-typed field is kBadField.
// Strings never hold a NUL byte: C callers and frontends would see less text
// than we read.
class Request {
 public:
  explicit Request(const json& j, RequestWork work = {}) : j_(j), work_(std::move(work)) {}

  const RequestWork& work() const { return work_; }

  bool Has(const char* name) const { return j_.contains(name) && !j_.at(name).is_null(); }

  std::string String(const char* name, const char* fallback = nullptr) const {
    if (!Has(name)) {
      if (fallback) return fallback;
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (a string)"));
    }
    return StringOf(name, j_.at(name));
  }

  // A string that must not be empty (actions, dice).
  std::string NonEmpty(const char* name) const {
    std::string v = String(name);
    if (absl::StripAsciiWhitespace(v).empty())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must not be empty",
                                              std::string(name) == "action"
                                                  ? " (the empty keep is written \"-\")"
                                                  : ""));
    return v;
  }

  int64_t Int(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> fallback) const {
    if (!Has(name)) {
      if (fallback) return *fallback;
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (an integer)"));
    }
    return IntOf(name, j_.at(name), lo, hi);
  }

  uint64_t Seed(const char* name) const { return SeedOf(name, j_.at(name)); }

  // A seed (issue 22 item 2): an integer, or the same number as a decimal
  // string, which a JavaScript client keeps exactly from 2^53 on.
  static uint64_t SeedOf(const char* name, const json& v) {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
    uint64_t seed = 0;
    if (v.is_string()) {
      const std::string text = v.get<std::string>();
      const bool digits = !text.empty() && text.size() <= 20 &&
                          text.find_first_not_of("0123456789") == std::string::npos;
      if (digits && absl::SimpleAtoi(text, &seed)) return seed;
    }
    Fail(ErrorCode::kBadField,
         absl::StrCat("field \"", name,
                      "\" must be an integer 0..18446744073709551615 or such a number as a "
                      "decimal string"));
  }

  bool Bool(const char* name, bool fallback) const {
    if (!Has(name)) return fallback;
    const json& v = j_.at(name);
    if (!v.is_boolean())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be true or false"));
    return v.get<bool>();
  }

  // A list of strings, or one string of comma-separated items.
  std::vector<std::string> StringList(const char* name, bool required) const {
    if (!Has(name)) {
      if (!required) return {};
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (a list of strings)"));
    }
    const json& v = j_.at(name);
    std::vector<std::string> out;
    if (v.is_string()) {
      for (absl::string_view part : absl::StrSplit(StringOf(name, v), ',')) out.emplace_back(part);
      return out;
    }
    if (!v.is_array())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a list of strings"));
    for (const json& item : v) {
      if (!item.is_string())
        Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a list of strings"));
      out.push_back(StringOf(name, item));
    }
    return out;
  }

  const json& Raw(const char* name) const { return j_.at(name); }

  static std::string StringOf(const char* name, const json& v) {
    if (!v.is_string())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a string"));
    std::string s = v.get<std::string>();
    if (s.find('\0') != std::string::npos)
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" contains a NUL character"));
    return s;
  }

  static int64_t IntOf(const char* name, const json& v, int64_t lo, int64_t hi) {
    int64_t x = 0;
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      x = u > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(u);
    } else if (v.is_number_integer()) {
      x = v.get<int64_t>();
    } else {
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be an integer"));
    }
    if (x < lo || x > hi)
      Fail(ErrorCode::kBadField,
           absl::StrCat("field \"", name, "\" must be in ", lo, "..", hi, "; got ", v.dump()));
    return x;
  }

 private:
  const json& j_;
  RequestWork work_;
};

// Seeds below this are JSON numbers in replies; from it on decimal strings:
// a JSON double holds integers exactly only up to 2^53.
inline constexpr uint64_t kExactSeedLimit = uint64_t{1} << 53;
// A seed as replies write it (the state, the record): the one writer.
inline json SeedJson(uint64_t seed) {
  return seed < kExactSeedLimit ? json(seed) : json(std::to_string(seed));
}

// new_game's "position" object (engine/game.h Position); throws kBadField.
Position PositionOrThrow(const nlohmann::ordered_json& j);

// Refuses a field of `request` that `command` does not take (besides "id"
// and "cmd"): bad_field naming it and listing the command's fields, so a
// misspelt field never silently gives the answer for a default.
void CheckKnownFields(const json& request, const char* command,
                      const std::vector<const char*>& fields);

// new_game's fields (docs/PROTOCOL.md): players, rules, seed, dice, position;
// or record alone (a game given whole, protocol/game_record_json.h).
inline const std::vector<const char*>& NewGameFields() {
  static const std::vector<const char*> fields = {"players", "rules", "seed", "dice", "position",
                                                  "record"};
  return fields;
}
// The game those fields ask for (not yet kept by the session): the one
// reading of them, for the protocol's new_game and penk_game_create_json.
GameSession NewGameOf(Session& s, const Request& r);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_REQUEST_H_
