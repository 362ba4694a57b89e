// Tournaments: many seeded games between named players (`penk simulate`).
//
// Game g seats the players rotated by g (seat s plays player (s + g) mod n),
// so every player sits in every seat equally often (R5.2 gives the first seat
// no extra turn, but turn order still matters). Game g is played with dice
// seeded from (seed, g) and fresh players seeded from (seed, g, player), so a
// game's result does not depend on which thread plays it: the same seed gives
// the same result with any thread count (the statistics are sums of whole
// numbers, so their order does not matter either).
//
// Results are streamed: each thread adds its games into running sums, so
// memory does not grow with the number of games.
#ifndef PENK_AI_SIMULATE_H_
#define PENK_AI_SIMULATE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "solver/table_cache.h"

namespace penk {

// Bounds of a tournament (docs/PROTOCOL.md, Limits): more is refused.
inline constexpr int64_t kMaxSimulatedGames = 1'000'000'000;
inline constexpr int kMaxSimulationThreads = 256;

struct SimulationOptions {
  std::vector<std::string> players;  // 1-4 MakeBot names, in report order
  int64_t games = 1000;              // 1..kMaxSimulatedGames
  uint64_t seed = 1;
  int threads = 1;                   // 1..kMaxSimulationThreads
  Rules rules;
  // The exact tables of optimal and expert (required when they play).
  std::shared_ptr<TableCache> tables;
  // Called from one thread now and then with games finished so far.
  std::function<void(int64_t done, int64_t total)> progress;
};

struct PlayerResult {
  std::string name;
  // Mean of the per-game win share: 1 for a sole winner, 1/k for each of k
  // tied at the top (R6.4, Winners::Share), 0 otherwise; the players' rates
  // sum to 1; with one player always 1.
  double win_rate = 0;
  double win_ci_low = 0, win_ci_high = 0;  // 95% normal interval of the mean
  double mean_score = 0, sd_score = 0;
  double mean_turns = 0;
};

struct SimulationResult {
  int64_t games = 0;
  std::vector<PlayerResult> players;  // in SimulationOptions::players order
};

absl::StatusOr<SimulationResult> Simulate(const SimulationOptions& options);

// The seeds of game g (exposed for tests and replays: `penk play --seed`).
uint64_t GameSeed(uint64_t seed, int64_t game);

}  // namespace penk

#endif  // PENK_AI_SIMULATE_H_
