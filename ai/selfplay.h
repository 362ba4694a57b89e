// Self-play data for the evaluation network (issue 21): games played by one
// player in every seat, each turn's start written as a row of features
// (ai/neural_features.h) with the game's outcome as targets.
//
// File (little-endian), read by tools/train_neural.py:
//   header, 32 bytes: "PENKSELF", uint32 version (1), uint32 feature layout
//   (SelfPlayOptions::layout),
//   uint32 features N, uint32 row floats R = N + 10, uint64 rows;
//   rows of R float32: features[N], win[4], score[4], players, game.
// win[i] is the final win share of slot i (R6.4: 1/k among k tied winners),
// score[i] its final score (R6); slots as in the features (slot 0 = mover).
//
// Fitted outcomes rather than TD targets: a game is short (about fifteen
// turns a seat), so the outcome's noise is small next to TD's bias from a
// bootstrapping net, and the data do not depend on a net at all for the
// first generation (docs/AI.md).
//
// Deterministic: game g has seed GameSeed(seed, g), its player count and
// rule variant follow g, and blocks of games are written in game order, so
// the same options write the same bytes whatever the thread count. Memory is
// bounded by one block of games.
#ifndef PENK_AI_SELFPLAY_H_
#define PENK_AI_SELFPLAY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "solver/table_cache.h"

namespace penk {

class NeuralNet;

inline constexpr uint32_t kSelfPlayVersion = 1;
inline constexpr int kSelfPlayHeaderBytes = 32;
inline constexpr int kSelfPlayTargets = 10;  // win[4], score[4], players, game
inline constexpr int64_t kMaxSelfPlayGames = 1 << 24;  // the game index is a float32
// Every turn fills at least one of a sheet's 25 cells (R3.4, R3.5), so no
// game has more rounds.
inline constexpr int kMaxOpeningRounds = 25;

struct SelfPlayOptions {
  std::string player = "expert";             // in every seat (MakeBot)
  std::vector<int> players = {2, 3, 4};      // game g has players[g % size]
  std::vector<Rules> variants = {Rules{}};   // and variants[g / players.size() % size]
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 1;
  std::shared_ptr<TableCache> tables;
  std::shared_ptr<const NeuralNet> net;      // for a player using the net
  // The features written (ai/neural_features.h); a player's own net may read
  // another: each computes the layout it needs.
  uint32_t layout = 2;
  // Exploring openings (issue 21 item 6: positions the player's own games
  // seldom reach): with opening_rounds R > 0, game g's first L rounds, L
  // drawn from its seed in 1..R, are played by other players, each seat by
  // one of `opening_players` drawn from the seed, and rows are written only
  // after them, where `player` takes every seat: the targets are then
  // the outcomes of `player`'s own play from positions it would not reach.
  int opening_rounds = 0;
  std::vector<std::string> opening_players;
  std::function<void(int64_t done, int64_t total)> progress;
};

struct SelfPlaySummary {
  int64_t games = 0;
  int64_t rows = 0;
};

absl::StatusOr<SelfPlaySummary> WriteSelfPlay(const SelfPlayOptions& options,
                                              const std::string& path);

}  // namespace penk

#endif  // PENK_AI_SELFPLAY_H_
