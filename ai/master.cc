#include "ai/master.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ai/dice_stream.h"
#include "ai/name_options.h"
#include "ai/neural_default.h"
#include "ai/rollout.h"
#include "engine/quoted_input.h"

namespace penk {
namespace {

// Trials between two looks at which rivals are clearly behind; 36 keeps the
// first two dice of the rotated first roll balanced within each round.
constexpr int64_t kMasterRound = 36;
// A rival stops once its paired deficit to the base's choice exceeds this many
// standard errors, after at least two rounds.
constexpr double kMasterDropZ = 2.5;

// The decision's identity: the rollout dice are keyed by it, so that a
// position always gets the same rollouts.
uint64_t PositionKey(const Game& g) {
  uint64_t h = MixBits(static_cast<uint64_t>(g.players()) << 8 | g.current());
  for (int s = 0; s < g.players(); ++s) {
    h = MixBits(h ^ g.sheet(s).circled ^ (static_cast<uint64_t>(g.sheet(s).crossed) << 32));
    h = MixBits(h ^ static_cast<uint64_t>(g.turns(s)));
  }
  uint64_t dice = 0;
  for (uint8_t c : g.dice().count) dice = dice << 4 | c;
  const uint64_t phase = g.phase() == Phase::kKeep ? 1 + g.rerolls_left() : 0;
  return MixBits(h ^ dice ^ phase << 40 ^ static_cast<uint64_t>(g.last_round()) << 44);
}

// Paired sums of a rival's outcomes minus the base's choice's, in halves.
struct Paired {
  int64_t n = 0;
  double sum = 0, sum2 = 0;
  double Mean() const { return n ? sum / n : 0; }
  double StandardError() const {
    if (n < 2) return 0;
    const double m = Mean();
    return std::sqrt(std::max(0.0, (sum2 - n * m * m) / (n - 1)) / n);
  }
};

}  // namespace

absl::StatusOr<MasterParams> ParseMasterName(absl::string_view name) {
  // base=NAME is the one option whose value is a name: taken out first.
  MasterParams p;
  std::string rest;
  int bases = 0;
  for (absl::string_view part : absl::StrSplit(name, ':')) {
    if (absl::StartsWith(absl::AsciiStrToLower(part), "base=")) {
      const std::string base = absl::AsciiStrToLower(part.substr(5));
      if (++bases > 1)
        return absl::InvalidArgumentError("master option \"base\" is given twice");
      if (base == "expert") p.base = MasterBase::kExpert;
      else if (base == "neural") p.base = MasterBase::kNeural;
      else
        return absl::InvalidArgumentError(absl::StrCat(
            "master option base=", QuotedInput(base), " names no fast player; known: expert, neural"));
      continue;
    }
    absl::StrAppend(&rest, rest.empty() ? "" : ":", part);
  }
  absl::StatusOr<std::vector<std::pair<std::string, double>>> options =
      ParseNameOptions(rest, "master");
  if (!options.ok()) return options.status();
  for (const auto& [k, x] : *options) {
    auto whole_in = [x = x](double lo, double hi) { return x == std::floor(x) && x >= lo && x <= hi; };
    bool ok = true;
    if (k == "trials") ok = whole_in(1, 100000), p.trials = static_cast<int64_t>(x);
    else if (k == "window") ok = x >= 0 && x <= 1, p.window = x;
    else if (k == "cands") ok = whole_in(1, 16), p.candidates = static_cast<int>(x);
    else if (k == "z") ok = x >= 0 && x <= 10, p.z = x;
    else if (k == "threads") ok = whole_in(1, kMaxMasterThreads), p.threads = static_cast<int>(x);
    else if (k == "ms") ok = whole_in(0, 3600000), p.time_ms = static_cast<int64_t>(x);
    else if (k == "seed") ok = whole_in(0, 9007199254740992.0), p.seed = static_cast<uint64_t>(x);
    else if (k == "solitaire") ok = x == 0 || x == 1, p.solitaire = x != 0;
    else
      return absl::InvalidArgumentError(
          absl::StrCat("unknown master option ", QuotedInput(k),
                       "; known: base, trials, window, cands, z, threads, ms, seed, solitaire"));
    if (!ok)
      return absl::InvalidArgumentError(absl::StrCat(
          "master option ", k, "=", x,
          " is out of range: trials 1..100000, window 0..1, cands 1..16, z 0..10, threads 1..",
          kMaxMasterThreads, ", ms 0..3600000, seed a whole number >= 0, solitaire 0 or 1"));
  }
  return p;
}

namespace {

// The base's net: params.base decides, never the presence of `net` (a
// base=neural master built without one takes the built-in net, which the
// build checks; base=expert has none).
std::shared_ptr<const NeuralNet> BaseNet(const MasterParams& params,
                                         std::shared_ptr<const NeuralNet> net) {
  if (params.base != MasterBase::kNeural) return nullptr;
  return net ? net : BuiltInNeuralNet().value();
}

}  // namespace

MasterPlayer::MasterPlayer(std::shared_ptr<TableCache> tables, const MasterParams& params,
                           std::string name, std::shared_ptr<const NeuralNet> net)
    : tables_(tables),
      params_(params),
      name_(std::move(name)),
      base_params_(params.base == MasterBase::kNeural ? *ParseNeuralName("neural")
                                                      : ExpertParams{}),
      net_(BaseNet(params, std::move(net))),
      base_(tables, base_params_, net_ ? "neural" : "expert", net_) {
  params_.threads = std::clamp(params_.threads, 1, kMaxMasterThreads);
}

Action MasterPlayer::Decide(const Game& game) {
  ++stats_.decisions;
  if (game.players() == 1) return base_.Decide(game);  // solitaire: the exact optimum already
  const std::vector<WinRankedAction> ranked = base_.Ranked(game);
  std::vector<Action> candidates{ranked.front().action};
  std::vector<double> values{ranked.front().win};
  for (size_t i = 1; i < ranked.size() && static_cast<int>(candidates.size()) < params_.candidates; ++i)
    if (ranked[i].win >= ranked.front().win - params_.window) {
      candidates.push_back(ranked[i].action);
      values.push_back(ranked[i].win);
    }
  // The exact solitaire choice joins whatever the base thinks of it: where
  // the base is confidently wrong, it is most often by neglecting its own
  // sheet's future, which that choice values exactly. A poor one is dropped
  // after two rounds (72 trials), so the look is cheap.
  if (params_.solitaire) {
    const Action s = base_.SolitaireChoice(game);
    if (std::find(candidates.begin(), candidates.end(), s) == candidates.end())
      for (const WinRankedAction& r : ranked)
        if (r.action == s) {
          candidates.push_back(s);
          values.push_back(r.win);
        }
  }
  if (candidates.size() == 1) return candidates.front();
  return Choose(game, candidates, values);
}

Action MasterPlayer::Choose(const Game& game, const std::vector<Action>& candidates,
                            const std::vector<double>& values) {
  ++stats_.rolled;
  absl::StatusOr<Game> start = ManualDiceCopy(game);
  if (!start.ok()) return candidates.front();  // not a decision (cannot happen from Decide)
  const int c = static_cast<int>(candidates.size());
  const int n = game.players(), me = game.current();
  const int threads = params_.threads;
  if (seats_.size() < static_cast<size_t>(threads)) seats_.resize(threads);
  for (auto& row : seats_)
    while (static_cast<int>(row.size()) < n) row.push_back(std::make_unique<ExpertPlayer>(tables_, base_params_, base_.name(), net_));

  const uint64_t seed = MixBits(PositionKey(game) ^ MixBits(params_.seed));
  const uint64_t offset = MixBits(seed) % 46656;
  const auto t0 = std::chrono::steady_clock::now();
  // Per candidate and trial: the mover's win share (0, 1/2, 1, R6.4) and
  // the luck of the trial as the base sees it (below).
  std::vector<std::vector<double>> win(c), luck(c);
  std::vector<bool> alive(c, true);
  std::vector<int64_t> played(c, 0);
  std::exception_ptr error;
  double beta = 0;
  auto paired = [&](int i) {  // rival i minus the base's choice, luck removed
    Paired p;
    for (int64_t t = 0; t < played[i]; ++t) {
      const double d = (win[i][t] - beta * luck[i][t]) - (win[0][t] - beta * luck[0][t]);
      ++p.n;
      p.sum += d;
      p.sum2 += d * d;
    }
    return p;
  };
  for (int64_t first = 0; first < params_.trials; first += kMasterRound) {
    const int64_t count = std::min(kMasterRound, params_.trials - first);
    for (int i = 0; i < c; ++i)
      if (alive[i]) {
        win[i].resize(first + count);
        luck[i].resize(first + count);
      }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t t = first; t < first + count; ++t) {
      const std::vector<std::unique_ptr<ExpertPlayer>>& row = seats_[omp_get_thread_num()];
      std::vector<Player*> seats(n);
      for (int s = 0; s < n; ++s) seats[s] = row[s].get();
      const uint64_t key = TrialKey(seed, t);
      if (IsCancelled(cancel_)) continue;  // the round ends at once; thrown below
      try {
        for (int i = 0; i < c; ++i) {
          if (!alive[i]) continue;
          // Luck, gnubg's variance reduction: each turn's end value minus
          // its start value by the base's own estimate, zero on average
          // because the base plays the turn that its start value averages.
          // The mover's turns count for it, the others' against it; the
          // turn now starts from the candidate's value (a marking ends it
          // at exactly that value: no luck).
          std::array<int, kMaxPlayers> open{};
          std::array<double, kMaxPlayers> from{};
          open.fill(-1);
          if (candidates[i].kind == Action::kKeep) open[me] = game.turns(me), from[me] = values[i];
          double sum = 0;
          auto observe = [&](int seat, int turn, Phase phase) {
            const ExpertPlayer& e = *row[seat];
            if (open[seat] != turn) open[seat] = turn, from[seat] = e.turn_start();
            if (phase != Phase::kMark) return;
            const double l = e.last_value() - from[seat];
            sum += seat == me ? l : -l / (n - 1);
            open[seat] = -1;
          };
          const TrialOutcome o = PlayOut(*start, candidates[i], seats, key, t + offset, observe);
          win[i][t] = o.share_units / double{Winners::kShareUnits};  // R6.4
          luck[i][t] = std::isfinite(sum) ? sum : 0;
        }
      } catch (...) {
#pragma omp critical(master_error)
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);  // TableUnavailable, as expert's own
    if (IsCancelled(cancel_)) throw Cancelled();
    for (int i = 0; i < c; ++i)
      if (alive[i]) played[i] = first + count, stats_.trials += count;
    // The luck's weight: the least-squares slope of the win on the luck,
    // pooled over every trial played, within [0, 1.5].
    double sw = 0, sl = 0, sll = 0, swl = 0, m = 0;
    for (int i = 0; i < c; ++i)
      for (int64_t t = 0; t < played[i]; ++t) {
        sw += win[i][t], sl += luck[i][t], ++m;
        sll += luck[i][t] * luck[i][t], swl += win[i][t] * luck[i][t];
      }
    const double var = sll - sl * sl / m, cov = swl - sw * sl / m;
    beta = var > 1e-12 ? std::clamp(cov / var, 0.0, 1.5) : 0;
    for (int i = 1; i < c; ++i) {
      if (!alive[i]) continue;
      const Paired p = paired(i);
      if (p.n >= 2 * kMasterRound && p.Mean() + kMasterDropZ * p.StandardError() < 0) alive[i] = false;
    }
    if (std::count(alive.begin(), alive.end(), true) == 1) break;
    if (params_.time_ms > 0 &&
        std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(params_.time_ms))
      break;
  }
  // Leave the base's choice only for a clear enough lead, and then for the
  // largest one.
  int best = 0;
  double best_lead = 0;
  for (int i = 1; i < c; ++i) {
    const Paired p = paired(i);
    if (p.n == 0 || p.Mean() <= params_.z * p.StandardError()) continue;
    if (p.Mean() > best_lead) best = i, best_lead = p.Mean();
  }
  if (best != 0) ++stats_.switched;
  return candidates[best];
}

}  // namespace penk
