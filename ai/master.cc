#include "ai/master.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ai/dice_stream.h"
#include "ai/rollout.h"
#include "engine/quoted_input.h"

namespace penk {
namespace {

// Trials between two looks at which rivals are clearly behind; 36 keeps the
// first two dice of the rotated first roll balanced within each round.
constexpr int64_t kRound = 36;
// A rival stops once its paired deficit to expert's choice exceeds this many
// standard errors, after at least two rounds.
constexpr double kDropZ = 2.5;

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

// Paired sums of a rival's outcomes minus expert's choice's, in halves.
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
  std::vector<std::string> parts = absl::StrSplit(absl::AsciiStrToLower(name), ':');
  if (parts.empty() || parts[0] != "master")
    return absl::InvalidArgumentError(absl::StrCat("not a master name: ", QuotedInput(name)));
  MasterParams p;
  for (size_t i = 1; i < parts.size(); ++i) {
    std::vector<std::string> kv = absl::StrSplit(parts[i], absl::MaxSplits('=', 1));
    double x;
    if (kv.size() != 2 || !absl::SimpleAtod(kv[1], &x) || !std::isfinite(x))
      return absl::InvalidArgumentError(
          absl::StrCat("master option ", QuotedInput(parts[i]), " must be key=number"));
    auto whole_in = [&](double lo, double hi) { return x == std::floor(x) && x >= lo && x <= hi; };
    const std::string& k = kv[0];
    bool ok = true;
    if (k == "trials") ok = whole_in(1, 100000), p.trials = static_cast<int64_t>(x);
    else if (k == "window") ok = x >= 0 && x <= 1, p.window = x;
    else if (k == "cands") ok = whole_in(1, 16), p.candidates = static_cast<int>(x);
    else if (k == "z") ok = x >= 0 && x <= 10, p.z = x;
    else if (k == "threads") ok = whole_in(1, kMaxMasterThreads), p.threads = static_cast<int>(x);
    else if (k == "ms") ok = whole_in(0, 3600000), p.time_ms = static_cast<int64_t>(x);
    else if (k == "seed") ok = whole_in(0, 9007199254740992.0), p.seed = static_cast<uint64_t>(x);
    else
      return absl::InvalidArgumentError(absl::StrCat("unknown master option ", QuotedInput(parts[i]),
                                                     "; known: trials, window, cands, z, threads, ms, seed"));
    if (!ok)
      return absl::InvalidArgumentError(absl::StrCat(
          "master option ", QuotedInput(parts[i]),
          " is out of range: trials 1..100000, window 0..1, cands 1..16, z 0..10, threads 1..",
          kMaxMasterThreads, ", ms 0..3600000, seed a whole number >= 0"));
  }
  return p;
}

MasterPlayer::MasterPlayer(std::shared_ptr<TableCache> tables, const MasterParams& params,
                           std::string name)
    : tables_(tables), params_(params), name_(std::move(name)), expert_(tables) {
  params_.threads = std::clamp(params_.threads, 1, kMaxMasterThreads);
}

Action MasterPlayer::Decide(const Game& game) {
  ++stats_.decisions;
  if (game.players() == 1) return expert_.Decide(game);  // solitaire: the exact optimum already
  const std::vector<WinRankedAction> ranked = expert_.Ranked(game);
  std::vector<Action> candidates{ranked.front().action};
  for (size_t i = 1; i < ranked.size() && static_cast<int>(candidates.size()) < params_.candidates; ++i)
    if (ranked[i].win >= ranked.front().win - params_.window) candidates.push_back(ranked[i].action);
  if (candidates.size() == 1) return candidates.front();
  return Choose(game, candidates);
}

Action MasterPlayer::Choose(const Game& game, const std::vector<Action>& candidates) {
  ++stats_.rolled;
  absl::StatusOr<Game> start = ManualDiceCopy(game);
  if (!start.ok()) return candidates.front();  // not a decision (cannot happen from Decide)
  const int c = static_cast<int>(candidates.size());
  const int threads = params_.threads;
  if (seats_.size() < static_cast<size_t>(threads)) seats_.resize(threads);
  for (auto& row : seats_)
    while (static_cast<int>(row.size()) < game.players())
      row.push_back(std::make_unique<ExpertPlayer>(tables_));

  const uint64_t seed = MixBits(PositionKey(game) ^ MixBits(params_.seed));
  const uint64_t offset = MixBits(seed) % 46656;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Paired> paired(c);  // rival minus expert's choice
  std::vector<bool> alive(c, true);
  std::vector<TrialOutcome> round(static_cast<size_t>(c) * kRound);
  std::exception_ptr error;
  for (int64_t first = 0; first < params_.trials; first += kRound) {
    const int64_t count = std::min(kRound, params_.trials - first);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t t = 0; t < count; ++t) {
      std::vector<Player*> seats;
      for (auto& p : seats_[omp_get_thread_num()]) seats.push_back(p.get());
      seats.resize(game.players());
      const uint64_t key = TrialKey(seed, first + t);
      try {
        for (int i = 0; i < c; ++i)
          if (alive[i])
            round[static_cast<size_t>(i) * kRound + t] =
                PlayOut(*start, candidates[i], seats, key, first + t + offset);
      } catch (...) {
#pragma omp critical(master_error)
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);  // TableUnavailable, as expert's own
    stats_.trials += count * std::count(alive.begin(), alive.end(), true);
    for (int i = 1; i < c; ++i) {
      if (!alive[i]) continue;
      Paired& p = paired[i];
      for (int64_t t = 0; t < count; ++t) {
        const double d = round[static_cast<size_t>(i) * kRound + t].half - round[t].half;
        ++p.n;
        p.sum += d;
        p.sum2 += d * d;
      }
      if (p.n >= 2 * kRound && p.Mean() + kDropZ * p.StandardError() < 0) alive[i] = false;
    }
    if (std::count(alive.begin(), alive.end(), true) == 1) break;
    if (params_.time_ms > 0 &&
        std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(params_.time_ms))
      break;
  }
  // Leave expert's choice only for a clear enough lead, and then for the
  // largest one.
  int best = 0;
  double best_lead = 0;
  for (int i = 1; i < c; ++i) {
    const Paired& p = paired[i];
    if (p.n == 0 || p.Mean() <= params_.z * p.StandardError()) continue;
    if (p.Mean() > best_lead) best = i, best_lead = p.Mean();
  }
  if (best != 0) ++stats_.switched;
  return candidates[best];
}

}  // namespace penk
