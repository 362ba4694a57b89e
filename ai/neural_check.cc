#include "ai/neural_check.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace penk {
namespace {

using Json = nlohmann::json;

// Reads `n` numbers of key `key` of `j` into `out`; false if it is not an
// array of exactly `n` finite numbers.
template <class Out>
bool Floats(const Json& j, const char* key, size_t n, Out& out) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array() || it->size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    const Json& x = (*it)[i];
    if (!x.is_number() || !std::isfinite(x.get<double>())) return false;
    out[i] = static_cast<float>(x.get<double>());
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<NeuralCheckPosition>> ParseNeuralCheck(absl::string_view text,
                                                                  absl::string_view what,
                                                                  uint32_t layout, int inputs) {
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", why));
  };
  const Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return error("not JSON");
  if (!j.is_object() || !j.contains("layout") || !j["layout"].is_number_unsigned() ||
      !j.contains("inputs") || !j["inputs"].is_number_unsigned() || !j.contains("positions") ||
      !j["positions"].is_array())
    return error("not a net check file (expected layout, inputs and positions)");
  if (j["layout"].get<uint64_t>() != layout || j["inputs"].get<uint64_t>() != static_cast<uint64_t>(inputs))
    return error(absl::StrCat("for layout ", j["layout"].get<uint64_t>(), " with ",
                              j["inputs"].get<uint64_t>(), " inputs, the net has layout ", layout,
                              " with ", inputs));
  std::vector<NeuralCheckPosition> positions;
  for (const Json& p : j["positions"]) {
    const std::string at = absl::StrCat("position ", positions.size() + 1);
    NeuralCheckPosition c;
    c.features.resize(inputs);
    if (!p.is_object() || !Floats(p, "features", inputs, c.features))
      return error(absl::StrCat(at, ": features must be ", inputs, " numbers"));
    if (!p.contains("players") || !p["players"].is_number_integer() || p["players"].get<int>() < 2 ||
        p["players"].get<int>() > 4)
      return error(absl::StrCat(at, ": players must be 2, 3 or 4"));
    c.players = p["players"].get<int>();
    if (!Floats(p, "win", 4, c.expected.win) || !Floats(p, "score", 4, c.expected.score))
      return error(absl::StrCat(at, ": win and score must be 4 numbers each"));
    positions.push_back(std::move(c));
  }
  if (positions.empty()) return error("no positions");
  return positions;
}

NeuralCheckDifference CompareNeuralCheck(const NeuralNet& net,
                                         const std::vector<NeuralCheckPosition>& positions) {
  NeuralCheckDifference d;
  for (const NeuralCheckPosition& p : positions) {
    const NeuralOutput out = net.Evaluate(p.features.data(), p.players);
    for (int i = 0; i < 4; ++i) {
      d.win = std::max(d.win, std::abs(double{out.win[i]} - p.expected.win[i]));
      d.score = std::max(d.score, std::abs(double{out.score[i]} - p.expected.score[i]) /
                                      kNeuralScoreScale);
    }
  }
  return d;
}

}  // namespace penk
