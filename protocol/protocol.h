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
// commands.cc (the commands and HandleLine),
// json_text.h (untrusted JSON with its depth bounded). This header brings
// them all for the doors (engine, libpenk, server, tests).
#ifndef PENK_PROTOCOL_PROTOCOL_H_
#define PENK_PROTOCOL_PROTOCOL_H_

#include <string>

#include "absl/strings/string_view.h"
#include "penk_version.h"
#include "protocol/errors.h"
#include "protocol/hint.h"
#include "protocol/inputs.h"
#include "protocol/replies.h"
#include "protocol/session.h"

namespace penk::protocol {

// 2: strict requests (unknown fields refused), physical dice, positions,
// undo, history, hint by game, best_action values, level descriptions.
inline constexpr int kProtocolVersion = 2;
inline constexpr char kEngineName[] = "penk";
inline constexpr char kEngineVersion[] = PENK_VERSION_STRING;  // CMakeLists.txt project()

// Handles one request line; returns the reply line (no newline). Never throws.
std::string HandleLine(Session& session, absl::string_view line);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_PROTOCOL_H_
