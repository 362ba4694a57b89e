#include "ai/calibration_map.h"

#include <algorithm>
#include <cmath>

namespace penk {

namespace {

// A certain outcome (the last round's exact model: no score the opponents
// can still make changes it; the tie-breakers add < 1e-6) stays certain.
constexpr double kCertain = 1e-6;

}  // namespace

double CalibrationLogit(double p) {
  p = std::clamp(p, 0.0, 1.0);
  const double cap = kCalibrationLogitCap;
  if (p <= 0) return -cap;
  if (p >= 1) return cap;
  return std::clamp(std::log(p / (1 - p)), -cap, cap);
}

double Logistic(double z) { return 1 / (1 + std::exp(-z)); }

double CalibrationTurnFeature(int turns) {
  return std::clamp(turns, 0, kCalibrationMaxTurns) / 10.0;
}

std::array<double, kCalibrationFeatures> CalibrationFeaturesAt(double x, double t) {
  return {1, x, t, x * t, std::max(0.0, x + 2), std::max(0.0, x), std::max(0.0, x - 2)};
}

std::array<double, kCalibrationFeatures> CalibrationFeatures(double raw, int turns) {
  return CalibrationFeaturesAt(CalibrationLogit(raw), CalibrationTurnFeature(turns));
}

double CalibratedWin(double raw, int players, int turns,
                     const std::array<CalibrationMap, 3>& maps) {
  if (std::isnan(raw)) return raw;
  raw = std::clamp(raw, 0.0, 1.0);
  if (players < 2 || players > 4) return raw;
  if (raw >= 1 - kCertain) return 1;
  if (raw <= kCertain) return 0;
  const std::array<double, kCalibrationFeatures> f = CalibrationFeatures(raw, turns);
  double z = 0;
  for (int i = 0; i < kCalibrationFeatures; ++i) z += maps[players - 2].w[i] * f[i];
  return Logistic(z);
}

std::array<double, kScoreMapFeatures> ScoreMapFeaturesAt(double u, double t) {
  return {1, u, t, u * t, std::max(0.0, u - 0.8), std::max(0.0, u - 1.4), std::max(0.0, u - 2)};
}

double CalibratedScore(double score, int players, int turns, const std::array<ScoreMap, 3>& maps) {
  if (std::isnan(score) || players < 2 || players > 4) return score;
  const std::array<double, kScoreMapFeatures> g =
      ScoreMapFeaturesAt(score / kScoreMapUnit, CalibrationTurnFeature(turns));
  double u = 0;
  for (int i = 0; i < kScoreMapFeatures; ++i) u += maps[players - 2].w[i] * g[i];
  return kScoreMapUnit * u;
}

}  // namespace penk
