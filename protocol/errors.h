// The protocol's errors (docs/PROTOCOL.md "Error codes"): every failure of
// the engine core is an EngineError with a stable code, thrown by Fail and
// caught at the boundary of each door (HandleLine, the C API), so a bad
// request never ends a session nor loses a game.
#ifndef PENK_PROTOCOL_ERRORS_H_
#define PENK_PROTOCOL_ERRORS_H_

#include <string>
#include <utility>

#include "nlohmann/json.hpp"

namespace penk::protocol {

// Error codes of the protocol ("code" of an error reply) and of the C API
// (PENK_E_* in capi/penk.h have the same numbers). Never renumber.
enum class ErrorCode {
  kBadJson = 1,         // the line is not a JSON object
  kUnknownCommand = 2,  // "cmd" names no command
  kBadField = 3,        // a field is missing or has the wrong type or range
  kBadPosition = 4,     // a sheet, roll, rules text or position is invalid
  kUnknownGame = 5,     // no game with this id
  kIllegalAction = 6,   // the action is not legal now (or the game is over)
  kUnknownLevel = 7,    // an AI level or seat name that does not exist
  kTable = 8,           // a value table cannot be loaded or does not cover the position
  kLimit = 9,           // too many games open at once
  kInternal = 10,       // a bug or out of memory; the session goes on
  kBufferTooSmall = 11, // C API only: the caller's buffer is too small
  kCancelled = 12,      // the request was cancelled (a cancel, or its client has gone)
  kTimeOut = 13,        // the request's time_ms ran out before it could answer
};

// "bad_json", "unknown_command", ...: the protocol's error code strings.
const char* ErrorCodeName(ErrorCode code);

struct EngineError {
  ErrorCode code;
  std::string message;
  // What was done before the work stopped, where it means something (a
  // cancelled hint's rollouts): the reply's "partial"; null: none.
  nlohmann::ordered_json partial;
};

// Throws EngineError{code, message}: the one way the core reports a failure.
[[noreturn]] inline void Fail(ErrorCode code, std::string message) {
  throw EngineError{code, std::move(message), nullptr};
}

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_ERRORS_H_
