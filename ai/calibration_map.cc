#include "ai/calibration_map.h"

#include <algorithm>
#include <cmath>

namespace penk {

// Fitted by `penk calibrate --fit` on the 12,000 games of seed 1 (docs/AI.md
// has the command and the positions), checked on the games of seed 2.
const std::array<CalibrationMap, 3> kFittedCalibration = {{
    {{{-0.512866, 0.918534, -0.114317, -0.117812, 0.139676, -0.185060, -0.161235}}},  // 2 players
    {{{-0.168075, 0.751046, -0.279256, 0.266966, 0.083194, -0.029894, -0.193260}}},   // 3 players
    {{{-0.000951, 0.661369, 0.104919, 0.607565, 0.033656, -0.095868, -0.128923}}},    // 4 players
}};

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

}  // namespace penk
