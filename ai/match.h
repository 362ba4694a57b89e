// Duplicate matches (`penk match`, issue 11): paired games with the same dice.
//
// A deal is n games for n players (2-4): game g of the deal seats player
// (s + g) mod n at seat position s, and every game of the deal draws its dice
// from one DiceStream keyed by (seed, deal): roll r of turn t of seat position
// s shows the same six values in every game of the deal (a reroll of k dice
// takes the first k values). So each player meets each seat's dice once per
// deal, and the dice luck cancels between the games of a deal. The deal is
// the independent sample: intervals come from the spread of deal results.
//
// Deterministic for a seed whatever the thread count: deals are played in
// blocks by OpenMP, folded in deal order, and an SPRT (ai/sprt.h) is
// checked after each deal in that order, so it stops at the same deal with
// any number of threads (at most one block is played for nothing).
// Streaming: memory holds one block of deal results, never all games.
#ifndef PENK_AI_MATCH_H_
#define PENK_AI_MATCH_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ai/neural_net.h"
#include "ai/sprt.h"
#include "engine/game.h"
#include "engine/rules.h"
#include "solver/table_cache.h"

namespace penk {

inline constexpr int64_t kMaxMatchGames = 1'000'000'000;
inline constexpr int kMaxMatchThreads = 256;

struct MatchOptions {
  std::vector<std::string> players;  // 2-4 MakeBot names, in report order
  int64_t games = 1000;              // rounded up to whole deals (n games each)
  uint64_t seed = 1;
  int threads = 1;
  Rules rules;
  std::optional<SprtBounds> sprt;    // two players only; stops at H0 or H1
  std::shared_ptr<TableCache> tables;
  // Per player (report order), the net a player that uses one evaluates
  // with; absent or null: the built-in net. Lets two nets meet in a match.
  std::vector<std::shared_ptr<const NeuralNet>> nets;
  // Called from the calling thread after each block: deals folded so far,
  // deals planned, and the LLR so far (0 without an SPRT).
  std::function<void(int64_t deals, int64_t total, double llr)> progress;
};

struct MatchPlayer {
  std::string name;
  double win_rate = 0;                    // win share per game (tie 1/2, R6.4)
  double win_ci_low = 0, win_ci_high = 0; // 95% interval, from the deals' spread
  double mean_score = 0;
};

struct MatchResult {
  int64_t games = 0, deals = 0;
  std::vector<MatchPlayer> players;
  // Two players: the first player's side.
  Pentanomial pentanomial{};
  EloEstimate elo;
  // With an SPRT.
  double llr = 0;
  SprtResult sprt = SprtResult::kContinue;
};

// The outcome of one deal: per player, its win shares over the n games in
// twelfths (Winners::ShareUnits: 0..12n) and its total score.
struct DealResult {
  int share_units[kMaxPlayers] = {};
  int score[kMaxPlayers] = {};
};

// Sees every roll of a deal: game g of the deal (0..n-1), the game before
// the roll (Phase::kRoll: seat, turn, kept dice) and the six dice rolled.
using RollObserver = std::function<void(int g, const Game& before, const Dice& six)>;

// Plays deal `deal` (exposed for tests): players by name as in `options`.
// Fails if a player breaks the rules or a table cannot be had.
absl::StatusOr<DealResult> PlayDeal(const MatchOptions& options, int64_t deal,
                                    const RollObserver& observer = nullptr);

absl::StatusOr<MatchResult> RunMatch(const MatchOptions& options);

}  // namespace penk

#endif  // PENK_AI_MATCH_H_
