// The forward pass of ai/neural_net.h, in float32 as the trainer computes it
// (tools/train_neural.py), so the two agree within 1e-5 on every output.
#include <algorithm>
#include <cmath>

#include "Eigen/Core"
#include "ai/neural_net.h"

namespace penk {
namespace {

using Vec = Eigen::Matrix<float, Eigen::Dynamic, 1>;
// A hidden layer's activations on the stack (at most kNeuralMaxUnits floats):
// an evaluation allocates nothing.
using Layer = Eigen::Matrix<float, Eigen::Dynamic, 1, Eigen::ColMajor, kNeuralMaxUnits, 1>;
using ColMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

size_t NeuralNet::file_bytes() const {
  return kNeuralHeaderBytes +
         sizeof(float) * (w1t_.size() + b1_.size() + w2_.size() + b2_.size() + w3_.size() +
                          b3_.size());
}

void NeuralNet::Begin(const float* features, Accumulator& acc) const {
  acc.resize(hidden1_);
  Eigen::Map<Vec> out(acc.data(), hidden1_);
  const Eigen::Map<const ColMajor> w1(w1t_.data(), hidden1_, inputs_);
  const Eigen::Map<const Vec> x(features, inputs_);
  out.noalias() = w1 * x;
  out += Eigen::Map<const Vec>(b1_.data(), hidden1_);
}

void NeuralNet::Add(Accumulator& acc, int feature, float delta) const {
  Eigen::Map<Vec>(acc.data(), hidden1_) +=
      delta * Eigen::Map<const Vec>(w1t_.data() + static_cast<size_t>(feature) * hidden1_, hidden1_);
}

NeuralOutput NeuralNet::Finish(const Accumulator& acc, int players) const {
  players = std::clamp(players, 2, 4);
  const Layer h1 = Eigen::Map<const Vec>(acc.data(), hidden1_).cwiseMax(0.0f);
  Layer h2(hidden2_);
  h2.noalias() = Eigen::Map<const RowMajor>(w2_.data(), hidden2_, hidden1_) * h1;
  h2 = (h2 + Eigen::Map<const Vec>(b2_.data(), hidden2_)).cwiseMax(0.0f);
  Eigen::Matrix<float, kNeuralOutputs, 1> out;
  out.noalias() = Eigen::Map<const RowMajor>(w3_.data(), kNeuralOutputs, hidden2_) * h2;
  out += Eigen::Map<const Vec>(b3_.data(), kNeuralOutputs);
  // The softmax over the present slots only, shifted by their maximum so
  // that no exp overflows.
  NeuralOutput result;
  float top = out[0];
  for (int i = 1; i < players; ++i) top = std::max(top, out[i]);
  float sum = 0;
  for (int i = 0; i < players; ++i) sum += result.win[i] = std::exp(out[i] - top);
  for (int i = 0; i < players; ++i) {
    result.win[i] /= sum;
    result.score[i] = kNeuralScoreScale * out[4 + i];
  }
  return result;
}

NeuralOutput NeuralNet::Evaluate(const float* features, int players) const {
  Accumulator acc;
  Begin(features, acc);
  return Finish(acc, players);
}

}  // namespace penk
