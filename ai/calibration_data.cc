#include "ai/calibration_data.h"

#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "ai/embedded_data.h"
#include "engine/rules.h"

namespace penk {

using nlohmann::json;

namespace {

// The maps of a "maps" or "fit" array at `where`: players 2, 3, 4 in order.
// Both kinds of map (CalibrationMap, ScoreMap) are a line in their variable
// whose slope changes with t (w[3]) and at three knots (w[4..6]).
template <typename Map>
absl::StatusOr<std::array<Map, 3>> ReadMaps(const json& j, absl::string_view file,
                                            absl::string_view where, const char* variable) {
  static_assert(std::tuple_size_v<decltype(Map{}.w)> == kCalibrationFeatures);
  if (!j.is_array() || j.size() != 3)
    return DataError(file, where, "not three maps (2, 3 and 4 players)");
  std::array<Map, 3> maps;
  for (int p = 0; p < 3; ++p) {
    const json& m = j[p];
    const std::string at = absl::StrCat(where, "[", p, "]");
    if (!m.is_object() || !m.contains("players") || m["players"] != p + 2)
      return DataError(file, at + ".players", absl::StrCat("must be ", p + 2));
    if (!m.contains("w") || !m["w"].is_array() || m["w"].size() != kCalibrationFeatures)
      return DataError(file, at + ".w", absl::StrCat("not ", kCalibrationFeatures, " weights"));
    for (int i = 0; i < kCalibrationFeatures; ++i) {
      const json& w = m["w"][i];
      if (!w.is_number() || !(std::abs(w.get<double>()) <= kCalibrationMaxWeight))
        return DataError(file, absl::StrCat(at, ".w[", i, "]"),
                         absl::StrCat(w.dump(), " is not a weight within +-", kCalibrationMaxWeight));
      maps[p].w[i] = w.get<double>();
    }
    // The slope in x (u) of each linear piece, at t = 0 and t = 2 (linear in t
    // between): all positive, or the shown figure would reorder actions.
    const auto& w = maps[p].w;
    for (double t : {0.0, 2.0}) {
      double slope = w[1] + w[3] * t;
      for (int piece = 0; piece < 4; ++piece) {
        if (piece > 0) slope += w[3 + piece];
        if (!(slope > 0))
          return DataError(file, at + ".w",
                           absl::StrCat("the map decreases in ", variable, " (slope ", slope,
                                        " at t = ", t, "): it would reorder actions"));
      }
    }
  }
  return maps;
}

// j[key], a count of positions: an integer >= 1.
absl::StatusOr<int64_t> PositionCount(const json& j, const char* key, absl::string_view file) {
  if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<int64_t>() < 1)
    return DataError(file, key, "missing, or not an integer >= 1");
  return j[key].get<int64_t>();
}

// A net's checksum as `penk neural check` prints it: 16 hex digits.
std::string NetChecksumText(uint64_t checksum) { return absl::StrFormat("%016x", checksum); }

absl::StatusOr<uint64_t> NetChecksum(const json& j, const char* key, absl::string_view file) {
  uint64_t value = 0;
  if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().size() != 16 ||
      !absl::SimpleHexAtoi(j[key].get<std::string>(), &value))
    return DataError(file, key,
                     "missing, or not the 16 hex digits of the checksum of the net fitted "
                     "(penk neural check prints it)");
  return value;
}

template <typename Map>
json MapsJson(const std::array<Map, 3>& maps) {
  json out = json::array();
  for (int p = 0; p < 3; ++p) out.push_back({{"players", p + 2}, {"w", maps[p].w}});
  return out;
}

}  // namespace

absl::StatusOr<CalibrationData> ParseCalibrationData(absl::string_view text, absl::string_view file) {
  absl::StatusOr<json> parsed = ParseDataObject(text, file);
  if (!parsed.ok()) return parsed.status();
  const json& j = *parsed;
  for (const auto& [key, value] : j.items())
    if (key != "what" && key != "estimate" && key != "features" && key != "rules" &&
        key != "maps" && key != "positions" && key != "source" && key != "score_features" &&
        key != "score_maps" && key != "score_positions" && key != "net")
      return DataError(file, key, "unknown key");
  json features = json::array();
  for (const char* f : kCalibrationFeatureNames) features.push_back(f);
  if (!j.contains("features") || j["features"] != features)
    return DataError(file, "features", absl::StrCat("must be ", features.dump(), " (the model's)"));
  if (!j.contains("rules") || j["rules"] != FormatRules(Rules{}))
    return DataError(file, "rules",
                     absl::StrCat("must be the default rules \"", FormatRules(Rules{}), "\""));
  CalibrationData d;
  // Absent in the first files: expert's estimate.
  if (j.contains("estimate")) {
    if (j["estimate"] == "expert") d.estimate = CalibratedEstimate::kExpert;
    else if (j["estimate"] == "neural") d.estimate = CalibratedEstimate::kNeural;
    else return DataError(file, "estimate", "must be \"expert\" or \"neural\"");
  }
  absl::StatusOr<std::array<CalibrationMap, 3>> maps =
      ReadMaps<CalibrationMap>(j.contains("maps") ? j["maps"] : json(), file, "maps", "x");
  if (!maps.ok()) return maps.status();
  d.maps = *maps;
  if (j.contains("score_maps") || j.contains("score_features") || j.contains("score_positions")) {
    if (d.estimate != CalibratedEstimate::kNeural)
      return DataError(file, "score_maps", "only the neural figure has an expected score to map");
    json names = json::array();
    for (const char* f : kScoreMapFeatureNames) names.push_back(f);
    if (!j.contains("score_features") || j["score_features"] != names)
      return DataError(file, "score_features", absl::StrCat("must be ", names.dump(), " (the model's)"));
    absl::StatusOr<std::array<ScoreMap, 3>> score =
        ReadMaps<ScoreMap>(j.contains("score_maps") ? j["score_maps"] : json(), file, "score_maps", "u");
    if (!score.ok()) return score.status();
    d.score_maps = *score;
    absl::StatusOr<int64_t> n = PositionCount(j, "score_positions", file);
    if (!n.ok()) return n.status();
    d.score_positions = *n;
  }
  if (d.estimate == CalibratedEstimate::kNeural) {
    absl::StatusOr<uint64_t> net = NetChecksum(j, "net", file);
    if (!net.ok()) return net.status();
    d.net_checksum = *net;
  } else if (j.contains("net")) {
    return DataError(file, "net", "only the neural figure is fitted for a net");
  }
  absl::StatusOr<int64_t> positions = PositionCount(j, "positions", file);
  if (!positions.ok()) return positions.status();
  d.positions = *positions;
  absl::StatusOr<DataSource> source =
      ParseDataSource(j.contains("source") ? j["source"] : json(), file, "source", "penk calibrate ");
  if (!source.ok()) return source.status();
  d.source = *std::move(source);
  return d;
}

absl::StatusOr<CalibrationData> CalibrationDataOfRun(absl::string_view run_json,
                                                     absl::string_view file,
                                                     const std::string& date,
                                                     CalibratedEstimate estimate) {
  absl::StatusOr<json> parsed = ParseDataObject(run_json, file);
  if (!parsed.ok()) return parsed.status();
  const json& j = *parsed;
  if (!j.contains("rules") || j["rules"] != FormatRules(Rules{}))
    return DataError(file, "rules", "missing, or not the default rules (the map's)");
  for (const char* key : {"seed", "games"})
    if (!j.contains(key) || !j[key].is_number_integer())
      return DataError(file, key, "missing, or not an integer (a penk calibrate --json record)");
  CalibrationData d;
  d.estimate = estimate;
  const char* fit = estimate == CalibratedEstimate::kNeural ? "neural_fit" : "fit";
  absl::StatusOr<std::array<CalibrationMap, 3>> maps =
      ReadMaps<CalibrationMap>(j.contains(fit) ? j[fit] : json(), file, fit, "x");
  if (!maps.ok()) return maps.status();
  d.maps = *maps;
  if (estimate == CalibratedEstimate::kNeural) {
    absl::StatusOr<std::array<ScoreMap, 3>> score = ReadMaps<ScoreMap>(
        j.contains("neural_score_fit") ? j["neural_score_fit"] : json(), file, "neural_score_fit", "u");
    if (!score.ok()) return score.status();
    d.score_maps = *score;
    absl::StatusOr<int64_t> n = PositionCount(j, "neural_score_fit_positions", file);
    if (!n.ok()) return n.status();
    d.score_positions = *n;
    absl::StatusOr<uint64_t> net = NetChecksum(j, "net", file);
    if (!net.ok()) return net.status();
    d.net_checksum = *net;
  }
  if (!j.contains("raw") || !j["raw"].is_object() || !j["raw"].contains("positions") ||
      !j["raw"]["positions"].is_number_integer())
    return DataError(file, "raw.positions", "missing");
  d.positions = j["raw"]["positions"].get<int64_t>();
  if (!j.contains("players") || !j["players"].is_array() || j["players"].empty())
    return DataError(file, "players", "missing, or not a list of line-ups");
  std::vector<std::string> lineups;
  for (const json& l : j["players"]) {
    if (!l.is_array()) return DataError(file, "players", "a line-up is not a list of names");
    std::vector<std::string> names;
    for (const json& n : l) {
      if (!n.is_string()) return DataError(file, "players", "a player is not a name");
      names.push_back(n.get<std::string>());
    }
    lineups.push_back(absl::StrJoin(names, ","));
  }
  d.source.seed = j["seed"].get<uint64_t>();
  d.source.games = j["games"].get<int64_t>();
  d.source.date = date;
  d.source.command = absl::StrCat("penk calibrate --players ", absl::StrJoin(lineups, " "),
                                  " --games ", d.source.games, " --seed ", d.source.seed, " --json");
  // What is written is what the file's own check accepts.
  absl::StatusOr<CalibrationData> checked = ParseCalibrationData(CalibrationDataJson(d), file);
  if (!checked.ok()) return checked.status();
  return d;
}

std::string CalibrationDataJson(const CalibrationData& d) {
  const bool neural = d.estimate == CalibratedEstimate::kNeural;
  nlohmann::ordered_json j = {
      {"what", neural
                   ? "The calibration maps of the neural player's figures, the ones hints with "
                     "opponents show (ai/calibration_map.h): per player count, its win figure "
                     "(CalibratedWin with FittedNeuralCalibration: logit p = w . features, x = "
                     "logit of the net's figure) and its expected final score (CalibratedScore "
                     "with FittedNeuralScoreCalibration: score / 50 = w . score_features, u = "
                     "the net's score / 50), t = min(turns, 20) / 10 (docs/AI.md, neural). "
                     "Written by `penk data calibration --estimate neural`; do not edit by hand."
                   : "The calibration map of expert's fast estimate, shown by hints with opponents "
                     "for rules the net was not trained on (CalibratedWin, "
                     "ai/calibration_map.h): per player count, logit p = w . features, x = logit "
                     "of the fast estimate, t = min(turns, 20) / 10 (docs/AI.md, Honest win "
                     "chances). Written by `penk data calibration`; do not edit by hand."},
      {"estimate", neural ? "neural" : "expert"},
      {"features", kCalibrationFeatureNames},
      {"rules", FormatRules(Rules{})},
      {"maps", MapsJson(d.maps)},
      {"positions", d.positions}};
  if (neural && d.score_positions > 0) {
    j["score_features"] = kScoreMapFeatureNames;
    j["score_maps"] = MapsJson(d.score_maps);
    j["score_positions"] = d.score_positions;
  }
  if (neural) j["net"] = NetChecksumText(d.net_checksum);
  j["source"] = DataSourceJson(d.source);
  return j.dump(2) + "\n";
}

namespace {

std::array<CalibrationMap, 3> EmbeddedMaps(absl::string_view text, const char* file,
                                           CalibratedEstimate estimate) {
  absl::StatusOr<CalibrationData> d = ParseCalibrationData(text, file);
  if (!d.ok()) FailOnEmbeddedData(d.status().message());
  if (d->estimate != estimate)
    FailOnEmbeddedData(absl::StrCat(file, ": estimate: the map of another figure"));
  return d->maps;
}

}  // namespace

const std::array<CalibrationMap, 3>& FittedCalibration() {
  static const std::array<CalibrationMap, 3> maps =
      EmbeddedMaps(EmbeddedCalibrationJson(), kCalibrationFile, CalibratedEstimate::kExpert);
  return maps;
}

const std::array<ScoreMap, 3>& FittedNeuralScoreCalibration() {
  static const std::array<ScoreMap, 3> maps = [] {
    absl::StatusOr<CalibrationData> d =
        ParseCalibrationData(EmbeddedNeuralCalibrationJson(), kNeuralCalibrationFile);
    if (!d.ok()) FailOnEmbeddedData(d.status().message());
    return d->score_maps;
  }();
  return maps;
}

const std::array<CalibrationMap, 3>& FittedNeuralCalibration() {
  static const std::array<CalibrationMap, 3> maps = EmbeddedMaps(
      EmbeddedNeuralCalibrationJson(), kNeuralCalibrationFile, CalibratedEstimate::kNeural);
  return maps;
}

}  // namespace penk
