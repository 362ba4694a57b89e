#include "ai/simulate.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "ai/bot.h"
#include "ai/player.h"

namespace penk {
namespace {

uint64_t Mix(uint64_t z) {  // splitmix64 finaliser
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Running sums of whole numbers (win shares in halves), so that adding games
// in any order gives the same totals.
struct Totals {
  // Win shares in twelfths (Winners::ShareUnits) and their squares.
  int64_t share_units[kMaxPlayers] = {}, share_units2[kMaxPlayers] = {};
  int64_t score[kMaxPlayers] = {}, score2[kMaxPlayers] = {};
  int64_t turns[kMaxPlayers] = {};
  void Add(const Totals& o) {
    for (int p = 0; p < kMaxPlayers; ++p) {
      share_units[p] += o.share_units[p];
      share_units2[p] += o.share_units2[p];
      score[p] += o.score[p];
      score2[p] += o.score2[p];
      turns[p] += o.turns[p];
    }
  }
};

}  // namespace

uint64_t GameSeed(uint64_t seed, int64_t game) {
  return Mix(Mix(seed) ^ static_cast<uint64_t>(game));
}

absl::StatusOr<SimulationResult> Simulate(const SimulationOptions& o) {
  const int n = static_cast<int>(o.players.size());
  if (n < 1 || n > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("a game has 1 to 4 players (R1.4); got ", n));
  if (o.games < 1) return absl::InvalidArgumentError("the number of games must be at least 1");
  if (o.games > kMaxSimulatedGames)
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxSimulatedGames, " games; got ", o.games));
  if (o.threads < 1 || o.threads > kMaxSimulationThreads)
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be 1..", kMaxSimulationThreads, "; got ", o.threads));
  for (const std::string& name : o.players) {  // names checked before any game
    absl::StatusOr<std::unique_ptr<Player>> bot = MakeBot(name, o.rules, 0, o.tables);
    if (!bot.ok()) return bot.status();
  }
  Totals totals;
  std::mutex mutex;  // guards totals and error
  std::string error;
  std::atomic<bool> failed{false};
  std::atomic<int64_t> done{0};

#pragma omp parallel num_threads(o.threads)
  {
    Totals mine;
#pragma omp for schedule(dynamic, 1)
    for (int64_t g = 0; g < o.games; ++g) {
      if (failed.load(std::memory_order_relaxed)) continue;  // a game failed: finish fast
      const uint64_t game_seed = GameSeed(o.seed, g);
      std::string why;
      try {
        // Seat s is player (s + g) mod n.
        std::vector<std::unique_ptr<Player>> seats(n);
        for (int s = 0; s < n; ++s) {
          const int p = static_cast<int>((s + g) % n);
          seats[s] = *MakeBot(o.players[p], o.rules, Mix(game_seed ^ (0x51ed27ULL * (p + 1))),
                              o.tables);
        }
        Game game = *Game::Create(n, o.rules, game_seed);
        while (!game.over() && why.empty()) {
          if (absl::Status st = PlayDecision(game, *seats[game.current()]); !st.ok())
            why = std::string(st.message());
        }
        if (why.empty()) {
          const Winners winners = GameWinners(game);
          for (int s = 0; s < n; ++s) {
            const int p = static_cast<int>((s + g) % n);
            const int64_t score = game.Score(s);
            const int64_t units = winners.ShareUnits(game, s);  // R6.4
            mine.share_units[p] += units;
            mine.share_units2[p] += units * units;
            mine.score[p] += score;
            mine.score2[p] += score * score;
            mine.turns[p] += game.turns(s);
          }
        }
      } catch (const std::exception& e) {  // TableUnavailable, out of memory
        why = e.what();
      }
      if (!why.empty()) {
        std::lock_guard<std::mutex> lock(mutex);
        if (error.empty()) error = absl::StrCat("game ", g, ": ", why);
        failed = true;
      }
      const int64_t finished = ++done;
      if (o.progress && omp_get_thread_num() == 0) o.progress(finished, o.games);
    }
    std::lock_guard<std::mutex> lock(mutex);
    totals.Add(mine);
  }
  if (failed) return absl::InternalError(error);
  if (o.progress) o.progress(o.games, o.games);

  SimulationResult result;
  result.games = o.games;
  const double N = static_cast<double>(o.games);
  for (int p = 0; p < n; ++p) {
    constexpr double kUnit = Winners::kShareUnits;
    const double share = totals.share_units[p] / kUnit;
    const double share2 = totals.share_units2[p] / (kUnit * kUnit);
    const double score = static_cast<double>(totals.score[p]);
    const double score2 = static_cast<double>(totals.score2[p]);
    PlayerResult r;
    r.name = o.players[p];
    r.win_rate = share / N;
    const double var_share = N > 1 ? std::max(0.0, (share2 - N * r.win_rate * r.win_rate) / (N - 1)) : 0;
    const double half = 1.959963984540054 * std::sqrt(var_share / N);
    r.win_ci_low = std::max(0.0, r.win_rate - half);
    r.win_ci_high = std::min(1.0, r.win_rate + half);
    r.mean_score = score / N;
    r.sd_score = N > 1 ? std::sqrt(std::max(0.0, (score2 - N * r.mean_score * r.mean_score) / (N - 1))) : 0;
    r.mean_turns = static_cast<double>(totals.turns[p]) / N;
    result.players.push_back(r);
  }
  return result;
}

}  // namespace penk
