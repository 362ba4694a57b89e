// The evaluation network (ai/neural_net.h): its forward pass against a plain
// scalar one written here, the accumulator's updates, the softmax over the
// present slots, every refusal of a bad file, and the committed net against
// the trainer's check file. The trainer itself is checked end to end by the
// ctest neural_train (tests/neural/neural_train_test.sh).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ai/neural_check.h"
#include "ai/neural_features.h"
#include "ai/neural_net.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"

namespace penk {
namespace {

using testing_support::ScratchDir;

constexpr uint32_t kLayout = 7;

NeuralWeights RandomWeights(int inputs, int hidden1, int hidden2, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 0.3f);
  NeuralWeights w;
  w.layout = kLayout;
  w.inputs = inputs, w.hidden1 = hidden1, w.hidden2 = hidden2;
  auto fill = [&](std::vector<float>& v, size_t n) {
    v.resize(n);
    for (float& x : v) x = g(rng);
  };
  fill(w.w1, static_cast<size_t>(hidden1) * inputs);
  fill(w.b1, hidden1);
  fill(w.w2, static_cast<size_t>(hidden2) * hidden1);
  fill(w.b2, hidden2);
  fill(w.w3, static_cast<size_t>(kNeuralOutputs) * hidden2);
  fill(w.b3, kNeuralOutputs);
  return w;
}

// The forward pass written out, in double, from the file's row-major weights.
NeuralOutput Reference(const NeuralWeights& w, const std::vector<float>& x, int players) {
  std::vector<double> h1(w.hidden1), h2(w.hidden2), out(kNeuralOutputs);
  for (int j = 0; j < w.hidden1; ++j) {
    double s = w.b1[j];
    for (int i = 0; i < w.inputs; ++i) s += double{w.w1[j * w.inputs + i]} * x[i];
    h1[j] = s > 0 ? s : 0;
  }
  for (int j = 0; j < w.hidden2; ++j) {
    double s = w.b2[j];
    for (int i = 0; i < w.hidden1; ++i) s += double{w.w2[j * w.hidden1 + i]} * h1[i];
    h2[j] = s > 0 ? s : 0;
  }
  for (int j = 0; j < kNeuralOutputs; ++j) {
    double s = w.b3[j];
    for (int i = 0; i < w.hidden2; ++i) s += double{w.w3[j * w.hidden2 + i]} * h2[i];
    out[j] = s;
  }
  NeuralOutput r;
  double sum = 0;
  for (int i = 0; i < players; ++i) sum += std::exp(out[i]);
  for (int i = 0; i < players; ++i) {
    r.win[i] = static_cast<float>(std::exp(out[i]) / sum);
    r.score[i] = static_cast<float>(50 * out[4 + i]);
  }
  return r;
}

std::vector<float> RandomFeatures(int n, std::mt19937& rng) {
  std::vector<float> x(n);
  std::uniform_int_distribution<int> bit(0, 3);
  for (float& v : x) v = bit(rng) == 0 ? 1.0f : 0.0f;
  return x;
}

std::string WriteNet(const ScratchDir& dir, const NeuralWeights& w) {
  const std::string path = dir.path() + "/net.penknet";
  EXPECT_TRUE(WriteNeuralNet(path, w).ok());
  return path;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(NeuralNet, EvaluateEqualsAScalarForwardPass) {
  ScratchDir dir("neural");
  const NeuralWeights w = RandomWeights(40, 24, 12, 1);
  absl::StatusOr<NeuralNet> net = NeuralNet::Load(WriteNet(dir, w), {{kLayout, 40}});
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->inputs(), 40);
  EXPECT_EQ(net->hidden1(), 24);
  EXPECT_EQ(net->hidden2(), 12);
  EXPECT_EQ(net->layout(), kLayout);
  EXPECT_EQ(net->file_bytes(), std::filesystem::file_size(dir.path() + "/net.penknet"));
  std::mt19937 rng(2);
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<float> x = RandomFeatures(40, rng);
    const int players = 2 + trial % 3;
    const NeuralOutput got = net->Evaluate(x.data(), players), want = Reference(w, x, players);
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(got.win[i], want.win[i], 1e-6) << "trial " << trial << " slot " << i;
      // Scores are 50 times an output: the same relative precision.
      EXPECT_NEAR(got.score[i] / 50, want.score[i] / 50, 1e-6) << "trial " << trial << " slot " << i;
    }
  }
}

// The order of every sum, as ai/neural_net.cc states it, in plain float32:
// the first layer adds its nonzero inputs' columns in input order; a hidden
// or output unit adds its even inputs and its odd ones apart, from 0, then
// (even + odd) to its bias. The forward pass must give these bits exactly,
// whichever clone (AVX-512, AVX2, SSE) or build runs it: no CPU may sum in
// an order of its own.
NeuralOutput SumOrderReference(const NeuralWeights& w, const std::vector<float>& x, int players) {
  std::vector<float> h1(w.b1), h2(w.hidden2);
  for (int i = 0; i < w.inputs; ++i)
    if (x[i] != 0.0f)
      for (int j = 0; j < w.hidden1; ++j) h1[j] += x[i] * w.w1[j * w.inputs + i];
  for (float& v : h1) v = std::max(v, 0.0f);
  auto layer = [](const std::vector<float>& in, const std::vector<float>& weights,
                  const std::vector<float>& bias, int outputs) {
    std::vector<float> out(outputs);
    const int n = static_cast<int>(in.size());
    for (int j = 0; j < outputs; ++j) {
      float even = 0, odd = 0;
      for (int i = 0; i < n; ++i) (i % 2 ? odd : even) += in[i] * weights[j * n + i];
      out[j] = bias[j] + (even + odd);
    }
    return out;
  };
  h2 = layer(h1, w.w2, w.b2, w.hidden2);
  for (float& v : h2) v = std::max(v, 0.0f);
  const std::vector<float> out = layer(h2, w.w3, w.b3, kNeuralOutputs);
  NeuralOutput r;
  float top = out[0], sum = 0;
  for (int i = 1; i < players; ++i) top = std::max(top, out[i]);
  for (int i = 0; i < players; ++i) sum += r.win[i] = std::exp(out[i] - top);
  for (int i = 0; i < players; ++i) {
    r.win[i] /= sum;
    r.score[i] = kNeuralScoreScale * out[4 + i];
  }
  return r;
}

TEST(NeuralNet, EveryLayerSumsInItsStatedOrderBitForBit) {
  ScratchDir dir("neural_order");
  // 45 hidden units of layer 2: a block of 32 lanes, one of 8, 5 alone; 37
  // of layer 1: an odd count of inputs to layer 2; layer 3 has 8 outputs.
  // The committed net's shape too (234-128-32).
  for (const auto& [inputs, hidden1, hidden2] : {std::array<int, 3>{29, 37, 45}, {234, 128, 32}}) {
    const NeuralWeights w = RandomWeights(inputs, hidden1, hidden2, 11);
    absl::StatusOr<NeuralNet> net = NeuralNet::Load(WriteNet(dir, w), {{kLayout, inputs}});
    ASSERT_TRUE(net.ok()) << net.status();
    std::mt19937 rng(12);
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<float> x = RandomFeatures(inputs, rng);
      x[trial % inputs] = 0.37f;  // a feature that is not 0 or 1 (a score, a value)
      const int players = 2 + trial % 3;
      const NeuralOutput got = net->Evaluate(x.data(), players), want = SumOrderReference(w, x, players);
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(got.win[i], want.win[i]) << inputs << " inputs, trial " << trial << " slot " << i;
        EXPECT_EQ(got.score[i], want.score[i]) << inputs << " inputs, trial " << trial << " slot " << i;
      }
    }
  }
}

TEST(NeuralNet, AddingChangedFeaturesEqualsEvaluatingTheChangedVector) {
  const NeuralWeights w = RandomWeights(30, 16, 8, 3);
  absl::StatusOr<NeuralNet> net = NeuralNet::Parse(*EncodeNeuralNet(w), "net", {{kLayout, 30}});
  ASSERT_TRUE(net.ok()) << net.status();
  std::mt19937 rng(4);
  std::vector<float> x = RandomFeatures(30, rng);
  NeuralNet::Accumulator acc;
  net->Begin(x.data(), acc);
  for (int feature : {0, 7, 29, 7}) {
    const float delta = x[feature] == 0 ? 1.0f : -1.0f;
    x[feature] += delta;
    net->Add(acc, feature, delta);
  }
  const NeuralOutput inc = net->Finish(acc, 3), full = net->Evaluate(x.data(), 3);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(inc.win[i], full.win[i], 1e-6);
    EXPECT_NEAR(inc.score[i], full.score[i], 1e-4);
  }
}

TEST(NeuralNet, WinSharesOfPresentSlotsSumToOneAndAbsentSlotsAreZero) {
  NeuralWeights w = RandomWeights(10, 8, 4, 5);
  for (float& b : w.b3) b *= 40;  // large logits: the softmax must not overflow
  absl::StatusOr<NeuralNet> net = NeuralNet::Parse(*EncodeNeuralNet(w), "net", {{kLayout, 10}});
  ASSERT_TRUE(net.ok()) << net.status();
  std::mt19937 rng(6);
  const std::vector<float> x = RandomFeatures(10, rng);
  for (int players = 2; players <= 4; ++players) {
    const NeuralOutput out = net->Evaluate(x.data(), players);
    float sum = 0;
    for (int i = 0; i < players; ++i) {
      EXPECT_TRUE(std::isfinite(out.win[i]));
      EXPECT_GE(out.win[i], 0.0f);
      sum += out.win[i];
    }
    EXPECT_NEAR(sum, 1.0f, 1e-6) << players << " players";
    for (int i = players; i < 4; ++i) {
      EXPECT_EQ(out.win[i], 0.0f) << "absent slot " << i;
      EXPECT_EQ(out.score[i], 0.0f) << "absent slot " << i;
    }
  }
  // Out-of-range player counts are clamped, never read out of bounds.
  EXPECT_EQ(net->Evaluate(x.data(), 1).win[2], 0.0f);
  EXPECT_NEAR(net->Evaluate(x.data(), 9).win[3], net->Evaluate(x.data(), 4).win[3], 1e-7);
}

// What a refusal says, or "loaded" if the file was accepted.
std::string Refusal(const std::string& path, uint32_t layout = kLayout, int inputs = 20) {
  absl::StatusOr<NeuralNet> net = NeuralNet::Load(path, {{layout, inputs}});
  if (net.ok()) return "loaded";
  const std::string m(net.status().message());
  EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  EXPECT_NE(m.find(path), std::string::npos) << "names the file: " << m;
  return m;
}

class NeuralNetFile : public testing::Test {
 protected:
  NeuralNetFile() : dir_("neural_file"), weights_(RandomWeights(20, 16, 8, 7)) {
    good_ = *EncodeNeuralNet(weights_);
    path_ = dir_.path() + "/net.penknet";
  }
  // The refusal of the good file changed by `edit`.
  template <class Edit>
  std::string RefusalOf(Edit edit) {
    std::string bytes = good_;
    edit(bytes);
    WriteBytes(path_, bytes);
    return Refusal(path_);
  }
  void SetU32(std::string& bytes, size_t at, uint32_t v) { std::memcpy(bytes.data() + at, &v, 4); }

  ScratchDir dir_;
  NeuralWeights weights_;
  std::string good_, path_;
};

TEST_F(NeuralNetFile, TheGoodFileLoads) {
  EXPECT_EQ(RefusalOf([](std::string&) {}), "loaded");
}

TEST_F(NeuralNetFile, MissingEmptyAndDirectoryAreRefused) {
  EXPECT_NE(Refusal(dir_.path() + "/absent.penknet").find("No such file"), std::string::npos);
  WriteBytes(path_, "");
  EXPECT_NE(Refusal(path_).find("empty file"), std::string::npos);
  EXPECT_NE(Refusal(dir_.path()).find("not a regular file"), std::string::npos);
}

TEST_F(NeuralNetFile, AFifoIsRefusedWithoutWaiting) {
  const std::string fifo = dir_.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(Refusal(fifo).find("not a regular file"), std::string::npos);
}

TEST_F(NeuralNetFile, TruncatedByOneByteIsRefusedWithBothSizes) {
  const std::string m = RefusalOf([](std::string& b) { b.pop_back(); });
  EXPECT_NE(m.find("truncated"), std::string::npos) << m;
  EXPECT_NE(m.find("the header says"), std::string::npos) << m;
  EXPECT_NE(RefusalOf([](std::string& b) { b += '\0'; }).find("trailing bytes"), std::string::npos);
  EXPECT_NE(RefusalOf([](std::string& b) { b.resize(30); }).find("header"), std::string::npos);
}

TEST_F(NeuralNetFile, OneFlippedBitAnywhereIsRefused) {
  // Every bit of the header's layout and checksum fields and of a spread of
  // payload bytes: each is caught (the checksum, or a field's own check).
  for (size_t byte : {size_t{12}, size_t{13}, size_t{40}, size_t{47}, size_t{48}, size_t{500},
                      good_.size() - 1}) {
    for (int bit = 0; bit < 8; ++bit) {
      const std::string m = RefusalOf([&](std::string& b) { b[byte] ^= static_cast<char>(1 << bit); });
      EXPECT_NE(m, "loaded") << "byte " << byte << " bit " << bit;
    }
  }
  EXPECT_NE(RefusalOf([](std::string& b) { b[300] ^= 4; }).find("checksum mismatch (corrupt file)"),
            std::string::npos);
  EXPECT_NE(RefusalOf([](std::string& b) { b[12] ^= 1; }).find("checksum mismatch"), std::string::npos);
}

TEST_F(NeuralNetFile, WrongMagicAndOtherVersionAreRefused) {
  EXPECT_NE(RefusalOf([](std::string& b) { b[7] = '2'; }).find("not a PENK net"), std::string::npos);
  const std::string m = RefusalOf([&](std::string& b) { SetU32(b, 8, 2); });
  EXPECT_NE(m.find("net format version 2, this program reads version 1"), std::string::npos) << m;
}

TEST_F(NeuralNetFile, OtherLayoutAndOtherInputCountAreRefused) {
  WriteBytes(path_, good_);
  std::string m = Refusal(path_, kLayout + 1, 20);
  EXPECT_NE(m.find("feature layout 7, this program reads layout 8"), std::string::npos) << m;
  EXPECT_NE(m.find("retrain"), std::string::npos) << m;
  m = Refusal(path_, kLayout, 21);
  EXPECT_NE(m.find("20 inputs"), std::string::npos) << m;
  // A program that reads several layouts takes a net of any of them, with
  // that layout's input count, and names them all when it refuses one.
  const NeuralInputs both[] = {{kLayout - 1, 30}, {kLayout, 20}};
  absl::StatusOr<NeuralNet> net = NeuralNet::Load(path_, both);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->layout(), kLayout);
  const NeuralInputs others[] = {{kLayout + 1, 20}, {kLayout + 2, 20}};
  m = std::string(NeuralNet::Load(path_, others).status().message());
  EXPECT_NE(m.find("feature layout 7, this program reads layouts 8, 9"), std::string::npos) << m;
  const NeuralInputs wider[] = {{kLayout - 1, 20}, {kLayout, 30}};
  m = std::string(NeuralNet::Load(path_, wider).status().message());
  EXPECT_NE(m.find("20 inputs, this program's layout 7 has 30"), std::string::npos) << m;
}

TEST_F(NeuralNetFile, HugeOrZeroSizesInTheHeaderAreRefusedBeforeAllocating) {
  // inputs = 2^31: a naive loader would allocate gigabytes. Refused on the
  // header alone (the limit), as are sizes within the limit whose payload
  // the file does not hold.
  std::string m = RefusalOf([&](std::string& b) { SetU32(b, 16, 1u << 31); });
  EXPECT_NE(m.find("inputs 2,147,483,648, expected 1..4096"), std::string::npos) << m;
  EXPECT_NE(RefusalOf([&](std::string& b) { SetU32(b, 24, 0); }).find("hidden2 0"), std::string::npos);
  EXPECT_NE(RefusalOf([&](std::string& b) { SetU32(b, 28, 9); }).find("9 outputs, expected 8"),
            std::string::npos);
  m = RefusalOf([&](std::string& b) {
    SetU32(b, 16, 4096), SetU32(b, 20, 4096), SetU32(b, 24, 4096);
    const uint64_t floats = 4096ull * 4096 * 2 + 4096 * 2 + 8 * 4096 + 8;
    std::memcpy(b.data() + 32, &floats, 8);
  });
  EXPECT_NE(m.find("truncated"), std::string::npos) << m;
  m = RefusalOf([&](std::string& b) {
    const uint64_t floats = ~0ull;
    std::memcpy(b.data() + 32, &floats, 8);
  });
  EXPECT_NE(m.find("payload floats"), std::string::npos) << m;
}

TEST_F(NeuralNetFile, ANonFiniteWeightIsRefused) {
  NeuralWeights w = weights_;
  w.b2[3] = std::nanf("");
  WriteBytes(path_, *EncodeNeuralNet(w));
  EXPECT_NE(Refusal(path_).find("not a finite number"), std::string::npos);
}

// Random damage (bytes overwritten, cut, appended) of a good file: every
// result is a refusal, never a crash or a net (the sanitizer pass checks the
// reads). A header whose fields are all random is refused on the header.
TEST_F(NeuralNetFile, RandomDamageIsAlwaysRefused) {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string b = good_;
    const int kind = trial % 3;
    if (kind == 0) {
      const size_t at = rng() % b.size();
      const char was = b[at];
      while (b[at] == was) b[at] = static_cast<char>(rng());
    } else if (kind == 1) {
      b.resize(rng() % b.size());
    } else {
      for (size_t i = 8; i < kNeuralHeaderBytes; ++i) b[i] = static_cast<char>(rng());
    }
    EXPECT_FALSE(NeuralNet::Parse(b, "net", {{kLayout, 20}}).ok()) << "trial " << trial;
  }
}

TEST(NeuralNet, EncodeRefusesWeightsOfTheWrongShape) {
  NeuralWeights w = RandomWeights(5, 4, 3, 8);
  w.w2.pop_back();
  EXPECT_FALSE(EncodeNeuralNet(w).ok());
  w = RandomWeights(5, 4, 3, 8);
  w.hidden1 = 5000;
  EXPECT_FALSE(EncodeNeuralNet(w).ok());
  EXPECT_FALSE(WriteNeuralNet("/nonexistent-dir/net.penknet", RandomWeights(5, 4, 3, 8)).ok());
}

// The committed net (data/neural.penknet) gives the trainer's outputs on its
// check positions (data/neural_check.json).
TEST(NeuralNet, CommittedNetEqualsTheTrainersCheckFile) {
  const std::string net_path = std::string(PENK_SOURCE_DIR) + "/data/neural.penknet";
  const std::string check_path = std::string(PENK_SOURCE_DIR) + "/data/neural_check.json";
  if (!std::filesystem::exists(net_path) || !std::filesystem::exists(check_path))
    GTEST_SKIP() << "no committed data/neural.penknet and data/neural_check.json yet";
  absl::StatusOr<NeuralNet> net = NeuralNet::Load(net_path, kReadableNetInputs);
  ASSERT_TRUE(net.ok()) << net.status();
  absl::StatusOr<std::vector<NeuralCheckPosition>> positions =
      ParseNeuralCheck(ReadBytes(check_path), check_path, net->layout(), net->inputs());
  ASSERT_TRUE(positions.ok()) << positions.status();
  const NeuralCheckDifference d = CompareNeuralCheck(*net, *positions);
  EXPECT_LE(d.win, kNeuralCheckTolerance);
  EXPECT_LE(d.score, kNeuralCheckTolerance);
}

TEST(NeuralCheck, MalformedCheckFilesAreRefusedInOneLine) {
  EXPECT_FALSE(ParseNeuralCheck("{", "c.json", 1, 2).ok());
  EXPECT_FALSE(ParseNeuralCheck(R"({"layout":2,"inputs":2,"positions":[]})", "c.json", 1, 2).ok());
  EXPECT_FALSE(ParseNeuralCheck(R"({"layout":1,"inputs":2,"positions":[]})", "c.json", 1, 2).ok());
  const std::string bad_players =
      R"({"layout":1,"inputs":2,"positions":[{"features":[0,1],"players":5,"win":[1,0,0,0],"score":[0,0,0,0]}]})";
  absl::StatusOr<std::vector<NeuralCheckPosition>> p = ParseNeuralCheck(bad_players, "c.json", 1, 2);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("c.json: position 1: players"), std::string::npos);
  const std::string good =
      R"({"layout":1,"inputs":2,"positions":[{"features":[0,1],"players":2,"win":[0.5,0.5,0,0],"score":[10,20,0,0]}]})";
  p = ParseNeuralCheck(good, "c.json", 1, 2);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)[0].expected.score[1], 20.0f);
}

}  // namespace
}  // namespace penk
