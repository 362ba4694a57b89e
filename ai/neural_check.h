// The trainer's check file (tools/train_neural.py --check): positions with
// the outputs the trained torch model gave them, so that the C++ forward
// pass can be compared with the trainer's (`penk neural check --against`,
// tests/neural_net_test.cc).
//
//   {"layout": L, "inputs": N, "positions": [{"features": [N floats],
//    "players": 2..4, "win": [4 floats], "score": [4 floats]}, ...]}
#ifndef PENK_AI_NEURAL_CHECK_H_
#define PENK_AI_NEURAL_CHECK_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ai/neural_net.h"

namespace penk {

// The largest difference allowed between the trainer's outputs and ours.
inline constexpr double kNeuralCheckTolerance = 1e-5;

struct NeuralCheckPosition {
  std::vector<float> features;
  int players = 0;
  NeuralOutput expected;  // score in points, as the file has it
};

// Parses a check file; a malformed one (or one for another layout or input
// count than `layout`/`inputs`) is a one-line error naming `what`.
absl::StatusOr<std::vector<NeuralCheckPosition>> ParseNeuralCheck(absl::string_view text,
                                                                  absl::string_view what,
                                                                  uint32_t layout, int inputs);

// The largest differences over the positions between the net's outputs and
// the expected ones. Scores are compared in the net's own unit (points /
// kNeuralScoreScale): a float32 score near 100 points is exact only to 8e-6.
struct NeuralCheckDifference {
  double win = 0, score = 0;
  double Max() const { return win > score ? win : score; }
};
NeuralCheckDifference CompareNeuralCheck(const NeuralNet& net,
                                         const std::vector<NeuralCheckPosition>& positions);

}  // namespace penk

#endif  // PENK_AI_NEURAL_CHECK_H_
