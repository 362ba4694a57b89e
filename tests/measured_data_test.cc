// Measured figures served as data (issue 24, item 5): data/ladder.json and
// data/calibration.json are what the program serves (hello's level_info,
// CalibratedWin), read here from the source tree with a parser of the
// test's own; a damaged copy is refused in one line naming the file and
// the field; and `penk data` writes both from short recorded runs, read
// back through the same check.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "ai/bot.h"
#include "ai/calibration_data.h"
#include "ai/calibration_map.h"
#include "ai/embedded_data.h"
#include "ai/ladder.h"
#include "ai/neural_default.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "protocol/protocol.h"
#include "protocol/session.h"
#include "tests/penk_process.h"
#include "tests/scratch_dir.h"

namespace penk {
namespace {

using nlohmann::json;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Committed(const char* name) { return ReadFile(std::string(PENK_SOURCE_DIR) + "/" + name); }

std::vector<std::string> LevelNames() {
  std::vector<std::string> names;
  for (const LevelInfo& l : kLevels) names.push_back(l.name);
  return names;
}

// The build compiles in the committed files, byte for byte.
TEST(MeasuredData, CompiledInFilesAreTheCommittedOnes) {
  EXPECT_EQ(std::string(EmbeddedLadderJson()), Committed(kLadderFile));
  EXPECT_EQ(std::string(EmbeddedCalibrationJson()), Committed(kCalibrationFile));
  EXPECT_TRUE(ParseLadder(Committed(kLadderFile), kLadderFile, LevelNames()).ok());
  EXPECT_TRUE(ParseCalibrationData(Committed(kCalibrationFile), kCalibrationFile).ok());
}

// hello's level_info gives the committed ladder's figures (the file read by
// nlohmann here, not by ai/ladder.cc), greedy at 0.
TEST(MeasuredData, HelloServesTheCommittedLadder) {
  const json file = json::parse(Committed(kLadderFile));
  protocol::Session session;
  const json hello = json::parse(protocol::HandleLine(session, R"({"cmd":"hello"})"))["result"];
  ASSERT_EQ(hello["level_info"].size(), std::size(kLevels));
  int measured = 0;
  for (const json& level : hello["level_info"]) {
    const std::string name = level["name"];
    if (name == "greedy") {
      EXPECT_EQ(level["elo"], 0);
      EXPECT_EQ(level["elo_ci95"], json({0, 0}));
      continue;
    }
    bool found = false;
    for (const json& l : file["levels"])
      if (l["name"] == name) {
        found = true;
        ++measured;
        EXPECT_EQ(level["elo"], std::lround(l["elo"].get<double>())) << name;
        EXPECT_EQ(level["elo_ci95"], json({std::lround(l["elo_ci95"][0].get<double>()),
                                           std::lround(l["elo_ci95"][1].get<double>())}))
            << name;
      }
    EXPECT_TRUE(found) << name;
  }
  EXPECT_EQ(measured, static_cast<int>(file["levels"].size()));
}

// CalibratedWin is the logistic map of the committed weights, computed here
// from the file by hand.
TEST(MeasuredData, CalibratedWinUsesTheCommittedMap) {
  const json file = json::parse(Committed(kCalibrationFile));
  for (int players = 2; players <= 4; ++players) {
    const json& w = file["maps"][players - 2]["w"];
    ASSERT_EQ(file["maps"][players - 2]["players"], players);
    for (double raw : {0.01, 0.1, 0.3, 0.5, 0.7, 0.95})
      for (int turns : {0, 4, 9, 25}) {
        const double x = std::clamp(std::log(raw / (1 - raw)), -7.0, 7.0);
        const double t = std::min(turns, 20) / 10.0;
        const double f[] = {1, x, t, x * t, std::max(0.0, x + 2), std::max(0.0, x),
                            std::max(0.0, x - 2)};
        double z = 0;
        for (int i = 0; i < 7; ++i) z += w[i].get<double>() * f[i];
        EXPECT_NEAR(CalibratedWin(raw, players, turns), 1 / (1 + std::exp(-z)), 1e-12)
            << players << " " << raw << " " << turns;
      }
  }
}

struct Damage {
  const char* what;
  std::function<void(json&)> edit;
  const char* says;  // in the one-line error, after the file name
};

// Each damaged copy is refused: one line, the file named first, the field
// and what is wrong with it.
void ExpectRefused(const char* file, const std::string& text, const Damage& d,
                   const std::function<absl::Status(const std::string&)>& parse) {
  const absl::Status st = parse(text);
  ASSERT_FALSE(st.ok()) << d.what;
  const std::string m(st.message());
  EXPECT_EQ(m.rfind(std::string(file) + ": ", 0), 0u) << d.what << ": " << m;
  EXPECT_NE(m.find(d.says), std::string::npos) << d.what << ": " << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << d.what << ": " << m;
}

TEST(MeasuredData, DamagedLadderIsRefused) {
  const json good = json::parse(Committed(kLadderFile));
  const Damage damages[] = {
      {"no date", [](json& j) { j["levels"][0]["source"].erase("date"); }, "levels[0].source.date: missing"},
      {"bad date", [](json& j) { j["levels"][1]["source"]["date"] = "2026-02-30"; }, "levels[1].source.date"},
      {"no command", [](json& j) { j["levels"][0]["source"].erase("command"); }, "levels[0].source.command"},
      {"seed not the command's", [](json& j) { j["levels"][2]["source"]["seed"] = 7; }, "does not say --seed 7"},
      {"games zero", [](json& j) { j["levels"][2]["source"]["games"] = 0; }, "levels[2].source.games"},
      {"elo outside its interval", [](json& j) { j["levels"][2]["elo"] = 500; }, "does not hold the Elo 500"},
      {"interval not two numbers", [](json& j) { j["levels"][2]["elo_ci95"] = json::array({1}); }, "elo_ci95"},
      {"elo a string", [](json& j) { j["levels"][3]["elo"] = "151"; }, "levels[3].elo: not a number"},
      {"win rate above 1", [](json& j) { j["levels"][0]["win_rate"] = 1.5; }, "levels[0].win_rate"},
      {"unknown level", [](json& j) { j["levels"][0]["name"] = "wizard"; }, "\"wizard\" is not a level"},
      {"a level missing", [](json& j) { j["levels"].erase(j["levels"].begin()); }, "no entry for \"random\""},
      {"a level twice", [](json& j) { j["levels"].push_back(j["levels"][0]); }, "twice"},
      {"the reference listed", [](json& j) { j["levels"][0]["name"] = "greedy"; }, "reference"},
      {"other rules", [](json& j) { j["rules"] = "line-min=2,penk-lines=all"; }, "rules: must be the default"},
      {"unknown key", [](json& j) { j["elo_offset"] = 10; }, "elo_offset: unknown key"},
      {"a match of other players", [](json& j) {
         j["levels"][2]["source"]["command"] = "penk match expert random --games 4000 --seed 2024 --json"; },
       "is not a match of expert and greedy"},
  };
  for (const Damage& d : damages) {
    json j = good;
    d.edit(j);
    ExpectRefused(kLadderFile, j.dump(), d, [](const std::string& t) {
      return ParseLadder(t, kLadderFile, LevelNames()).status();
    });
  }
  ExpectRefused(kLadderFile, Committed(kLadderFile).substr(0, 200), {"cut short", nullptr, "not valid JSON"},
                [](const std::string& t) { return ParseLadder(t, kLadderFile, LevelNames()).status(); });
}

TEST(MeasuredData, DamagedCalibrationIsRefused) {
  const json good = json::parse(Committed(kCalibrationFile));
  const Damage damages[] = {
      {"no source", [](json& j) { j.erase("source"); }, "source: missing"},
      {"no seed", [](json& j) { j["source"].erase("seed"); }, "source.seed: missing"},
      {"not a calibrate command", [](json& j) { j["source"]["command"] = "penk match a b --games 12000 --seed 1"; },
       "source.command"},
      {"two maps", [](json& j) { j["maps"].erase(j["maps"].begin()); }, "maps: not three maps"},
      {"players out of order", [](json& j) { std::swap(j["maps"][0], j["maps"][1]); }, "maps[0].players"},
      {"six weights", [](json& j) { j["maps"][1]["w"].erase(j["maps"][1]["w"].begin()); }, "maps[1].w: not 7"},
      {"a huge weight", [](json& j) { j["maps"][2]["w"][3] = 1e9; }, "maps[2].w[3]"},
      {"a decreasing map", [](json& j) { j["maps"][0]["w"][1] = -1; }, "reorder actions"},
      {"other features", [](json& j) { j["features"][2] = "turns"; }, "features: must be"},
      {"no positions", [](json& j) { j.erase("positions"); }, "positions"},
      {"other rules", [](json& j) { j["rules"] = "line-min=3,penk-lines=columns"; }, "rules"},
      {"a net in expert's file", [](json& j) { j["net"] = "0123456789abcdef"; }, "only the neural figure"},
  };
  for (const Damage& d : damages) {
    json j = good;
    d.edit(j);
    ExpectRefused(kCalibrationFile, j.dump(), d, [](const std::string& t) {
      return ParseCalibrationData(t, kCalibrationFile).status();
    });
  }
  // The neural figure's file also maps its expected score (issue 21).
  const json neural = json::parse(Committed(kNeuralCalibrationFile));
  ASSERT_TRUE(neural.contains("score_maps"));
  const Damage score_damages[] = {
      {"a decreasing score map", [](json& j) { j["score_maps"][1]["w"][1] = -0.5; }, "the map decreases in u"},
      {"five score weights", [](json& j) { j["score_maps"][0]["w"].erase(j["score_maps"][0]["w"].begin()); },
       "score_maps[0].w: not 7"},
      {"other score features", [](json& j) { j["score_features"][1] = "x"; }, "score_features: must be"},
      {"no score positions", [](json& j) { j.erase("score_positions"); }, "score_positions"},
      {"score maps without their names", [](json& j) { j.erase("score_features"); }, "score_features"},
      {"expert's figure with a score map", [](json& j) { j["estimate"] = "expert"; }, "only the neural figure"},
      {"no net", [](json& j) { j.erase("net"); }, "net: missing"},
      {"a net of 15 digits", [](json& j) { j["net"] = "0123456789abcde"; }, "16 hex digits"},
      {"a net that is not hex", [](json& j) { j["net"] = "0123456789abcdeg"; }, "16 hex digits"},
  };
  for (const Damage& d : score_damages) {
    json j = neural;
    d.edit(j);
    ExpectRefused(kNeuralCalibrationFile, j.dump(), d, [](const std::string& t) {
      return ParseCalibrationData(t, kNeuralCalibrationFile).status();
    });
  }
}

// The neural figure's maps were fitted for the net built into the program:
// a new net without a new fit would show the old net's corrections.
TEST(MeasuredData, NeuralMapsAreFittedForTheBuiltInNet) {
  absl::StatusOr<CalibrationData> d =
      ParseCalibrationData(Committed(kNeuralCalibrationFile), kNeuralCalibrationFile);
  ASSERT_TRUE(d.ok()) << d.status();
  absl::StatusOr<std::shared_ptr<const NeuralNet>> net = BuiltInNeuralNet();
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(d->net_checksum, (*net)->checksum())
      << kNeuralCalibrationFile << " was fitted for another net than " << kNeuralNetFile
      << ": refit it (docs/AI.md: penk calibrate ... --json, then penk data calibration --estimate neural)";
}

// `penk data` writes both files from short recorded runs; the files written
// pass the program's check and carry the runs' commands, seeds and games.
TEST(MeasuredData, PenkDataWritesFilesFromRecordedRuns) {
  using testing_support::RunPenkShell;
  testing_support::ScratchDir dir("measured_data");
  const std::string d = dir.path();
  const char* matches[][2] = {{"greedy", "random"}, {"greedy", "solitaire"}, {"expert", "greedy"},
                              {"neural", "greedy"}, {"master", "greedy"}};
  std::string runs;
  for (const auto& m : matches) {
    const std::string run = absl::StrCat(d, "/", m[0], "-", m[1], ".json");
    const testing_support::PenkRun r = RunPenkShell(
        absl::StrCat("match ", m[0], " ", m[1], " --games 2 --seed 5 --json > ", run));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    runs += " " + run;
  }
  const std::string ladder = d + "/ladder.json";
  testing_support::PenkRun w =
      RunPenkShell(absl::StrCat("data ladder --out ", ladder, " --date 2027-01-02", runs));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  absl::StatusOr<Ladder> l = ParseLadder(ReadFile(ladder), ladder, LevelNames());
  ASSERT_TRUE(l.ok()) << l.status();
  const LadderLevel* master = l->Find("master");
  ASSERT_NE(master, nullptr);
  EXPECT_EQ(master->source.command, "penk match master greedy --games 2 --seed 5 --json");
  EXPECT_EQ(master->source.date, "2027-01-02");
  EXPECT_EQ(master->source.games, 2);
  // greedy first: the level's Elo is the other side of the recorded one.
  const json solitaire_run = json::parse(ReadFile(d + "/greedy-solitaire.json"));
  EXPECT_DOUBLE_EQ(l->Find("solitaire")->elo, -solitaire_run["elo"].get<double>());
  // A ladder short of a level is not written.
  w = RunPenkShell(absl::StrCat("data ladder --out ", d, "/short.json ", d, "/expert-greedy.json"));
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find("no entry for \"random\""), std::string::npos) << w.err;
  EXPECT_FALSE(std::filesystem::exists(d + "/short.json"));
  // --keep: one level measured again, the others' entries kept with their sources.
  const std::string again = d + "/again.json";
  ASSERT_EQ(RunPenkShell(absl::StrCat("match neural greedy --games 4 --seed 9 --json > ", again)).exit_code, 0);
  w = RunPenkShell(absl::StrCat("data ladder --out ", d, "/kept.json --keep ", ladder, " --date 2027-02-03 ", again));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  absl::StatusOr<Ladder> kept = ParseLadder(ReadFile(d + "/kept.json"), "kept.json", LevelNames());
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->Find("neural")->source.command, "penk match neural greedy --games 4 --seed 9 --json");
  EXPECT_EQ(kept->Find("master")->source.command, master->source.command);
  EXPECT_EQ(kept->Find("master")->source.date, "2027-01-02");
  EXPECT_EQ(kept->Find("expert")->elo, l->Find("expert")->elo);

  // The calibration map from a short run of every line-up of the fit (1,200
  // games, about 1 s); four games fit weights the check refuses, and
  // nothing is written.
  const std::string lineups =
      "expert,expert expert,greedy expert,expert,expert expert,greedy,greedy "
      "expert,expert,expert,expert expert,greedy,greedy,greedy";
  const std::string run = d + "/calibrate.json", map = d + "/calibration.json";
  testing_support::PenkRun r = RunPenkShell(absl::StrCat(
      "calibrate --players ", lineups, " --games 1200 --seed 3 --threads 2 --json > ", run));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  w = RunPenkShell(absl::StrCat("data calibration --out ", map, " ", run));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  absl::StatusOr<CalibrationData> c = ParseCalibrationData(ReadFile(map), map);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->source.command,
            absl::StrCat("penk calibrate --players ", lineups, " --games 1200 --seed 3 --json"));
  EXPECT_EQ(c->source.seed, 3u);
  EXPECT_EQ(c->source.games, 1200);
  const json recorded = json::parse(ReadFile(run));
  EXPECT_EQ(c->positions, recorded["raw"]["positions"].get<int64_t>());
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < kCalibrationFeatures; ++i)
      EXPECT_EQ(c->maps[p].w[i], recorded["fit"][p]["w"][i].get<double>()) << p << " " << i;
  const std::string tiny = d + "/tiny.json", refused = d + "/refused.json";
  ASSERT_EQ(RunPenkShell(absl::StrCat("calibrate --players expert,greedy --games 4 --seed 3 --json > ", tiny))
                .exit_code, 0);
  w = RunPenkShell(absl::StrCat("data calibration --out ", refused, " ", tiny));
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find(tiny + ": fit["), std::string::npos) << w.err;
  EXPECT_FALSE(std::filesystem::exists(refused));

  // The neural figure's map (issue 21) from the same run: its neural_fit,
  // marked as the neural figure's; the expert map is not one.
  const std::string neural_map = d + "/neural_calibration.json";
  w = RunPenkShell(absl::StrCat("data calibration --estimate neural --out ", neural_map, " ", run));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  absl::StatusOr<CalibrationData> n = ParseCalibrationData(ReadFile(neural_map), neural_map);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(n->estimate, CalibratedEstimate::kNeural);
  EXPECT_EQ(c->estimate, CalibratedEstimate::kExpert);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < kCalibrationFeatures; ++i)
      EXPECT_EQ(n->maps[p].w[i], recorded["neural_fit"][p]["w"][i].get<double>()) << p << " " << i;
  // And its score map, fitted on the markings of the run.
  EXPECT_EQ(n->score_positions, recorded["neural_score_fit_positions"].get<int64_t>());
  EXPECT_GT(n->score_positions, 1000);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < kScoreMapFeatures; ++i)
      EXPECT_EQ(n->score_maps[p].w[i], recorded["neural_score_fit"][p]["w"][i].get<double>()) << p << " " << i;
  w = RunPenkShell(absl::StrCat("data calibration --estimate other --out ", refused, " ", run));
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find("--estimate must be expert or neural"), std::string::npos) << w.err;
}

}  // namespace
}  // namespace penk
