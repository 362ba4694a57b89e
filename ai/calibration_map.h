// The shown win chance (issue 11, item 4): the run-time map from the fast
// win estimate (ai/win_ranking.h, RankForWin; the leaf of ExpertPlayer) to
// the figure hints show. How the map was measured and fitted is apart, in
// ai/calibration.h (`penk calibrate`); this file is only what hints use.
//
// The raw estimate is overconfident (and with 3-4 players the product of
// pairwise Phi's is far too low). CalibratedWin maps it by a logistic model
// per player count in the logit of the raw estimate and the turns the mover
// has played (CalibrationMap: piecewise linear in x = logit(raw) clamped to
// +-kCalibrationLogitCap, with t = min(turns, 20) / 10). Its coefficients
// were fitted (FitAccumulator, `penk calibrate`) on games of one seed range
// and are checked on another (docs/AI.md); they are data, with the source
// of their run: data/calibration.json (ai/calibration_data.h). The map is increasing in
// the raw estimate for a given position (every slope in x is positive for t
// in [0, 2], checked by a test), so it changes no ranking: expert ranks on
// the raw estimate; only the shown figure is mapped.
#ifndef PENK_AI_CALIBRATION_MAP_H_
#define PENK_AI_CALIBRATION_MAP_H_

#include <array>

namespace penk {

inline constexpr double kCalibrationLogitCap = 7;  // |logit| beyond ~0.999 says nothing more
inline constexpr int kCalibrationMaxTurns = 20;    // t is capped here (a game has ~10 turns)

// The logistic map of one player count: logit p = sum w[i] f[i] over the
// features f = (1, x, t, x t, max(0, x + 2), max(0, x), max(0, x - 2)): a
// line in x whose slope changes at the knots -2, 0, 2 and with the turns.
inline constexpr int kCalibrationFeatures = 7;
struct CalibrationMap {
  std::array<double, kCalibrationFeatures> w = {0, 1, 0, 0, 0, 0, 0};  // the identity
};

// The features of a raw estimate and turn count.
std::array<double, kCalibrationFeatures> CalibrationFeatures(double raw, int turns);
// The same from x = the (capped) logit and t = the turn feature: the fit
// evaluates them at the centres of its bins.
std::array<double, kCalibrationFeatures> CalibrationFeaturesAt(double x, double t);
// logit(p), p clamped to [0, 1], the result to +-kCalibrationLogitCap.
double CalibrationLogit(double p);
// t = min(max(turns, 0), kCalibrationMaxTurns) / 10.
double CalibrationTurnFeature(int turns);
// 1 / (1 + e^-z).
double Logistic(double z);

// The fitted maps for 2, 3 and 4 players (index players - 2): those of
// data/calibration.json as compiled in, checked on first use
// (ai/calibration_data.h); a damaged file ends the program rather than give
// other figures.
const std::array<CalibrationMap, 3>& FittedCalibration();
// The same for the neural player's figure (data/neural_calibration.json,
// issue 21): the best of several estimates is biased upwards, and this map,
// fitted on the figures of the actions taken, takes that out.
const std::array<CalibrationMap, 3>& FittedNeuralCalibration();

// The expected final score the neural player shows (issue 21 item 6): the
// net's score output at a leaf, mapped per player count by a line in
// u = score / 50 (the net's unit) whose slope changes at the knots 40, 70
// and 100 points and with the turns: score' = 50 (w . g), g = (1, u, t, u t,
// max(0, u - 0.8), max(0, u - 1.4), max(0, u - 2)). Like the win map it is
// fitted on games of one seed and checked on another (`penk calibrate`),
// and it increases in the net's score (checked on load), so it changes no
// order. Only the net's figure is mapped: a leaf after which we play no more
// shows our final score itself.
inline constexpr int kScoreMapFeatures = 7;
inline constexpr double kScoreMapUnit = 50;  // points per unit of u (the net's score unit)
struct ScoreMap {
  std::array<double, kScoreMapFeatures> w = {0, 1, 0, 0, 0, 0, 0};  // the identity
};
// The features at u = score / kScoreMapUnit and turn feature t.
std::array<double, kScoreMapFeatures> ScoreMapFeaturesAt(double u, double t);
// `score` (points) of a position of `players` (2-4; else unchanged) where the
// mover has played `turns`, through `maps`. NaN stays NaN.
double CalibratedScore(double score, int players, int turns, const std::array<ScoreMap, 3>& maps);
// The fitted score maps of the neural player (data/neural_calibration.json's
// "score_maps"; the identity where a file has none).
const std::array<ScoreMap, 3>& FittedNeuralScoreCalibration();

// The calibrated win chance of the mover for raw estimate `raw` (clamped to
// [0, 1]) with `players` (2-4; anything else: `raw` unchanged) and `turns`
// played by the mover (< 0: 0). A raw estimate within 1e-6 of 0 or 1 is a
// certainty of the exact last-round model and stays 0 or 1.
double CalibratedWin(double raw, int players, int turns,
                     const std::array<CalibrationMap, 3>& maps = FittedCalibration());

}  // namespace penk

#endif  // PENK_AI_CALIBRATION_MAP_H_
