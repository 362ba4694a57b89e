#include "ai/match.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"
#include "ai/bot.h"
#include "ai/dice_stream.h"
#include "ai/parallel_block.h"
#include "ai/player.h"

namespace penk {
namespace {

uint64_t DealKey(uint64_t seed, int64_t deal) {
  return MixBits(MixBits(seed ^ 0x6d617463680aULL) ^ static_cast<uint64_t>(deal));
}

// Sums over deals in whole numbers, so their order never changes a total.
struct Sums {
  int64_t deals = 0;
  int64_t units[kMaxPlayers] = {}, units2[kMaxPlayers] = {}, score[kMaxPlayers] = {};
  Pentanomial penta{};
};

std::shared_ptr<const NeuralNet> NetOf(const MatchOptions& o, int player) {
  return player < static_cast<int>(o.nets.size()) ? o.nets[player] : nullptr;
}

}  // namespace

absl::StatusOr<DealResult> PlayDeal(const MatchOptions& o, int64_t deal,
                                    const RollObserver& observer) {
  const int n = static_cast<int>(o.players.size());
  const uint64_t key = DealKey(o.seed, deal);
  const DiceStream dice(key);
  DealResult result;
  for (int g = 0; g < n; ++g) {
    std::string why;
    try {
      // Seat s is player (s + g) mod n; a random player's own choices are
      // seeded by (deal, game, player), never by the thread.
      std::vector<std::unique_ptr<Player>> seats(n);
      for (int s = 0; s < n; ++s) {
        const int p = (s + g) % n;
        absl::StatusOr<std::unique_ptr<Player>> bot =
            MakeBot(o.players[p], o.rules, MixBits(key ^ (0x51ed27ULL * (g * kMaxPlayers + p + 1))),
                    o.tables, NetOf(o, p));
        if (!bot.ok()) return bot.status();
        seats[s] = *std::move(bot);
      }
      Game game = *Game::Create(n, o.rules, 0, DiceSource::kManual);
      while (!game.over() && why.empty()) {
        if (game.phase() == Phase::kRoll) {
          const Dice six = dice.Next(game);
          if (observer) observer(g, game, six);
          if (absl::Status st = game.Roll(six); !st.ok()) why = std::string(st.message());
          continue;
        }
        if (absl::Status st = PlayDecision(game, *seats[game.current()]); !st.ok())
          why = std::string(st.message());
      }
      if (why.empty()) {
        const Winners winners = GameWinners(game);
        for (int s = 0; s < n; ++s) {
          const int p = (s + g) % n;
          result.share_units[p] += winners.ShareUnits(game, s);  // R6.4
          result.score[p] += game.Score(s);
        }
      }
    } catch (const std::exception& e) {  // TableUnavailable, out of memory
      why = e.what();
    }
    if (!why.empty())
      return absl::InternalError(absl::StrCat("deal ", deal, ", game ", g + 1, ": ", why));
  }
  return result;
}

absl::StatusOr<MatchResult> RunMatch(const MatchOptions& o) {
  const int n = static_cast<int>(o.players.size());
  if (n < 2 || n > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("a match has 2 to 4 players (R1.4); got ", n));
  if (o.games < 1 || o.games > kMaxMatchGames)
    return absl::InvalidArgumentError(
        absl::StrCat("the number of games must be 1..", kMaxMatchGames, "; got ", o.games));
  if (o.threads < 1 || o.threads > kMaxMatchThreads)
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be 1..", kMaxMatchThreads, "; got ", o.threads));
  if (o.sprt) {
    if (n != 2)
      return absl::InvalidArgumentError(
          absl::StrCat("an SPRT compares two players; got ", n));
    const SprtBounds& b = *o.sprt;
    if (!(b.elo0 < b.elo1) || !std::isfinite(b.elo0) || !std::isfinite(b.elo1) ||
        std::fabs(b.elo0) > 1000 || std::fabs(b.elo1) > 1000)
      return absl::InvalidArgumentError(absl::StrCat(
          "the SPRT needs elo0 < elo1, both within +-1000; got elo0=", b.elo0, ", elo1=", b.elo1));
    if (!(b.alpha > 0 && b.alpha < 0.5 && b.beta > 0 && b.beta < 0.5))
      return absl::InvalidArgumentError("the SPRT's alpha and beta must be in (0, 0.5)");
  }
  if (o.nets.size() > o.players.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "nets are given for ", o.nets.size(), " players; the match has ", n));
  for (int p = 0; p < n; ++p) {  // names checked before any game
    absl::StatusOr<std::unique_ptr<Player>> bot = MakeBot(o.players[p], o.rules, 0, o.tables, NetOf(o, p));
    if (!bot.ok()) return bot.status();
  }
  const int64_t total = (o.games + n - 1) / n;
  // A block is a few deals per thread: results fold in deal order after it.
  const int64_t block = 8 * static_cast<int64_t>(o.threads);
  std::vector<DealResult> results(static_cast<size_t>(std::min(block, total)));
  Sums sums;
  MatchResult out;
  double llr = 0;
  for (int64_t first = 0; first < total && out.sprt == SprtResult::kContinue; first += block) {
    const int64_t count = std::min(block, total - first);
    if (absl::Status played = PlayBlock(o.threads, first, count, results,
                                        [&](int64_t deal) { return PlayDeal(o, deal); });
        !played.ok())
      return played;
    for (int64_t i = 0; i < count; ++i) {  // in deal order
      const DealResult& r = results[i];
      ++sums.deals;
      for (int p = 0; p < n; ++p) {
        sums.units[p] += r.share_units[p];
        sums.units2[p] += static_cast<int64_t>(r.share_units[p]) * r.share_units[p];
        sums.score[p] += r.score[p];
      }
      // Two games of two players: the first player's deal score in halves,
      // 0..4 (a game's share is 0, 6 or 12 twelfths).
      if (n == 2) ++sums.penta[r.share_units[0] / (Winners::kShareUnits / 2)];
      if (o.sprt) {
        llr = SprtLlr(sums.penta, o.sprt->elo0, o.sprt->elo1);
        out.sprt = SprtDecision(sums.penta, *o.sprt);
        if (out.sprt != SprtResult::kContinue) break;
      }
    }
    if (o.progress) o.progress(sums.deals, total, llr);
  }

  out.deals = sums.deals;
  out.games = sums.deals * n;
  out.llr = llr;
  const double D = static_cast<double>(sums.deals);
  for (int p = 0; p < n; ++p) {
    // Per deal, the player's mean win share over its n games.
    constexpr double kUnit = Winners::kShareUnits;
    const double sum = sums.units[p] / (kUnit * n), sum2 = sums.units2[p] / (kUnit * kUnit * n * n);
    const double mean = sum / D;
    const double var = D > 1 ? std::max(0.0, (sum2 - D * mean * mean) / (D - 1)) : 0;
    const double half = kZ95 * std::sqrt(var / D);
    MatchPlayer m;
    m.name = o.players[p];
    m.win_rate = mean;
    m.win_ci_low = std::max(0.0, mean - half);
    m.win_ci_high = std::min(1.0, mean + half);
    m.mean_score = sums.score[p] / (D * n);
    out.players.push_back(m);
  }
  if (n == 2) {
    out.pentanomial = sums.penta;
    out.elo = EloOfPentanomial(sums.penta);
  }
  return out;
}

}  // namespace penk
