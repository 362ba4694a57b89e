// The replies of the protocol's commands as JSON objects (docs/PROTOCOL.md):
// a game's state, ranked actions, the AI's decision, the advisor for a game;
// shared by HandleLine and the C API, written with nlohmann::ordered_json so
// that keys keep the documented order.
#ifndef PENK_PROTOCOL_REPLIES_H_
#define PENK_PROTOCOL_REPLIES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "protocol/session.h"
#include "solver/advisor.h"
#include "solver/objective.h"
#include "solver/score_spread.h"
#include "solver/work_progress.h"

namespace penk::protocol {

// A number as every reply gives it: to 6 decimals, the precision the tables
// are checked to and the CLI's table shows (the C API's arrays give full
// precision).
double RoundValue(double v);

// One ranked action as hint lists it ("action", "win" with opponents, "value").
// With opponents also "score" (expected final score in this game) and "tied".
nlohmann::ordered_json ActionJson(const RankedAction& a, const WinFigures& figures, size_t i);
// The best `top` actions (0: all) as hint lists them.
nlohmann::ordered_json ActionsJson(const std::vector<RankedAction>& ranked,
                                   const WinFigures& win, int64_t top);
// Each action's moments into out["actions"] (in ranked order, as many as
// are shown), or, when they cannot be had, the reason in "sd_error".
void AddMoments(absl::StatusOr<std::vector<ActionMoments>> moments, Objective objective,
                nlohmann::ordered_json& out);

// The answers of the protocol's commands on a game, shared with the C API.
// best_action: the AI's action for the player to move, with its expected
// final score ("value", "rank" in the advisor's ranking, "win" with
// opponents); applied when `apply` (never once `cancel` is set: a cancelled
// request changes no game).
nlohmann::ordered_json BestActionJson(Session& s, GameSession& g, const std::string& level,
                                      bool apply, const CancelFlag& cancel = nullptr);

// A progress message of request `id` ("progress_ms"): {"id","progress":
// {"done","total","what"}}, as every door sends it.
nlohmann::ordered_json ProgressJson(const nlohmann::ordered_json& id, const WorkProgress::Snapshot& at);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_REPLIES_H_
