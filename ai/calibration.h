// Honest win chances (issue 11, item 4; issue 21 item 6): are the win
// figures a probability -- expert's fast estimate (the leaf of ExpertPlayer,
// raw and through the calibration map) and the neural player's figure that
// hints now show (ai/win_ranking.h, RankForWin)? And is the neural player's
// expected final score the mean final score?
//
// Measurement: self-play games (line-ups of MakeBot names, 2-4 players, seats
// rotated from game to game, dice from a DiceStream keyed by (seed, game)).
// At every decision of every seat, the mover's estimate of the action it
// takes -- the figure `penk hint --opponent` shows beside that action -- is
// a position; its outcome is the mover's share of the win of that game
// (1, 0, or 1/k for a k-way tie, R6.4). Positions are bucketed by the
// prediction into ten buckets of width 0.1 ([0, 0.1), ..., [0.9, 1]), and
// each bucket's mean prediction is compared with its observed win rate. The
// positions of one game are correlated, so a bucket's 95% interval is
// clustered by game (the sandwich variance over games), not binomial.
//
// Recalibration: the fitted map hints show at run time is apart, in
// ai/calibration_map.h; this file measures it and fits its coefficients.
//
// Deterministic for a seed whatever the thread count: games are played in
// blocks by OpenMP and folded in game order. Memory is bounded: a game's
// positions are folded into fixed tables (buckets, the fit's grid) and
// dropped.
#ifndef PENK_AI_CALIBRATION_H_
#define PENK_AI_CALIBRATION_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ai/calibration_map.h"
#include "engine/rules.h"
#include "solver/table_cache.h"

namespace penk {

inline constexpr int kCalibrationBuckets = 10;
inline constexpr int64_t kMaxCalibrationGames = 10'000'000;
inline constexpr int kMaxCalibrationThreads = 256;

// The bucket of a prediction p in [0, 1]: floor(10 p), with 1 in the last.
int CalibrationBucket(double p);

// One position: the prediction and what happened.
struct CalibrationSample {
  double predicted = 0;  // in [0, 1]
  double outcome = 0;    // the mover's win share, 0..1
};

struct BucketStats {
  int64_t positions = 0;
  double predicted = 0;      // mean prediction
  double observed = 0;       // mean outcome
  double ci_low = 0, ci_high = 0;  // observed's 95% interval, clustered by game
};

struct ReliabilityTable {
  int64_t games = 0, positions = 0;
  std::array<BucketStats, kCalibrationBuckets> buckets{};
  double brier = 0;          // mean (prediction - outcome)^2
  double brier_base = 0;     // the same for the constant prediction = mean outcome
  // mean -(y log p + (1 - y) log(1 - p)), p clamped to [1e-6, 1 - 1e-6]
  double log_loss = 0;
  double max_gap = 0;        // max |observed - predicted| over buckets with positions
};

// One bucket's running sums, for a mean clustered by game: n positions, their
// predictions p and outcomes y; per game g, S_g (outcome sum) and n_g, whose
// sum S_g^2, sum S_g n_g and sum n_g^2 the clustered variance needs.
struct ClusteredSums {
  int64_t n = 0;
  double p = 0, y = 0, s2 = 0, sn = 0, n2 = 0;
};

// Accumulates games of positions into a reliability table: sums only, so
// memory does not grow with the games. Games must be added in a fixed order
// for a reproducible result.
class ReliabilityAccumulator {
 public:
  void AddGame(const std::vector<CalibrationSample>& positions);
  ReliabilityTable Table() const;

 private:
  int64_t games_ = 0, positions_ = 0;
  std::array<ClusteredSums, kCalibrationBuckets> sums_{};
  double brier_ = 0, y_ = 0, y2_ = 0, log_loss_ = 0;
};

// The expected final score against the final score (issue 21): positions
// bucketed by the predicted score, 10 points wide.
inline constexpr int kScoreBuckets = 20;  // [0, 10), ..., [190, 200)
struct ScoreBucket {
  int64_t positions = 0;
  double predicted = 0;  // mean expected score
  double observed = 0;   // mean final score
  double ci_low = 0, ci_high = 0;  // observed's 95% interval, clustered by game
};
struct ScoreTable {
  int64_t positions = 0;
  std::array<ScoreBucket, kScoreBuckets> buckets{};
  double mean_abs_error = 0;  // mean |predicted - final|
};
class ScoreAccumulator {
 public:
  // One game's positions: (expected score, final score).
  void AddGame(const std::vector<std::pair<double, double>>& positions);
  ScoreTable Table() const;

 private:
  std::array<ClusteredSums, kScoreBuckets> sums_{};
  int64_t positions_ = 0;
  double abs_error_ = 0;
};

// A position as the fit sees it: features and outcome.
struct FitSample {
  int players = 2;
  int turns = 0;
  double raw = 0;
  double outcome = 0;
};

// The fit's sufficient statistics: positions binned by (players, turns,
// logit of the raw estimate in steps of 0.05), outcome sums per bin.
class FitAccumulator {
 public:
  FitAccumulator();
  void Add(const FitSample& s);
  // Weighted logistic regression (Newton) per player count on the bins'
  // centres; a player count without positions keeps the identity map.
  std::array<CalibrationMap, 3> Fit() const;
  int64_t positions() const { return positions_; }

 private:
  static constexpr int kLogitBins = 281;  // -7..7 in steps of 0.05
  std::vector<double> n_, y_;  // [players-2][turns][logit bin]
  int64_t positions_ = 0;
};

// The score map's fit (ScoreMap, ai/calibration_map.h): least squares of
// the final score / 50 on the map's features of the net's score at the leaf
// of each marking taken, per player count. The sums of squares and products
// are its sufficient statistics: memory does not grow with the positions,
// and positions added in a fixed order give the same map.
struct ScoreFitSample {
  int players = 2;
  int turns = 0;
  double net_score = 0;    // points
  double final_score = 0;  // points
};
class ScoreFitAccumulator {
 public:
  void Add(const ScoreFitSample& s);
  // A player count without positions keeps the identity map.
  std::array<ScoreMap, 3> Fit() const;
  int64_t positions() const { return positions_; }

 private:
  std::array<std::array<std::array<double, kScoreMapFeatures>, kScoreMapFeatures>, 3> xx_{};
  std::array<std::array<double, kScoreMapFeatures>, 3> xy_{};
  std::array<int64_t, 3> n_{};
  int64_t positions_ = 0;
};

struct CalibrationOptions {
  // Line-ups of 2-4 MakeBot names; game i plays line-up i mod L with its
  // seats rotated by (i / L) mod n.
  std::vector<std::vector<std::string>> lineups;
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 1;
  Rules rules;
  std::shared_ptr<TableCache> tables;
  // Called from the calling thread after each block: games done, planned.
  std::function<void(int64_t done, int64_t total)> progress;
};

struct CalibrationResult {
  // What hints with opponents show (issue 21): the neural player's win share
  // of the action taken through its map (FittedNeuralCalibration; exact in
  // the last round of two players) and its expected final score in this game;
  // the net's figure unmapped, and a map fitted on it on these games.
  ReliabilityTable neural, neural_raw;
  std::array<CalibrationMap, 3> neural_fit;
  std::array<ReliabilityTable, 3> neural_by_players;  // 2, 3, 4 players
  ScoreTable neural_score;  // through the score map (FittedNeuralScoreCalibration), as shown
  std::array<ScoreMap, 3> neural_score_fit;  // fitted on the net's score at the markings taken
  int64_t neural_score_fit_positions = 0;
  uint64_t net_checksum = 0;  // the net whose figures these are (0: the rules have none)
  ReliabilityTable raw;          // the raw fast estimate
  ReliabilityTable calibrated;   // CalibratedWin of it (FittedCalibration())
  std::array<ReliabilityTable, 3> calibrated_by_players;  // 2, 3, 4 players
  std::array<CalibrationMap, 3> fit;  // fitted on these games (identity where none)
};

// Plays the games and measures; the estimators are `expert` with its default
// parameters (raw, calibrated) and `neural` with the built-in net (its win
// share and expected score), whoever sits in the seat. `neural` needs the
// rules it was trained on (line-min 3): other rules leave its tables empty.
absl::StatusOr<CalibrationResult> RunCalibration(const CalibrationOptions& options);

}  // namespace penk

#endif  // PENK_AI_CALIBRATION_H_
