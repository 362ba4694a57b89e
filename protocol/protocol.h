// The engine protocol of `penk engine` (issue 6, docs/PROTOCOL.md) and the
// engine core it shares with the C library (capi/penk.h).
//
// One JSON object per line in, one per line out. HandleLine is the whole
// request handling as a plain function of a Session, so tests and fuzzers
// call it without a process. The core below it (tables, hints, values,
// games, AI decisions) reports every failure as an EngineError with a stable
// code; HandleLine and the C API catch it (and any other exception) at their
// boundary, so a bad request never ends the session nor loses a game.
//
// One file per idea: errors.h (codes, Fail), inputs.h (R7 texts parsed),
// request.h (a request's typed fields), session.h (the engine core),
// replies.h (the JSON answers), hint.h (the hint, once, for every door),
// commands.cc (the commands and HandleLine), dispatch.h (requests in
// flight, protocol 3: the doors' way to run them),
// json_text.h (untrusted JSON with its depth bounded). This header brings
// them all for the doors (engine, libpenk, server, tests).
#ifndef PENK_PROTOCOL_PROTOCOL_H_
#define PENK_PROTOCOL_PROTOCOL_H_

#include <string>

#include "absl/strings/string_view.h"
#include "penk_version.h"
#include "protocol/dispatch.h"
#include "protocol/errors.h"
#include "protocol/hint.h"
#include "protocol/inputs.h"
#include "protocol/replies.h"
#include "protocol/request.h"
#include "protocol/session.h"

namespace penk::protocol {

// 2: strict requests (unknown fields refused), physical dice, positions,
// undo, history, hint by game, best_action values, level descriptions.
// A session speaks it until a hello asks for a later one.
inline constexpr int kProtocolVersion = 2;
// 3: several requests in flight, replies in completion order, cancel,
// progress, time_ms over the whole request, prepare (protocol/dispatch.h).
inline constexpr int kLatestProtocol = 3;
// Fields any request may carry besides its command's: "time_ms" bounds the
// whole request, "progress_ms" asks for progress messages (the dispatcher's;
// HandleLine alone honours time_ms only in rollouts).
inline constexpr const char* kEveryRequestFields[] = {"time_ms", "progress_ms"};
inline constexpr int64_t kMaxRequestTimeMs = 3'600'000;  // an hour: both fields' bound
inline constexpr int64_t kMinProgressMs = 10;  // progress messages at most 100 a second
// One of kEveryRequestFields of a parsed request: its value when it is an
// integer in [lo, hi], else 0 (absent; HandleRequest refuses an invalid one
// with its message). The doors read time_ms and progress_ms with it.
int64_t EveryRequestField(const nlohmann::ordered_json& request, const char* name, int64_t lo,
                          int64_t hi);
inline constexpr char kEngineName[] = "penk";
inline constexpr char kEngineVersion[] = PENK_VERSION_STRING;  // CMakeLists.txt project()

// Handles one request line; returns the reply line (no newline). Never throws.
// The request runs on the calling thread with the session's cancel flag.
std::string HandleLine(Session& session, absl::string_view line);

// The two halves of HandleLine, for the dispatcher. The line's checks (size,
// NUL, JSON depth, an object, a valid "id", a string "cmd"): true with
// `request`, or false with the error reply. Never throws.
bool ParseRequestLine(absl::string_view line, nlohmann::ordered_json& request,
                      nlohmann::ordered_json& error_reply);
// The reply to a request ParseRequestLine accepted, its work bounded and
// watched by `work`. Never throws.
nlohmann::ordered_json HandleRequest(Session& session, const nlohmann::ordered_json& request,
                                     const RequestWork& work);
// {"id":id,"error":{"code":...,"message":...}}.
nlohmann::ordered_json ErrorReply(const nlohmann::ordered_json& id, ErrorCode code,
                                  absl::string_view message);
// A reply as one line (invalid UTF-8 in quoted input replaced).
std::string ReplyLine(const nlohmann::ordered_json& reply);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_PROTOCOL_H_
