// The measured figures the program serves, compiled in from data/ at build
// time (cmake/embed_data.cmake) so that an installed penk or libpenk.so
// carries them and cannot find other ones at run time. Each is read and
// checked once by its user (ai/ladder.h, ai/calibration_map.h); the file
// names below are the ones errors name.
#ifndef PENK_AI_EMBEDDED_DATA_H_
#define PENK_AI_EMBEDDED_DATA_H_

#include "absl/strings/string_view.h"

namespace penk {

inline constexpr char kLadderFile[] = "data/ladder.json";
inline constexpr char kCalibrationFile[] = "data/calibration.json";
inline constexpr char kNeuralCalibrationFile[] = "data/neural_calibration.json";

// The bytes of data/ladder.json and data/calibration.json as built.
absl::string_view EmbeddedLadderJson();
absl::string_view EmbeddedCalibrationJson();
absl::string_view EmbeddedNeuralCalibrationJson();
// The bytes of data/neural.penknet (ai/neural_default.h reads and checks them).
absl::string_view EmbeddedNeuralNet();

// For a compiled-in file that fails its check (a build of a damaged file):
// prints "penk: MESSAGE" on stderr and ends the program, since serving any
// other figures would be silent. `penk` checks both at start-up and its
// build runs `penk data check`, so such a binary is not used unnoticed.
[[noreturn]] void FailOnEmbeddedData(absl::string_view message);

}  // namespace penk

#endif  // PENK_AI_EMBEDDED_DATA_H_
