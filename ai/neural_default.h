// The evaluation network built into the program (data/neural.penknet,
// compiled in by cmake/embed_data.cmake like the other measured data), and
// the choice of net for a player that uses one.
#ifndef PENK_AI_NEURAL_DEFAULT_H_
#define PENK_AI_NEURAL_DEFAULT_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ai/neural_net.h"
#include "engine/rules.h"

namespace penk {

inline constexpr char kNeuralNetFile[] = "data/neural.penknet";

// The built-in net, read and checked once (it is constant data); an error
// names the file when the build holds none or a damaged one.
absl::StatusOr<std::shared_ptr<const NeuralNet>> BuiltInNeuralNet();

// `net` if given, else the built-in one; refused for rules the nets were not
// trained on (line-min other than 3, R6.5) with a one-line reason.
absl::StatusOr<std::shared_ptr<const NeuralNet>> NetFor(std::shared_ptr<const NeuralNet> net,
                                                        const Rules& rules);

}  // namespace penk

#endif  // PENK_AI_NEURAL_DEFAULT_H_
