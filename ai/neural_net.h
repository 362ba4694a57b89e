// The learned evaluation network for multiplayer PENK (issue 21): its file
// (trained by tools/train_neural.py, docs/AI.md "The evaluation network")
// and its forward pass in float32, in plain loops that run-time dispatch
// compiles for the CPU (engine/dispatch.h).
//
// Architecture: N inputs -> hidden1 ReLU -> hidden2 ReLU -> 8 outputs.
// Outputs 0..3 are the win logits of the rotated slots (slot 0 = the player
// to move, slot i = seat (mover + i) mod players); the softmax over the
// first `players` of them is the win shares. Outputs 4..7 are each slot's
// final score divided by 50.
//
// File (little-endian), format version 1:
//   char magic[8] = "PENKNET1"; uint32 format_version, feature_layout,
//   inputs, hidden1, hidden2, outputs (= 8); uint64 payload_floats, checksum;
//   then payload_floats float32: W1 (hidden1 x inputs, row-major: each hidden
//   unit's input weights), b1, W2 (hidden2 x hidden1), b2, W3 (8 x hidden2), b3.
//   checksum: 64-bit FNV-1a of the header (checksum field zeroed), then of
//   the payload bytes.
#ifndef PENK_AI_NEURAL_NET_H_
#define PENK_AI_NEURAL_NET_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace penk {

inline constexpr int kNeuralOutputs = 8;
inline constexpr uint32_t kNeuralFormatVersion = 1;
inline constexpr size_t kNeuralHeaderBytes = 48;
// Any layer larger is a damaged header, refused before anything is allocated.
inline constexpr int kNeuralMaxUnits = 4096;
// Scores are trained and output divided by this (inputs of similar scale).
inline constexpr float kNeuralScoreScale = 50.0f;

// One evaluation: win shares (sum 1 over the present slots) and final
// scores in points, per rotated slot; 0 for the slots of absent players.
struct NeuralOutput {
  std::array<float, 4> win{};
  std::array<float, 4> score{};
};

// A net's weights in the file's order and shapes (row-major matrices):
// what WriteNeuralNet writes and tests build by hand.
struct NeuralWeights {
  uint32_t layout = 0;
  int inputs = 0, hidden1 = 0, hidden2 = 0;
  std::vector<float> w1;  // hidden1 x inputs
  std::vector<float> b1;  // hidden1
  std::vector<float> w2;  // hidden2 x hidden1
  std::vector<float> b2;  // hidden2
  std::vector<float> w3;  // 8 x hidden2
  std::vector<float> b3;  // 8
};

// A feature layout a caller can feed a net of: its id and input count.
struct NeuralInputs {
  uint32_t layout = 0;
  int inputs = 0;
};

// A loaded net: a plain value (copyable, no process-wide state), immutable
// after loading, so any number of threads may evaluate it at once.
class NeuralNet {
 public:
  // `bytes`: a whole file's contents; `what` names it in errors. The net must
  // read features the caller can compute: one of `accepted` (its layout and
  // that layout's input count).
  static absl::StatusOr<NeuralNet> Parse(absl::string_view bytes, absl::string_view what,
                                         absl::Span<const NeuralInputs> accepted);
  // Reads the file at `path` (a regular file only; its header and exact size
  // are checked before the payload is read), then Parse.
  static absl::StatusOr<NeuralNet> Load(const std::string& path,
                                        absl::Span<const NeuralInputs> accepted);

  int inputs() const { return inputs_; }
  int hidden1() const { return hidden1_; }
  int hidden2() const { return hidden2_; }
  uint32_t layout() const { return layout_; }
  uint64_t checksum() const { return checksum_; }
  // The size of the file it was read from (header and payload).
  size_t file_bytes() const;

  // The first layer's pre-activations, hidden1 floats (NNUE style): a caller
  // that changes a few inputs updates it with Add and pays only for those.
  using Accumulator = std::vector<float>;
  // acc = b1 + W1 * features (`features`: inputs() floats); resizes acc.
  void Begin(const float* features, Accumulator& acc) const;
  // acc += delta * W1[:, feature]: feature `feature` changed by `delta`.
  // `feature` must be in 0..inputs()-1 (not checked: this is the hot path).
  void Add(Accumulator& acc, int feature, float delta) const;
  // The rest of the net: ReLU, layer 2, ReLU, layer 3, the softmax over the
  // first `players` logits, scores times 50. `players` outside 2..4 is
  // clamped into it (a caller's bug, not a reason to read out of bounds).
  NeuralOutput Finish(const Accumulator& acc, int players) const;
  // Begin and Finish.
  NeuralOutput Evaluate(const float* features, int players) const;

 private:
  NeuralNet() = default;
  uint32_t layout_ = 0;
  int inputs_ = 0, hidden1_ = 0, hidden2_ = 0;
  uint64_t checksum_ = 0;
  // Every layer's matrix transposed (column-major: one input unit's weights
  // contiguous), so that a layer is a sum of columns scaled by its inputs,
  // one SIMD lane per output (ai/neural_net.cc), and Add reads one column.
  std::vector<float> w1t_;  // inputs x hidden1
  std::vector<float> w2t_;  // hidden1 x hidden2
  std::vector<float> w3t_;  // hidden2 x 8
  std::vector<float> b1_, b2_, b3_;
};

// The file's bytes for `w`; an error if the vectors' sizes do not match the
// shapes or a shape is outside 1..kNeuralMaxUnits.
absl::StatusOr<std::string> EncodeNeuralNet(const NeuralWeights& w);
// Writes EncodeNeuralNet(w) to `path` (through a temporary file beside it,
// so a failed write leaves an old file whole).
absl::Status WriteNeuralNet(const std::string& path, const NeuralWeights& w);

// 64-bit FNV-1a, continuing from `hash` (start: kFnvOffset).
inline constexpr uint64_t kFnvOffset = 14695981039346656037ull;
uint64_t Fnv1a64(absl::string_view bytes, uint64_t hash = kFnvOffset);

}  // namespace penk

#endif  // PENK_AI_NEURAL_NET_H_
