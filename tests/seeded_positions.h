// Seeded mid-game positions for the AI tests: 2-4 players and both rule
// variants (R4.3) by seed, reached by random decisions alternating with
// greedy ones every nine (greedy completes lines, so PENKs happen, R4.2).
#ifndef PENK_TESTS_SEEDED_POSITIONS_H_
#define PENK_TESTS_SEEDED_POSITIONS_H_

#include <cstdint>

#include "ai/bot.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "engine/rules.h"

namespace penk {

// The position of seed `seed`; may be over (callers skip those).
inline Game SeededMidGame(uint64_t seed) {
  const int players = 2 + static_cast<int>(seed % 3);
  const Rules rules = seed % 2 ? Rules{} : Rules{3, false};
  Game game = *Game::Create(players, rules, seed);
  RandomBot mover(seed * 31);
  GreedyBot greedy;
  Rng rng(seed);
  const int steps = static_cast<int>(rng.Below(120));
  for (int i = 0; i < steps && !game.over(); ++i) {
    Player& p = (i / 9) % 2 ? static_cast<Player&>(greedy) : mover;
    if (!game.Apply(p.Decide(game)).ok()) break;  // the bots' own tests catch this
  }
  return game;
}

}  // namespace penk

#endif  // PENK_TESTS_SEEDED_POSITIONS_H_
