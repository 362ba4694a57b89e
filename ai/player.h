// A player of PENK: something that decides, given the whole game, what the
// player to move does now. Humans, bots and the stronger AIs to come all sit
// behind this interface, so `penk play` and tournaments treat them alike.
#ifndef PENK_AI_PLAYER_H_
#define PENK_AI_PLAYER_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

#include "ai/cancel.h"
#include "engine/action.h"
#include "engine/game.h"

namespace penk {

class Player {
 public:
  virtual ~Player() = default;
  // Short name for display, e.g. "greedy".
  virtual std::string name() const = 0;
  // The decision of game.current() in the current phase: a keep in
  // Phase::kKeep (R2.2; all six dice = stop), a marking or, when no group is
  // legal, a failure in Phase::kMark (R3). Must be legal: Game::Apply of the
  // result succeeds. Not called when the game is over.
  virtual Action Decide(const Game& game) = 0;
  // Players whose decisions may take long (master's rollouts) stop and throw
  // Cancelled once `flag` is set; the others decide in bounded time and
  // ignore it.
  virtual void set_cancel(CancelFlag flag) { (void)flag; }
};

// One decision of the player to move, applied to the game. A player that
// breaks the rules is a bug of ours: the error names it, its choice and the
// rule (every game-playing loop -- simulate, match, rollouts -- reports it so).
inline absl::Status PlayDecision(Game& game, Player& player) {
  const Action a = player.Decide(game);
  if (absl::Status st = game.Apply(a); !st.ok())
    return absl::InternalError(
        absl::StrCat(player.name(), " chose ", FormatAction(a), ": ", st.message()));
  return absl::OkStatus();
}

}  // namespace penk

#endif  // PENK_AI_PLAYER_H_
