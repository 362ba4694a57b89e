// The hint, once (docs/PROTOCOL.md "hint"): the question a player asks -- a
// position alone or with opponents, possibly played out by rollouts -- and
// its answer as one JSON object. Every door asks here and shows this
// object: the engine's `hint` (by position or by game), `penk hint` (--json
// prints it; the table is drawn from it), libpenk's penk_hint_json,
// penk_hint_multi_json and penk_game_hint_json, and `penk play`'s `?`.
// So the doors cannot drift: what differs between them is only how they
// read the question (fields, flags, C arguments) and how they show it.
#ifndef PENK_PROTOCOL_HINT_H_
#define PENK_PROTOCOL_HINT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/dice.h"
#include "engine/game.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "nlohmann/json.hpp"
#include "protocol/request.h"
#include "protocol/session.h"
#include "solver/objective.h"

namespace penk::protocol {

// Rollouts (ai/rollout.h): the best `candidates` actions by the fast
// estimate (0: all) each played out `trials` times to the end of the game.
struct RolloutQuestion {
  int64_t trials = 0;  // per candidate; 0: no rollouts
  int64_t candidates = 0;
  int64_t time_ms = kDefaultRolloutTimeMs;  // the bound of the whole analysis; 0: none
  std::string policy = "expert";            // the level in every seat
  uint64_t seed = 1;
  int threads = 1;
  // The request's (protocol 3): the rollouts stop at its deadline (then
  // timed_out), on its cancel flag (then the hint is answered `cancelled`
  // with what was played as "partial"), and tell it their progress.
  RequestWork work;
};

struct HintQuestion {
  Sheet sheet;  // the player to move
  Dice roll;
  int rerolls = 2;  // 0: rank the markings (or failures)
  Rules rules;
  // The other sheets in turn order after the mover (none: solitaire), the
  // last round (R5.2), the mover's seat (1-based) and the turns it has
  // played (-1: estimated from its sheet).
  std::vector<Sheet> opponents;
  bool last_round = false;
  int seat = 1;
  int turns = -1;
  Objective objective;  // solitaire only: a target ranks by its probability
  std::string table;    // a table file (only read), or empty: the folder's
  int64_t top = 0;      // only the best `top` actions listed (0: all)
  RolloutQuestion rollouts;
};

// The question of the game's player to move, everything taken from the game
// (its sheet, dice, rerolls left, the opponents in turn order after it, its
// seat, turns and the last round). EngineError illegal_action when the game
// is over or waits for physical dice.
HintQuestion HintQuestionOfGame(const Game& game);

// The answer, as the protocol documents it:
//   {"sheet","roll","rerolls"[,"opponents","last_round"][,"objective"],
//    "count","actions":[{"action"[,"win"],"value"[,"mean"],"sd"}...]
//    [,"sd_error"][,"rollouts":{...}]}
// best first, numbers rounded to 6 decimals (RoundValue). With rollouts,
// "actions" are the rolled-out candidates, each with its "rollout". `game`:
// the game the question was taken from (rollouts play on from it, its
// history included); null: a game is made from the question (GameOfWinQuery).
// Throws EngineError.
nlohmann::ordered_json AnswerHint(Session& s, const HintQuestion& q, const Game* game = nullptr);

// hint by game: {"player"} and the answer for the game's player to move.
nlohmann::ordered_json AnswerGameHint(Session& s, const GameSession& g, const std::string& table,
                                      int64_t top, const RolloutQuestion& rollouts = {});

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_HINT_H_
