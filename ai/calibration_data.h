// The fitted calibration map as data (issue 24, item 5): data/calibration.json,
// written by `penk data calibration` from a recorded `penk calibrate --json`
// run (its "fit"), with the source of that run (ai/data_source.h); compiled
// in and checked once when hints first need it (FittedCalibration,
// ai/calibration_map.h).
#ifndef PENK_AI_CALIBRATION_DATA_H_
#define PENK_AI_CALIBRATION_DATA_H_

#include <array>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "ai/calibration_map.h"
#include "ai/data_source.h"

namespace penk {

// The feature names of CalibrationMap::w, in order, as the file lists them:
// a file of other features is another model and is refused.
inline constexpr const char* kCalibrationFeatureNames[kCalibrationFeatures] = {
    "1", "x", "t", "x t", "max(0, x + 2)", "max(0, x)", "max(0, x - 2)"};
// The same for the score map of the neural figure (ScoreMap::w, "score_maps").
inline constexpr const char* kScoreMapFeatureNames[kScoreMapFeatures] = {
    "1", "u", "t", "u t", "max(0, u - 0.8)", "max(0, u - 1.4)", "max(0, u - 2)"};
// |w| beyond this is no fit of ours (they are all below 1).
inline constexpr double kCalibrationMaxWeight = 50;

// Which figure a map calibrates: expert's fast estimate (data/calibration.json)
// or the neural player's figure (data/neural_calibration.json, issue 21).
enum class CalibratedEstimate { kExpert, kNeural };

struct CalibrationData {
  CalibratedEstimate estimate = CalibratedEstimate::kExpert;
  std::array<CalibrationMap, 3> maps;  // 2, 3, 4 players
  int64_t positions = 0;               // the positions fitted on
  // The neural figure only: the map of its expected final score (issue 21),
  // fitted on the leaves of `score_positions` markings. The identity, and 0,
  // in a file without one.
  std::array<ScoreMap, 3> score_maps{};
  int64_t score_positions = 0;
  // The neural figure only: the checksum of the net whose figures were
  // fitted (ai/neural_net.h), so that a map is never applied to another
  // net's figures unnoticed (tests/measured_data_test.cc holds it to the
  // built-in net). 0 in expert's file.
  uint64_t net_checksum = 0;
  DataSource source;                   // the `penk calibrate` run
};

// Parses and checks the text of a calibration file named `file` (for
// errors): {"features": kCalibrationFeatureNames, "rules": default rules,
// "maps": [{"players": 2, "w": [7 numbers]}, 3, 4], "positions": N >= 1,
// "source"}, and for the neural figure optionally "score_features":
// kScoreMapFeatureNames, "score_maps" (the same shape) and "score_positions"
// >= 1. Every weight finite within +-kCalibrationMaxWeight, and each map
// increasing in x (u) for every t in [0, 2] (so it changes no ranking).
absl::StatusOr<CalibrationData> ParseCalibrationData(absl::string_view text, absl::string_view file);

// The data of one recorded `penk calibrate --json` run (default rules; its
// "fit" or, for the neural figure, "neural_fit" and "neural_score_fit",
// "raw".positions, games, seed, players) run on `date`.
absl::StatusOr<CalibrationData> CalibrationDataOfRun(
    absl::string_view run_json, absl::string_view file, const std::string& date,
    CalibratedEstimate estimate = CalibratedEstimate::kExpert);
// The text of a calibration file.
std::string CalibrationDataJson(const CalibrationData& data);

}  // namespace penk

#endif  // PENK_AI_CALIBRATION_DATA_H_
