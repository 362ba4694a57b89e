#include "ai/calibration.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/dice_stream.h"
#include "ai/neural_default.h"
#include "ai/win_ranking.h"
#include "ai/parallel_block.h"
#include "ai/player.h"
#include "engine/game.h"

namespace penk {

namespace {

uint64_t GameKey(uint64_t seed, int64_t game) {
  return MixBits(MixBits(seed ^ 0x63616c6962ULL) ^ static_cast<uint64_t>(game));
}

// The half-width of the 95% interval of a ratio mean m = sum y / n clustered
// by game (the sandwich variance sum_g (S_g - m n_g)^2 / n^2), from the sums
// over games of S_g^2, S_g n_g and n_g^2.
double ClusteredHalfWidth(double s2, double sn, double n2, double m, double n) {
  return 1.959964 * std::sqrt(std::max(0.0, s2 - 2 * m * sn + m * m * n2) / (n * n));
}

// A bucket's figures from its sums: its positions, mean prediction, mean
// outcome and that mean's 95% interval (clustered by game) clipped to
// [low, high]. The same for win chances (BucketStats) and scores (ScoreBucket).
template <class Bucket>
void FillBucket(const ClusteredSums& s, double low, double high, Bucket& out) {
  out.positions = s.n;
  if (s.n == 0) return;
  const double n = static_cast<double>(s.n);
  out.predicted = s.p / n;
  out.observed = s.y / n;
  const double half = ClusteredHalfWidth(s.s2, s.sn, s.n2, out.observed, n);
  out.ci_low = std::max(low, out.observed - half);
  out.ci_high = std::min(high, out.observed + half);
}

// Adds one game's positions, (bucket, prediction, outcome) each, to `sums`.
template <size_t N, class Positions, class Of>
void AddClusteredGame(std::array<ClusteredSums, N>& sums, const Positions& positions, Of of) {
  std::array<double, N> s{}, n{};
  for (const auto& x : positions) {
    const auto [b, predicted, outcome] = of(x);
    ClusteredSums& sum = sums[b];
    ++sum.n;
    sum.p += predicted;
    sum.y += outcome;
    s[b] += outcome;
    n[b] += 1;
  }
  for (size_t b = 0; b < N; ++b) {
    sums[b].s2 += s[b] * s[b];
    sums[b].sn += s[b] * n[b];
    sums[b].n2 += n[b] * n[b];
  }
}

// One position of a game before its outcome is known.
struct Pending {
  int seat = 0, turns = 0;
  double raw = 0;
  double neural = std::nan(""), neural_score = std::nan("");  // NaN: no net for these rules
  // A marking's or failure's leaf: the net's score there before its map (NaN
  // where the leaf is the final score, and for keeps): the score map's fit.
  double net_score = std::nan("");
  bool exact = false;  // the last round of two players: the figure is the exact chance
};

struct GameRecord {
  int players = 2;
  std::vector<Pending> positions;
  std::array<double, kMaxPlayers> share{};  // by seat
  std::array<int, kMaxPlayers> score{};     // final, by seat
};

absl::StatusOr<GameRecord> PlayCalibrationGame(const CalibrationOptions& o, int64_t index) {
  const std::vector<std::string>& lineup = o.lineups[index % o.lineups.size()];
  const int n = static_cast<int>(lineup.size());
  const int rotation = static_cast<int>((index / static_cast<int64_t>(o.lineups.size())) % n);
  const uint64_t key = GameKey(o.seed, index);
  const DiceStream dice(key);
  GameRecord record;
  record.players = n;
  std::string why;
  try {
    std::vector<std::unique_ptr<Player>> seats(n);
    for (int s = 0; s < n; ++s) {
      absl::StatusOr<std::unique_ptr<Player>> bot =
          MakeBot(lineup[(s + rotation) % n], o.rules, MixBits(key ^ (0x51ed27ULL * (s + 1))),
                  o.tables);
      if (!bot.ok()) return bot.status();
      seats[s] = *std::move(bot);
    }
    // The estimators: expert's fast estimate, and the neural player's
    // figures that RankForWin shows (where the net serves the rules).
    ExpertPlayer estimator(o.tables);
    absl::StatusOr<std::shared_ptr<const NeuralNet>> net = NetFor(nullptr, o.rules);
    std::unique_ptr<ExpertPlayer> neural;
    if (net.ok()) {
      neural = std::make_unique<ExpertPlayer>(o.tables, *ParseNeuralName("neural"), "neural", *net);
      neural->SetScoreMap(FittedNeuralScoreCalibration());  // the score hints show
    }
    Game game = *Game::Create(n, o.rules, 0, DiceSource::kManual);
    while (!game.over() && why.empty()) {
      if (game.phase() == Phase::kRoll) {
        if (absl::Status st = dice.RollNow(game); !st.ok()) why = std::string(st.message());
        continue;
      }
      const int s = game.current();
      const Action a = seats[s]->Decide(game);
      const ExpertView view = ExpertView::Of(game);
      double raw = 0;
      switch (a.kind) {
        case Action::kKeep:
          raw = estimator.KeepValue(view, game.dice(), game.rerolls_left(), a.keep);
          break;
        case Action::kMark: raw = estimator.MarkValue(view, a.cells); break;
        case Action::kFail: raw = estimator.FailValue(view, a.face); break;
      }
      Pending pending{s, game.turns(s), std::clamp(raw, 0.0, 1.0)};
      if (neural) {
        switch (a.kind) {
          case Action::kKeep:
            pending.neural = neural->KeepValue(view, game.dice(), game.rerolls_left(), a.keep);
            pending.neural_score = neural->KeepScore(view, game.dice(), game.rerolls_left(), a.keep);
            break;
          case Action::kMark:
            pending.neural = neural->MarkValue(view, a.cells);
            pending.neural_score = neural->MarkScore(view, a.cells);
            pending.net_score = neural->MarkNetScore(view, a.cells);
            break;
          case Action::kFail:
            pending.neural = neural->FailValue(view, a.face);
            pending.neural_score = neural->FailScore(view, a.face);
            pending.net_score = neural->FailNetScore(view, a.face);
            break;
        }
        pending.neural = std::clamp(pending.neural, 0.0, 1.0);
        pending.exact = WinIsExact(n, game.last_round());
      }
      record.positions.push_back(pending);
      if (absl::Status st = game.Apply(a); !st.ok())  // a player broke the rules
        why = absl::StrCat(seats[s]->name(), " chose ", FormatAction(a), ": ", st.message());
    }
    if (why.empty()) {
      const Winners winners = GameWinners(game);
      for (int s = 0; s < n; ++s) {
        record.share[s] = winners.Share(game, s);  // R6.4
        record.score[s] = game.Score(s);
      }
    }
  } catch (const std::exception& e) {  // TableUnavailable, out of memory
    why = e.what();
  }
  if (!why.empty()) return absl::InternalError(absl::StrCat("game ", index + 1, ": ", why));
  return record;
}

}  // namespace

int CalibrationBucket(double p) {
  if (!(p > 0)) return 0;  // also NaN
  return std::min(kCalibrationBuckets - 1, static_cast<int>(p * kCalibrationBuckets));
}

// ---------------------------------------------------------------------------

void ReliabilityAccumulator::AddGame(const std::vector<CalibrationSample>& positions) {
  ++games_;
  AddClusteredGame(sums_, positions, [](const CalibrationSample& x) {
    return std::tuple(CalibrationBucket(x.predicted), x.predicted, x.outcome);
  });
  for (const CalibrationSample& x : positions) {
    ++positions_;
    brier_ += (x.predicted - x.outcome) * (x.predicted - x.outcome);
    const double p = std::clamp(x.predicted, 1e-6, 1 - 1e-6);
    log_loss_ -= x.outcome * std::log(p) + (1 - x.outcome) * std::log(1 - p);
    y_ += x.outcome;
    y2_ += x.outcome * x.outcome;
  }
}

ReliabilityTable ReliabilityAccumulator::Table() const {
  ReliabilityTable t;
  t.games = games_;
  t.positions = positions_;
  if (positions_ > 0) {
    const double N = static_cast<double>(positions_), mean = y_ / N;
    t.brier = brier_ / N;
    t.log_loss = log_loss_ / N;
    t.brier_base = y2_ / N - mean * mean;  // mean (y - mean)^2
  }
  for (int b = 0; b < kCalibrationBuckets; ++b) {
    BucketStats& out = t.buckets[b];
    FillBucket(sums_[b], 0.0, 1.0, out);
    if (out.positions > 0) t.max_gap = std::max(t.max_gap, std::fabs(out.observed - out.predicted));
  }
  return t;
}

void ScoreAccumulator::AddGame(const std::vector<std::pair<double, double>>& positions) {
  AddClusteredGame(sums_, positions, [](const std::pair<double, double>& x) {
    return std::tuple(std::clamp(static_cast<int>(x.first / 10), 0, kScoreBuckets - 1), x.first,
                      x.second);
  });
  for (const auto& [predicted, final_score] : positions) {
    ++positions_;
    abs_error_ += std::fabs(predicted - final_score);
  }
}

ScoreTable ScoreAccumulator::Table() const {
  ScoreTable t;
  t.positions = positions_;
  if (positions_ > 0) t.mean_abs_error = abs_error_ / static_cast<double>(positions_);
  for (int b = 0; b < kScoreBuckets; ++b)
    FillBucket(sums_[b], -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
               t.buckets[b]);
  return t;
}

// ---------------------------------------------------------------------------

namespace {

// The x with h x = d (Gaussian elimination with partial pivoting; h is small,
// symmetric and made positive definite by the callers' ridge).
template <size_t K>
std::array<double, K> SolveLinear(std::array<std::array<double, K>, K> h, std::array<double, K> d) {
  for (size_t c = 0; c < K; ++c) {
    size_t piv = c;
    for (size_t r = c + 1; r < K; ++r)
      if (std::fabs(h[r][c]) > std::fabs(h[piv][c])) piv = r;
    std::swap(h[c], h[piv]);
    std::swap(d[c], d[piv]);
    for (size_t r = c + 1; r < K; ++r) {
      const double f = h[r][c] / h[c][c];
      for (size_t k = c; k < K; ++k) h[r][k] -= f * h[c][k];
      d[r] -= f * d[c];
    }
  }
  for (size_t c = K; c-- > 0;) {
    for (size_t k = c + 1; k < K; ++k) d[c] -= h[c][k] * d[k];
    d[c] /= h[c][c];
  }
  return d;
}

}  // namespace

FitAccumulator::FitAccumulator()
    : n_(3 * (kCalibrationMaxTurns + 1) * kLogitBins), y_(n_.size()) {}

void FitAccumulator::Add(const FitSample& s) {
  if (s.players < 2 || s.players > 4) return;
  const int t = std::clamp(s.turns, 0, kCalibrationMaxTurns);
  const int bin = static_cast<int>(std::lround((CalibrationLogit(s.raw) + kCalibrationLogitCap) / 0.05));
  const size_t i =
      (static_cast<size_t>(s.players - 2) * (kCalibrationMaxTurns + 1) + t) * kLogitBins +
      std::clamp(bin, 0, kLogitBins - 1);
  n_[i] += 1;
  y_[i] += s.outcome;
  ++positions_;
}

std::array<CalibrationMap, 3> FitAccumulator::Fit() const {
  constexpr int K = kCalibrationFeatures;
  std::array<CalibrationMap, 3> maps{};
  for (int p = 0; p < 3; ++p) {
    // Newton's method on the weighted log-likelihood of the bins.
    std::array<double, K> w = CalibrationMap{}.w;
    bool any = false;
    for (int iter = 0; iter < 100; ++iter) {
      std::array<double, K> g{};
      std::array<std::array<double, K>, K> h{};
      for (int t = 0; t <= kCalibrationMaxTurns; ++t)
        for (int b = 0; b < kLogitBins; ++b) {
          const size_t i = (static_cast<size_t>(p) * (kCalibrationMaxTurns + 1) + t) * kLogitBins + b;
          if (n_[i] == 0) continue;
          any = true;
          const std::array<double, K> f = CalibrationFeaturesAt(-kCalibrationLogitCap + 0.05 * b, CalibrationTurnFeature(t));
          double z = 0;
          for (int j = 0; j < K; ++j) z += w[j] * f[j];
          const double q = Logistic(z);
          for (int j = 0; j < K; ++j) {
            g[j] += (y_[i] - n_[i] * q) * f[j];
            for (int k = 0; k < K; ++k) h[j][k] += n_[i] * q * (1 - q) * f[j] * f[k];
          }
        }
      if (!any) break;
      for (int j = 0; j < K; ++j) h[j][j] += 1e-6;  // a feature without spread stays put
      const std::array<double, K> d = SolveLinear(h, g);
      double step = 0;
      for (int j = 0; j < K; ++j) w[j] += d[j], step = std::max(step, std::fabs(d[j]));
      if (step < 1e-10) break;
    }
    if (any) maps[p].w = w;
  }
  return maps;
}

void ScoreFitAccumulator::Add(const ScoreFitSample& s) {
  if (s.players < 2 || s.players > 4 || std::isnan(s.net_score)) return;
  const int p = s.players - 2;
  const std::array<double, kScoreMapFeatures> g =
      ScoreMapFeaturesAt(s.net_score / kScoreMapUnit, CalibrationTurnFeature(s.turns));
  const double y = s.final_score / kScoreMapUnit;
  for (int j = 0; j < kScoreMapFeatures; ++j) {
    xy_[p][j] += g[j] * y;
    for (int k = 0; k < kScoreMapFeatures; ++k) xx_[p][j][k] += g[j] * g[k];
  }
  ++n_[p];
  ++positions_;
}

std::array<ScoreMap, 3> ScoreFitAccumulator::Fit() const {
  std::array<ScoreMap, 3> maps{};
  for (int p = 0; p < 3; ++p) {
    if (n_[p] == 0) continue;
    // A ridge towards the identity, tiny beside the data: a knot no leaf
    // reaches (a sparse player count) keeps its slope rather than none.
    std::array<std::array<double, kScoreMapFeatures>, kScoreMapFeatures> h = xx_[p];
    std::array<double, kScoreMapFeatures> g = xy_[p];
    const std::array<double, kScoreMapFeatures> identity = ScoreMap{}.w;
    for (int j = 0; j < kScoreMapFeatures; ++j) {
      const double ridge = 1e-6 * static_cast<double>(n_[p]);
      h[j][j] += ridge;
      g[j] += ridge * identity[j];
    }
    maps[p].w = SolveLinear(h, g);
  }
  return maps;
}

// ---------------------------------------------------------------------------

absl::StatusOr<CalibrationResult> RunCalibration(const CalibrationOptions& o) {
  if (o.lineups.empty()) return absl::InvalidArgumentError("no line-up of players given");
  for (const std::vector<std::string>& lineup : o.lineups) {
    if (lineup.size() < 2 || lineup.size() > static_cast<size_t>(kMaxPlayers))
      return absl::InvalidArgumentError(
          absl::StrCat("a line-up has 2 to 4 players (R1.4); got ", lineup.size()));
    for (const std::string& name : lineup) {
      absl::StatusOr<std::unique_ptr<Player>> bot = MakeBot(name, o.rules, 0, o.tables);
      if (!bot.ok()) return bot.status();
    }
  }
  if (o.games < 1 || o.games > kMaxCalibrationGames)
    return absl::InvalidArgumentError(
        absl::StrCat("the number of games must be 1..", kMaxCalibrationGames, "; got ", o.games));
  if (o.threads < 1 || o.threads > kMaxCalibrationThreads)
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be 1..", kMaxCalibrationThreads, "; got ", o.threads));
  if (!o.tables) return absl::FailedPreconditionError("the fast estimate needs a table cache");

  ReliabilityAccumulator raw, calibrated, neural, neural_raw;
  std::array<ReliabilityAccumulator, 3> by_players, neural_by_players;
  ScoreAccumulator neural_score;
  FitAccumulator fit, neural_fit;
  ScoreFitAccumulator neural_score_fit;
  const int64_t block = 16 * static_cast<int64_t>(o.threads);
  std::vector<GameRecord> records(static_cast<size_t>(std::min(block, o.games)));
  for (int64_t first = 0; first < o.games; first += block) {
    const int64_t count = std::min(block, o.games - first);
    if (absl::Status played = PlayBlock(o.threads, first, count, records,
                                        [&](int64_t game) { return PlayCalibrationGame(o, game); });
        !played.ok())
      return played;
    std::vector<CalibrationSample> a, b, c, d;
    std::vector<std::pair<double, double>> sc;
    for (int64_t i = 0; i < count; ++i) {  // in game order
      const GameRecord& g = records[i];
      a.clear();
      b.clear();
      c.clear();
      d.clear();
      sc.clear();
      for (const Pending& p : g.positions) {
        const double y = g.share[p.seat];
        a.push_back({p.raw, y});
        b.push_back({CalibratedWin(p.raw, g.players, p.turns), y});
        fit.Add({g.players, p.turns, p.raw, y});
        if (!std::isnan(p.neural)) {
          // What RankForWin shows: the exact chance as it is, elsewhere the
          // net's figure through its map, to 0.01%.
          c.push_back({p.exact ? ShownWin(p.neural)
                               : ShownWin(CalibratedWin(p.neural, g.players, p.turns,
                                                        FittedNeuralCalibration())),
                       y});
          d.push_back({p.neural, y});
          if (!p.exact) neural_fit.Add({g.players, p.turns, p.neural, y});
          sc.emplace_back(p.neural_score, g.score[p.seat]);
          neural_score_fit.Add({g.players, p.turns, p.net_score, static_cast<double>(g.score[p.seat])});
        }
      }
      raw.AddGame(a);
      calibrated.AddGame(b);
      by_players[g.players - 2].AddGame(b);
      if (!c.empty()) {
        neural.AddGame(c);
        neural_raw.AddGame(d);
        neural_by_players[g.players - 2].AddGame(c);
        neural_score.AddGame(sc);
      }
      records[i].positions = {};
    }
    if (o.progress) o.progress(first + count, o.games);
  }
  CalibrationResult out;
  out.neural = neural.Table();
  out.neural_raw = neural_raw.Table();
  out.neural_fit = neural_fit.Fit();
  for (int p = 0; p < 3; ++p) out.neural_by_players[p] = neural_by_players[p].Table();
  out.neural_score = neural_score.Table();
  out.neural_score_fit = neural_score_fit.Fit();
  out.neural_score_fit_positions = neural_score_fit.positions();
  if (absl::StatusOr<std::shared_ptr<const NeuralNet>> net = NetFor(nullptr, o.rules); net.ok())
    out.net_checksum = (*net)->checksum();
  out.raw = raw.Table();
  out.calibrated = calibrated.Table();
  for (int p = 0; p < 3; ++p) out.calibrated_by_players[p] = by_players[p].Table();
  out.fit = fit.Fit();
  return out;
}

}  // namespace penk
