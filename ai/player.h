// A player of PENK: something that decides, given the whole game, what the
// player to move does now. Humans, bots and the stronger AIs to come all sit
// behind this interface, so `penk play` and tournaments treat them alike.
#ifndef PENK_SOLVER_PLAYER_H_
#define PENK_SOLVER_PLAYER_H_

#include <string>

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
};

}  // namespace penk

#endif  // PENK_SOLVER_PLAYER_H_
