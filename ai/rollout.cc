#include "ai/rollout.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <numeric>
#include <string>

#include "absl/strings/str_cat.h"
#include "ai/bot.h"
#include "ai/dice_stream.h"
#include "ai/player.h"
#include "ai/sprt.h"

namespace penk {
namespace {

// Trials per candidate between two looks at who is clearly behind: 36 keeps
// the first two dice of the rotated first roll balanced within each round.
constexpr int64_t kRound = 36;
// A candidate is dropped only after this many paired trials.
constexpr int64_t kMinTrialsToDrop = 2 * kRound;
constexpr double kDropZ = 3.0;

struct Running {
  int64_t n = 0;
  // Win shares in twelfths (and for pairs, their differences) and margins.
  double units = 0, units2 = 0, margin = 0, margin2 = 0;
};

// One trial with fresh players of the named policy in every seat.
TrialOutcome PlayTrial(const Game& start, const Action& candidate, const RolloutOptions& o,
                       int64_t trial, uint64_t offset) {
  const uint64_t key = TrialKey(o.seed, trial);
  std::vector<std::unique_ptr<Player>> owned(start.players());
  std::vector<Player*> seats(start.players());
  for (int s = 0; s < start.players(); ++s) {  // checked by Rollout before any trial
    owned[s] = *MakeBot(o.policy, start.rules(), MixBits(key ^ (0x5eedULL * (s + 1))), o.tables);
    seats[s] = owned[s].get();
  }
  return PlayOut(start, candidate, seats, key, trial + offset);
}

// 95% normal interval of a mean from running sums (exact when all equal).
void Interval(double sum, double sum2, int64_t n, double* mean, double* low, double* high) {
  *mean = n ? sum / n : 0;
  const double var = n > 1 ? std::max(0.0, (sum2 - n * *mean * *mean) / (n - 1)) : 0;
  const double half = kZ95 * std::sqrt(var / std::max<int64_t>(n, 1));
  *low = *mean - half;
  *high = *mean + half;
}

}  // namespace

uint64_t TrialKey(uint64_t seed, int64_t trial) {
  return MixBits(MixBits(seed ^ 0x726f6c6c6f7574ULL) ^ static_cast<uint64_t>(trial));
}

absl::StatusOr<Game> ManualDiceCopy(const Game& g) {
  if (g.over()) return absl::InvalidArgumentError("the game is over: nothing to roll out");
  if (g.phase() == Phase::kRoll)
    return absl::InvalidArgumentError("the dice are not rolled yet: roll out a decision, not a roll");
  Position p;
  for (int s = 0; s < g.players(); ++s) {
    p.sheets.push_back(g.sheet(s));
    p.turns.push_back(g.turns(s));
  }
  p.current = g.current();
  p.last_round = g.last_round();
  p.dice = g.dice();
  p.rerolls_left = g.phase() == Phase::kKeep ? g.rerolls_left() : 0;
  return Game::FromPosition(p, g.rules(), 0, DiceSource::kManual);
}

TrialOutcome PlayOut(const Game& start, const Action& candidate, const std::vector<Player*>& seats,
                     uint64_t key, uint64_t first_roll, const DecisionObserver& observer) {
  const DiceStream stream(key);
  const int n = start.players(), me = start.current();
  Game game = start;
  if (!game.Apply(candidate).ok()) throw std::logic_error("candidate not legal");  // checked before
  // The rotated first roll: six base-6 digits of first_roll.
  bool first = true;
  uint64_t code = first_roll % 46656;
  while (!game.over()) {
    if (game.phase() == Phase::kRoll) {
      Dice six;
      if (first) {
        std::array<int, kDice> v{};
        for (int& f : v) {
          f = static_cast<int>(code % 6);
          code /= 6;
        }
        six = DiceStream::Fill(game.kept(), v);
        first = false;
      } else {
        six = stream.Next(game);
      }
      if (absl::Status st = game.Roll(six); !st.ok()) throw std::logic_error(std::string(st.message()));
      continue;
    }
    const int seat = game.current(), turn = game.turns(seat);
    const Phase phase = game.phase();
    if (absl::Status st = PlayDecision(game, *seats[seat]); !st.ok())
      throw std::logic_error(std::string(st.message()));
    if (observer) observer(seat, turn, phase);
  }
  int best_other = -1;
  for (int s = 0; s < n; ++s)
    if (s != me) best_other = std::max(best_other, game.Score(s));
  const Winners winners = GameWinners(game);
  TrialOutcome out;
  out.share_units = winners.ShareUnits(game, me);  // R6.4
  out.margin = game.Score(me) - (n > 1 ? best_other : 0);
  out.done = true;
  return out;
}

absl::StatusOr<RolloutResult> Rollout(const Game& position, const std::vector<Action>& candidates,
                                      const RolloutOptions& o) {
  if (o.trials < 1 || o.trials > kMaxRollouts)
    return absl::InvalidArgumentError(
        absl::StrCat("rollouts must be 1..", kMaxRollouts, " per candidate; got ", o.trials));
  if (o.threads < 1 || o.threads > kMaxRolloutThreads)
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be 1..", kMaxRolloutThreads, "; got ", o.threads));
  if (o.time_ms < 0 || o.time_ms > kMaxRolloutTimeMs)
    return absl::InvalidArgumentError(absl::StrCat(
        "the time bound must be 0 (none) to ", kMaxRolloutTimeMs, " ms; got ", o.time_ms));
  if (candidates.empty()) return absl::InvalidArgumentError("no candidate to roll out");
  absl::StatusOr<Game> start = ManualDiceCopy(position);
  if (!start.ok()) return start.status();
  for (const Action& a : candidates) {
    Game copy = *start;
    if (absl::Status st = copy.Apply(a); !st.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("candidate ", FormatAction(a), " is not legal here: ", st.message()));
  }
  if (absl::StatusOr<std::unique_ptr<Player>> bot = MakeBot(o.policy, start->rules(), 0, o.tables);
      !bot.ok())
    return bot.status();

  const auto t0 = std::chrono::steady_clock::now();
  auto out_of_time = [&] {
    return o.time_ms > 0 && std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(o.time_ms);
  };
  const int c = static_cast<int>(candidates.size());
  const uint64_t offset = MixBits(o.seed) % 46656;
  std::vector<Running> run(c);
  // Paired differences (row minus column) over the trials both played: the
  // leader is compared with its rivals on the same dice.
  std::vector<Running> pair(static_cast<size_t>(c) * c);
  std::vector<bool> alive(c, true);
  std::vector<TrialOutcome> round(static_cast<size_t>(c) * kRound);
  bool timed_out = false, table_error = false;
  std::string error;
  bool cancelled = false;
  // Progress in trials: a dropped candidate's trials count as done.
  auto played = [&] {
    int64_t done = 0;
    for (int i = 0; i < c; ++i) done += alive[i] ? run[i].n : o.trials;
    return done;
  };
  auto report = [&] {
    if (o.progress) o.progress->Update(played(), static_cast<int64_t>(c) * o.trials);
  };
  if (o.progress)
    o.progress->Set(absl::StrCat("rollouts of ", c, " candidates by ", o.policy), 0,
                    static_cast<int64_t>(c) * o.trials);
  for (int64_t t0_trial = 0; t0_trial < o.trials && !timed_out && !cancelled; t0_trial += kRound) {
    const int64_t count = std::min(kRound, o.trials - t0_trial);
    std::vector<int> live;
    for (int i = 0; i < c; ++i)
      if (alive[i]) live.push_back(i);
    std::fill(round.begin(), round.end(), TrialOutcome{});
    const int64_t jobs = static_cast<int64_t>(live.size()) * count;
    // Progress trial by trial (a round of a slow policy takes long).
    const int64_t played_before = o.progress ? played() : 0;
    std::atomic<int64_t> finished{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
#pragma omp parallel for num_threads(o.threads) schedule(dynamic, 1)
    for (int64_t j = 0; j < jobs; ++j) {
      if (stop.load(std::memory_order_relaxed)) continue;
      if (out_of_time() || IsCancelled(o.cancel)) {
        stop = true;
        continue;
      }
      const int i = live[j / count];
      const int64_t t = j % count;
      try {
        round[static_cast<size_t>(i) * kRound + t] =
            PlayTrial(*start, candidates[i], o, t0_trial + t, offset);
        if (o.progress)
          o.progress->Update(played_before + ++finished, static_cast<int64_t>(c) * o.trials);
      } catch (const TableUnavailable& e) {  // the table's problem, not the query's
        std::lock_guard<std::mutex> lock(mutex);
        if (error.empty()) error = e.what(), table_error = true;
        stop = true;
      } catch (const std::exception& e) {  // out of memory, a broken bot
        std::lock_guard<std::mutex> lock(mutex);
        if (error.empty()) error = e.what();
        stop = true;
      }
    }
    if (!error.empty())
      return table_error ? absl::UnavailableError(error)
                         : absl::InternalError(absl::StrCat("rollout: ", error));
    // Stopped from outside: what was played is kept, as for the time bound.
    cancelled = IsCancelled(o.cancel);
    timed_out = stop.load() && !cancelled;
    for (int i : live)
      for (int64_t t = 0; t < count; ++t) {
        const TrialOutcome& a = round[static_cast<size_t>(i) * kRound + t];
        if (!a.done) continue;
        Running& r = run[i];
        ++r.n;
        r.units += a.share_units;
        r.units2 += a.share_units * a.share_units;
        r.margin += a.margin;
        r.margin2 += static_cast<double>(a.margin) * a.margin;
        for (int k : live) {
          const TrialOutcome& b = round[static_cast<size_t>(k) * kRound + t];
          if (k == i || !b.done) continue;
          Running& p = pair[static_cast<size_t>(i) * c + k];
          const double d = (a.share_units - b.share_units) / double{Winners::kShareUnits};
          ++p.n;
          p.units += d;
          p.units2 += d * d;
        }
      }
    if (!o.drop) {
      report();
      continue;
    }
    int leader = live.front();
    for (int i : live)
      if (run[i].units * run[leader].n > run[leader].units * run[i].n) leader = i;
    for (int i : live) {
      const Running& p = pair[static_cast<size_t>(i) * c + leader];
      if (i == leader || p.n < kMinTrialsToDrop) continue;
      const double mean = p.units / p.n;
      const double var = std::max(0.0, (p.units2 - p.n * mean * mean) / (p.n - 1));
      if (mean + kDropZ * std::sqrt(var / p.n) < 0) alive[i] = false;
    }
    report();
  }

  RolloutResult result;
  result.timed_out = timed_out;
  result.cancelled = cancelled;
  for (int i = 0; i < c; ++i) {
    RolloutCandidate r;
    r.action = candidates[i];
    r.trials = run[i].n;
    r.dropped = !alive[i];
    constexpr double kUnit = Winners::kShareUnits;
    Interval(run[i].units / kUnit, run[i].units2 / (kUnit * kUnit), r.trials, &r.win, &r.win_low,
             &r.win_high);
    r.win_low = std::max(0.0, r.win_low);
    r.win_high = std::min(1.0, r.win_high);
    Interval(run[i].margin, run[i].margin2, r.trials, &r.margin, &r.margin_low, &r.margin_high);
    result.candidates.push_back(r);
  }
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   [](const RolloutCandidate& a, const RolloutCandidate& b) {
                     if (a.win != b.win) return a.win > b.win;
                     return a.margin > b.margin;
                   });
  return result;
}

absl::StatusOr<Game> GameOfWinQuery(const WinQuery& q, const Dice& roll, int rerolls) {
  const int n = 1 + static_cast<int>(q.opponents.size());
  if (n > kMaxPlayers || q.seat < 1 || q.seat > n)
    return absl::InvalidArgumentError(absl::StrCat("seat must be 1..", std::min(n, kMaxPlayers),
                                                   " with ", q.opponents.size(), " opponents"));
  const int me = q.seat - 1;
  Position p;
  p.sheets.resize(n);
  p.sheets[me] = q.sheet;
  for (int i = 0; i + 1 < n; ++i) p.sheets[(me + 1 + i) % n] = q.opponents[i];
  p.current = me;
  p.dice = roll;
  p.rerolls_left = rerolls;
  // Without a turn count, the fast estimate's (RankForWin: filled cells /
  // 2.7), so that expert plays the rollouts on the scale it ranked by;
  // if the other sheets cannot have played that many turns, the fewest
  // turns the sheets allow.
  const int turns = q.turns >= 0 ? q.turns
                                 : static_cast<int>(std::lround((25 - q.sheet.FreeCount()) / 2.7));
  for (int s = 0; s < n; ++s)  // R5.2: the seats before the mover have played this round
    p.turns.push_back(turns + (s < me ? 1 : 0));
  absl::StatusOr<Game> game = Game::FromPosition(p, q.rules, 0, DiceSource::kManual);
  if (game.ok() || q.turns >= 0) return game;
  p.turns.clear();
  return Game::FromPosition(p, q.rules, 0, DiceSource::kManual);
}

}  // namespace penk
