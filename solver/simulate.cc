#include "solver/simulate.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "solver/bot.h"
#include "solver/player.h"

namespace penk {
namespace {

uint64_t Mix(uint64_t z) {  // splitmix64 finaliser
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct GameOutcome {
  // By player (not seat).
  double share[kMaxPlayers] = {};
  int score[kMaxPlayers] = {};
  int turns[kMaxPlayers] = {};
  bool ok = true;
  std::string error;
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
  for (const std::string& name : o.players) {  // names checked before any game
    absl::StatusOr<std::unique_ptr<Player>> bot = MakeBot(name, o.rules, 0);
    if (!bot.ok()) return bot.status();
  }
  std::vector<GameOutcome> outcomes(o.games);
  std::atomic<int64_t> done{0};
  const int threads = std::max(1, o.threads);

#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t g = 0; g < o.games; ++g) {
    GameOutcome& out = outcomes[g];
    const uint64_t game_seed = GameSeed(o.seed, g);
    // Seat s is player (s + g) mod n.
    std::vector<std::unique_ptr<Player>> seats(n);
    for (int s = 0; s < n; ++s) {
      const int p = static_cast<int>((s + g) % n);
      seats[s] = *MakeBot(o.players[p], o.rules, Mix(game_seed ^ (0x51ed27ULL * (p + 1))));
    }
    absl::StatusOr<Game> created = Game::Create(n, o.rules, game_seed);
    Game game = *created;
    while (!game.over()) {
      const int s = game.current();
      const Action a = seats[s]->Decide(game);
      absl::Status st = game.Apply(a);
      if (!st.ok()) {  // a player broke the rules: stop this game, report it
        out.ok = false;
        out.error = absl::StrCat(seats[s]->name(), " chose ", FormatAction(a), ": ",
                                 st.message());
        break;
      }
    }
    int best = -1, winners = 0;
    for (int s = 0; s < n; ++s) best = std::max(best, game.Score(s));
    for (int s = 0; s < n; ++s) winners += game.Score(s) == best;
    for (int s = 0; s < n; ++s) {
      const int p = static_cast<int>((s + g) % n);
      out.score[p] = game.Score(s);
      out.turns[p] = game.turns(s);
      // R6.4: tied players share the win; a tie counts half.
      out.share[p] = game.Score(s) != best ? 0.0 : winners == 1 ? 1.0 : 0.5;
    }
    const int64_t finished = ++done;
    if (o.progress && omp_get_thread_num() == 0) o.progress(finished, o.games);
  }
  if (o.progress) o.progress(o.games, o.games);

  SimulationResult result;
  result.games = o.games;
  for (int p = 0; p < n; ++p) {
    double share = 0, share2 = 0, score = 0, score2 = 0, turns = 0;
    for (const GameOutcome& out : outcomes) {
      if (!out.ok) return absl::InternalError(out.error);
      share += out.share[p];
      share2 += out.share[p] * out.share[p];
      score += out.score[p];
      score2 += static_cast<double>(out.score[p]) * out.score[p];
      turns += out.turns[p];
    }
    const double N = static_cast<double>(o.games);
    PlayerResult r;
    r.name = o.players[p];
    r.win_rate = share / N;
    const double var_share = N > 1 ? std::max(0.0, (share2 - N * r.win_rate * r.win_rate) / (N - 1)) : 0;
    const double half = 1.959963984540054 * std::sqrt(var_share / N);
    r.win_ci_low = std::max(0.0, r.win_rate - half);
    r.win_ci_high = std::min(1.0, r.win_rate + half);
    r.mean_score = score / N;
    r.sd_score = N > 1 ? std::sqrt(std::max(0.0, (score2 - N * r.mean_score * r.mean_score) / (N - 1))) : 0;
    r.mean_turns = turns / N;
    result.players.push_back(r);
  }
  return result;
}

}  // namespace penk
