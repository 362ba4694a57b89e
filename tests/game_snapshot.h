// Everything observable about a game's position, for tests that compare two
// games (a refused action changes nothing; a replay, an undo or a set-up
// position gives the same game).
#ifndef PENK_TESTS_GAME_SNAPSHOT_H_
#define PENK_TESTS_GAME_SNAPSHOT_H_

#include <array>

#include "engine/game.h"

namespace penk::testing_support {

struct Snapshot {
  std::array<Sheet, kMaxPlayers> sheets{};
  std::array<int, kMaxPlayers> turns{};
  int current = 0;
  Phase phase = Phase::kKeep;
  Dice dice;
  int rerolls_left = 0;
  bool last_round = false;
  bool operator==(const Snapshot&) const = default;
};

inline Snapshot Snap(const Game& g) {
  Snapshot s;
  for (int p = 0; p < g.players(); ++p) {
    s.sheets[p] = g.sheet(p);
    s.turns[p] = g.turns(p);
  }
  s.current = g.current();
  s.phase = g.phase();
  s.dice = g.dice();
  // After stopping early the count left is not part of the position.
  s.rerolls_left = g.phase() == Phase::kMark ? 0 : g.rerolls_left();
  s.last_round = g.last_round();
  return s;
}

}  // namespace penk::testing_support

#endif  // PENK_TESTS_GAME_SNAPSHOT_H_
