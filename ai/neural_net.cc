// The forward pass of ai/neural_net.h, in float32 as the trainer computes it
// (tools/train_neural.py), so the two agree within 1e-5 on every output.
//
// Every layer is a sum of its weight matrix's columns, each scaled by one
// input: out[i] += x[j] * W[i][j], with out[i] in a SIMD lane of its own
// and its terms added in an order fixed by the source (AddColumns). No sum
// is split across lanes, so the result is the same bits
// on every CPU, whichever clone of engine/dispatch.h runs, and in the
// WebAssembly build (-ffp-contract=off: no fused multiply-add anywhere).
// Eigen's products, used before, picked their SIMD width when compiled
// (SSE2 in a portable build) and their order of summation with it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "ai/neural_net.h"
#include "engine/dispatch.h"

namespace penk {
namespace {

// Eight outputs in the lanes of one vector (GCC's vector extensions: AVX
// or SSE in the clones, wasm SIMD in the WebAssembly build). Loaded and
// stored through memcpy: the weights have no vector alignment.
// These helpers are always inlined, never called across an ABI boundary, so
// GCC's note that an AVX-sized vector is passed differently without AVX
// (the baseline clone) does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
using Lanes = float __attribute__((vector_size(32)));
inline __attribute__((always_inline)) Lanes LoadLanes(const float* p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline __attribute__((always_inline)) void StoreLanes(float* p, Lanes v) { std::memcpy(p, &v, sizeof v); }

// Outputs i0 .. i0 + 8V of AddColumns. Each lane sums the even columns and
// the odd ones apart, then adds (even + odd) to its output: two chains of
// additions that do not wait on each other, in the order the scalar rest
// below follows too.
template <int V>
inline __attribute__((always_inline)) void AddColumnsLanes(float* out, int rows, const float* cols,
                                                           const float* x, int count, int i0) {
  Lanes even[V] = {}, odd[V] = {};
  int j = 0;
  for (; j + 2 <= count; j += 2) {
    const float* c = cols + static_cast<size_t>(j) * rows + i0;
    const float a = x[j], b = x[j + 1];
    for (int v = 0; v < V; ++v) {
      even[v] += a * LoadLanes(c + 8 * v);
      odd[v] += b * LoadLanes(c + rows + 8 * v);
    }
  }
  if (j < count) {
    const float* c = cols + static_cast<size_t>(j) * rows + i0;
    for (int v = 0; v < V; ++v) even[v] += x[j] * LoadLanes(c + 8 * v);
  }
  for (int v = 0; v < V; ++v) StoreLanes(out + i0 + 8 * v, LoadLanes(out + i0 + 8 * v) + (even[v] + odd[v]));
}

// out[0..rows) += x[j] * cols[j * rows ..] for j in 0..count: the hidden
// layers. Their zero inputs (a ReLU's, about half) are not skipped: which
// half is a coin toss to the branch predictor, and a skip measured slower.
PENK_HOT void AddColumns(float* out, int rows, const float* cols, const float* x, int count) {
  int i = 0;
  for (; i + 32 <= rows; i += 32) AddColumnsLanes<4>(out, rows, cols, x, count, i);
  for (; i + 8 <= rows; i += 8) AddColumnsLanes<1>(out, rows, cols, x, count, i);
  for (; i < rows; ++i) {
    float even = 0, odd = 0;
    for (int j = 0; j < count; ++j) (j % 2 ? odd : even) += x[j] * cols[static_cast<size_t>(j) * rows + i];
    out[i] += even + odd;
  }
}
#pragma GCC diagnostic pop

// out[0..rows) += x[j] * cols[j * rows ..] for the j in 0..count, in order,
// whose x[j] is not 0 (adding 0 * w changes no sum): the first layer, whose
// inputs are mostly zeros (free cells, absent slots) and whose columns are
// long enough (hidden1) to pay for a mispredicted skip.
PENK_HOT void AddSparseColumns(float* __restrict out, int rows, const float* __restrict cols,
                               const float* __restrict x, int count) {
  for (int j = 0; j < count; ++j) {
    const float a = x[j];
    if (a == 0.0f) continue;
    const float* __restrict c = cols + static_cast<size_t>(j) * rows;
    for (int i = 0; i < rows; ++i) out[i] += a * c[i];
  }
}

// out[0..n) += a * col[0..n).
PENK_HOT void AddScaled(float* __restrict out, const float* __restrict col, float a, int n) {
  for (int i = 0; i < n; ++i) out[i] += a * col[i];
}

}  // namespace

size_t NeuralNet::file_bytes() const {
  return kNeuralHeaderBytes +
         sizeof(float) * (w1t_.size() + b1_.size() + w2t_.size() + b2_.size() + w3t_.size() +
                          b3_.size());
}

void NeuralNet::Begin(const float* features, Accumulator& acc) const {
  acc.assign(b1_.begin(), b1_.end());
  AddSparseColumns(acc.data(), hidden1_, w1t_.data(), features, inputs_);
}

void NeuralNet::Add(Accumulator& acc, int feature, float delta) const {
  AddScaled(acc.data(), w1t_.data() + static_cast<size_t>(feature) * hidden1_, delta, hidden1_);
}

NeuralOutput NeuralNet::Finish(const Accumulator& acc, int players) const {
  players = std::clamp(players, 2, 4);
  // Hidden layers on the stack (at most kNeuralMaxUnits floats each): an
  // evaluation allocates nothing.
  std::array<float, kNeuralMaxUnits> h1, h2;
  for (int j = 0; j < hidden1_; ++j) h1[j] = std::max(acc[j], 0.0f);
  std::copy(b2_.begin(), b2_.end(), h2.begin());
  AddColumns(h2.data(), hidden2_, w2t_.data(), h1.data(), hidden1_);
  for (int j = 0; j < hidden2_; ++j) h2[j] = std::max(h2[j], 0.0f);
  std::array<float, kNeuralOutputs> out;
  std::copy(b3_.begin(), b3_.end(), out.begin());
  AddColumns(out.data(), kNeuralOutputs, w3t_.data(), h2.data(), hidden2_);
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
