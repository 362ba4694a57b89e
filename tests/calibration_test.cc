// Honest win chances (ai/calibration.h, issue 11 item 4): the reliability
// table, the Brier score, the clustered intervals, the logistic fit and the
// shown map, against independent checks on synthetic predictors.
#include <cmath>
#include <vector>

#include "ai/calibration.h"
#include "engine/rng.h"
#include "gtest/gtest.h"
#include "tests/completed_tables.h"
#include "tests/penk_process.h"

namespace penk {
namespace {

double Uniform(Rng& rng) { return (rng.Next() >> 11) * 0x1.0p-53; }

TEST(Calibration, BucketBoundaries) {
  EXPECT_EQ(CalibrationBucket(0.0), 0);
  EXPECT_EQ(CalibrationBucket(0.0999), 0);
  EXPECT_EQ(CalibrationBucket(0.1), 1);
  EXPECT_EQ(CalibrationBucket(0.5), 5);
  EXPECT_EQ(CalibrationBucket(0.8999), 8);
  EXPECT_EQ(CalibrationBucket(0.95), 9);
  EXPECT_EQ(CalibrationBucket(1.0), 9);  // the last bucket is closed
  EXPECT_EQ(CalibrationBucket(-0.5), 0);
  EXPECT_EQ(CalibrationBucket(std::nan("")), 0);
}

TEST(Calibration, BrierAndBucketMeansByHand) {
  ReliabilityAccumulator acc;
  acc.AddGame({{0.2, 0}, {0.7, 1}, {0.75, 0.5}});
  acc.AddGame({{0.9, 1}});
  const ReliabilityTable t = acc.Table();
  EXPECT_EQ(t.games, 2);
  EXPECT_EQ(t.positions, 4);
  // (0.04 + 0.09 + 0.0625 + 0.01) / 4
  EXPECT_NEAR(t.brier, 0.2025 / 4, 1e-12);
  // outcomes 0, 1, 0.5, 1: mean 0.625, variance (0.390625 + 0.140625 + 0.015625 + 0.140625) / 4
  EXPECT_NEAR(t.brier_base, 0.6875 / 4, 1e-12);
  EXPECT_EQ(t.buckets[2].positions, 1);
  EXPECT_EQ(t.buckets[7].positions, 2);
  EXPECT_NEAR(t.buckets[7].predicted, 0.725, 1e-12);
  EXPECT_NEAR(t.buckets[7].observed, 0.75, 1e-12);
  EXPECT_EQ(t.buckets[9].positions, 1);
  EXPECT_EQ(t.buckets[5].positions, 0);
  EXPECT_NEAR(t.max_gap, 0.2, 1e-12);  // bucket 2: 0.2 predicted, 0 observed
}

TEST(Calibration, LogLossByHand) {
  ReliabilityAccumulator acc;
  acc.AddGame({{0.2, 0}, {0.7, 1}, {0.75, 0.5}});
  // -(log 0.8 + log 0.7 + 0.5 log 0.75 + 0.5 log 0.25) / 3
  const double want = -(std::log(0.8) + std::log(0.7) + 0.5 * std::log(0.75) + 0.5 * std::log(0.25)) / 3;
  EXPECT_NEAR(acc.Table().log_loss, want, 1e-12);
  ReliabilityAccumulator sure;
  sure.AddGame({{0.0, 1}});  // a certainty that failed: clamped, not infinite
  EXPECT_NEAR(sure.Table().log_loss, -std::log(1e-6), 1e-9);
}

TEST(Calibration, ScoreBucketsByHand) {
  // Issue 21: the expected final score against the final score.
  ScoreAccumulator acc;
  acc.AddGame({{55.0, 60}, {57.0, 50}, {81.0, 80}});
  acc.AddGame({{59.0, 70}});
  const ScoreTable t = acc.Table();
  EXPECT_EQ(t.positions, 4);
  EXPECT_NEAR(t.mean_abs_error, (5 + 7 + 1 + 11) / 4.0, 1e-12);
  EXPECT_EQ(t.buckets[5].positions, 3);
  EXPECT_NEAR(t.buckets[5].predicted, 57, 1e-12);
  EXPECT_NEAR(t.buckets[5].observed, 60, 1e-12);
  EXPECT_EQ(t.buckets[8].positions, 1);
  EXPECT_EQ(t.buckets[0].positions, 0);
  // Clustered by game: game 1 has 60 + 50 in the bucket, game 2 has 70:
  // sum_g (S_g - 60 n_g)^2 / 9 = ((110 - 120)^2 + (70 - 60)^2) / 9.
  EXPECT_NEAR(t.buckets[5].ci_high - 60, 1.959964 * std::sqrt(200.0 / 9), 1e-9);
}

TEST(Calibration, TheNeuralFiguresAreMeasuredOnRealGames) {
  // The figures hints show (the neural player's win share and expected
  // score) are measured beside expert's, on the same positions.
  CalibrationOptions o;
  o.lineups = {{"greedy", "greedy"}, {"greedy", "greedy", "greedy"}};
  o.games = 12;
  o.tables = std::make_shared<TableCache>(
      [](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
        return CompletedTable(key.rules, 0, key.blocked_rows);
      },
      size_t{1} << 40);
  absl::StatusOr<CalibrationResult> r = RunCalibration(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->neural.positions, r->raw.positions);
  EXPECT_GT(r->neural.positions, 100);
  EXPECT_EQ(r->neural_score.positions, r->neural.positions);
  // The score map is fitted on the net's figure at the markings taken: fewer
  // than the decisions (no keeps, no leaf that ends our game).
  EXPECT_GT(r->neural_score_fit_positions, 20);
  EXPECT_LT(r->neural_score_fit_positions, r->neural.positions);
  EXPECT_GT(r->neural_by_players[0].positions, 0);
  EXPECT_GT(r->neural_by_players[1].positions, 0);
  EXPECT_EQ(r->neural_by_players[2].positions, 0);
  EXPECT_GT(r->neural.log_loss, 0);
  // Rules the net was not trained on: its tables stay empty, expert's not.
  o.rules.line_min = 4;
  r = RunCalibration(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->neural.positions, 0);
  EXPECT_GT(r->raw.positions, 0);
}

// A perfectly calibrated predictor: every bucket within noise of its mean
// prediction; an overconfident one is caught.
TEST(Calibration, PerfectPredictorWithinNoiseAndOverconfidentCaught) {
  Rng rng(7);
  ReliabilityAccumulator honest, overconfident;
  int inside = 0;
  for (int g = 0; g < 40000; ++g) {
    const double p = Uniform(rng);
    const double y = Uniform(rng) < p ? 1 : 0;
    honest.AddGame({{p, y}});
    // Claims twice the distance from 1/2 that is true.
    overconfident.AddGame({{std::clamp(0.5 + 2 * (p - 0.5), 0.0, 1.0), y}});
  }
  const ReliabilityTable h = honest.Table(), o = overconfident.Table();
  for (const BucketStats& b : h.buckets) {
    ASSERT_GT(b.positions, 3000);
    EXPECT_NEAR(b.observed, b.predicted, 0.03);
    inside += b.ci_low <= b.predicted && b.predicted <= b.ci_high;
  }
  EXPECT_GE(inside, 8);  // 95% intervals: rarely more than one miss of ten
  EXPECT_LT(h.max_gap, 0.03);
  EXPECT_GT(o.max_gap, 0.15);
  EXPECT_GT(o.brier, h.brier);
  // The Brier score of a calibrated uniform predictor is E[p(1-p)] = 1/6.
  EXPECT_NEAR(h.brier, 1.0 / 6, 0.005);
}

// Positions of one game share its outcome: a game of 100 copies is one
// sample, not 100, and its interval says so.
TEST(Calibration, IntervalsClusteredByGame) {
  Rng rng(3);
  ReliabilityAccumulator single, copies;
  for (int g = 0; g < 400; ++g) {
    const double y = Uniform(rng) < 0.5 ? 1 : 0;
    single.AddGame({{0.55, y}});
    copies.AddGame(std::vector<CalibrationSample>(100, {0.55, y}));
  }
  const BucketStats a = single.Table().buckets[5], b = copies.Table().buckets[5];
  EXPECT_NEAR(a.observed, b.observed, 1e-12);
  EXPECT_NEAR(a.ci_high - a.ci_low, b.ci_high - b.ci_low, 1e-9);
  // Binomial on 400 samples: half width 1.96 * 0.5 / 20 = 0.049.
  EXPECT_NEAR((a.ci_high - a.ci_low) / 2, 0.049, 0.003);
}

// The fit recovers a known logistic map from outcomes drawn by it.
TEST(Calibration, FitRecoversKnownMap) {
  CalibrationMap truth;
  truth.w = {0.4, 0.5, -0.3, 0.2, 0.3, -0.2, 0.1};
  Rng rng(11);
  FitAccumulator fit;
  for (int i = 0; i < 600000; ++i) {
    const double x = -5 + 10 * Uniform(rng);
    const int turns = static_cast<int>(rng.Next() % 21);
    const double raw = 1 / (1 + std::exp(-x));
    const std::array<double, kCalibrationFeatures> f = CalibrationFeatures(raw, turns);
    double z = 0;
    for (int k = 0; k < kCalibrationFeatures; ++k) z += truth.w[k] * f[k];
    fit.Add({3, turns, raw, Uniform(rng) < 1 / (1 + std::exp(-z)) ? 1.0 : 0.0});
  }
  const std::array<CalibrationMap, 3> maps = fit.Fit();
  // The fitted map gives the true probabilities, feature by feature close.
  for (int k = 0; k < kCalibrationFeatures; ++k) EXPECT_NEAR(maps[1].w[k], truth.w[k], 0.12) << k;
  for (double raw : {0.02, 0.2, 0.5, 0.8, 0.98})
    for (int turns : {0, 5, 10, 20}) {
      const std::array<double, kCalibrationFeatures> f = CalibrationFeatures(raw, turns);
      double z = 0;
      for (int k = 0; k < kCalibrationFeatures; ++k) z += truth.w[k] * f[k];
      EXPECT_NEAR(CalibratedWin(raw, 3, turns, maps), 1 / (1 + std::exp(-z)), 0.01)
          << raw << " " << turns;
    }
  // No positions with 2 or 4 players: the identity.
  EXPECT_EQ(maps[0].w, CalibrationMap{}.w);
  EXPECT_NEAR(CalibratedWin(0.3, 2, 5, maps), 0.3, 1e-12);
}

// The score map's fit (issue 21) recovers a known map from final scores
// drawn around it with a game's spread (12 points), and leaves the player
// counts it saw nothing of as they are.
TEST(Calibration, ScoreFitRecoversKnownMap) {
  ScoreMap truth;
  truth.w = {0.05, 0.9, -0.02, 0.04, 0.08, -0.05, 0.1};
  const auto mapped = [](const ScoreMap& m, double score, int turns) {
    std::array<ScoreMap, 3> maps{};
    maps[1] = m;
    return CalibratedScore(score, 3, turns, maps);
  };
  // By hand: u = 1.5 (75 points), t = 1 (10 turns): g = (1, 1.5, 1, 1.5, 0.7, 0.1, 0).
  EXPECT_NEAR(mapped(truth, 75, 10),
              50 * (0.05 + 0.9 * 1.5 - 0.02 + 0.04 * 1.5 + 0.08 * 0.7 - 0.05 * 0.1), 1e-12);
  Rng rng(5);
  ScoreFitAccumulator fit;
  for (int i = 0; i < 400000; ++i) {
    const double score = 10 + 130 * Uniform(rng);
    const int turns = static_cast<int>(rng.Next() % 21);
    // A spread of a game's: uniform of sd 12 around the true expectation.
    const double noise = 12 * std::sqrt(12.0) * (Uniform(rng) - 0.5);
    fit.Add({3, turns, score, mapped(truth, score, turns) + noise});
  }
  fit.Add({3, 5, std::nan(""), 60});  // a final-score leaf: not the net's figure, not fitted
  EXPECT_EQ(fit.positions(), 400000);
  const std::array<ScoreMap, 3> maps = fit.Fit();
  for (double score : {15.0, 40.0, 60.0, 90.0, 120.0, 135.0})
    for (int turns : {0, 6, 12, 20})
      EXPECT_NEAR(CalibratedScore(score, 3, turns, maps), mapped(truth, score, turns), 0.5)
          << score << " " << turns;
  EXPECT_EQ(maps[0].w, ScoreMap{}.w);
  EXPECT_EQ(CalibratedScore(61.5, 2, 4, maps), 61.5);
  EXPECT_EQ(CalibratedScore(61.5, 1, 4, maps), 61.5);  // solitaire: no map
  EXPECT_TRUE(std::isnan(CalibratedScore(std::nan(""), 3, 4, maps)));
}

// The committed score map never reorders actions either: increasing in the
// net's score for every player count and turn.
TEST(Calibration, FittedScoreMapIsIncreasing) {
  for (int players = 2; players <= 4; ++players)
    for (int turns = 0; turns <= 30; ++turns) {
      double last = -1e9;
      for (int i = 0; i <= 2000; ++i) {
        const double s = CalibratedScore(i / 10.0, players, turns, FittedNeuralScoreCalibration());
        ASSERT_GT(s, last) << players << " players, turn " << turns << ", score " << i / 10.0;
        last = s;
      }
    }
}

// The shown map never reorders actions: increasing in the raw estimate for
// every player count and turn, and within [0, 1].
TEST(Calibration, FittedMapIsIncreasing) {
  for (int players = 2; players <= 4; ++players)
    for (int turns = 0; turns <= 30; ++turns) {
      double last = -1;
      for (int i = 0; i <= 1000; ++i) {
        const double w = CalibratedWin(i / 1000.0, players, turns);
        ASSERT_GE(w, 0);
        ASSERT_LE(w, 1);
        ASSERT_GT(w, last) << players << " players, turn " << turns << ", raw " << i / 1000.0;
        last = w;
      }
    }
  EXPECT_EQ(CalibratedWin(0.25, 1, 3), 0.25);  // solitaire: no map
}

TEST(Calibration, RunRefusesBadOptions) {
  CalibrationOptions o;
  o.lineups = {{"greedy"}};
  EXPECT_EQ(RunCalibration(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.lineups = {{"greedy", "nobody"}};
  EXPECT_FALSE(RunCalibration(o).ok());
  o.lineups = {{"greedy", "greedy"}};
  o.games = 0;
  EXPECT_EQ(RunCalibration(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.games = 1;
  o.threads = 0;
  EXPECT_EQ(RunCalibration(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.threads = 1;
  EXPECT_EQ(RunCalibration(o).status().code(), absl::StatusCode::kFailedPrecondition);  // no tables
}

// `penk calibrate` refuses bad input in one line, exit 2, before any game.
TEST(Calibration, CommandRefusesBadInput) {
  using testing_support::RunPenk;
  const struct {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"calibrate", "--players", "expert"}, "2 to 4 players"},
      {{"calibrate", "--players", "expert,greedy,greedy,greedy,greedy"}, "2 to 4 players"},
      {{"calibrate", "--players", "expert,nobody"}, "unknown player"},
      {{"calibrate", "--players", "expert,,greedy"}, "empty entry"},
      {{"calibrate", "--games", "0"}, "--games must be"},
      {{"calibrate", "--threads", "0"}, "--threads must be"},
  };
  for (const auto& c : cases) {
    const testing_support::PenkRun r = RunPenk(c.args);
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2) << c.args[2];
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace penk
