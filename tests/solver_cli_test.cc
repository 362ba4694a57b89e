// `penk tables build`, `penk value` and `penk hint` end to end, on a small
// endgame table built through the CLI itself.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/score.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/penk_process.h"
#include "tests/shared_tables.h"
#include "solver/advisor.h"
#include "solver/distribution.h"
#include "solver/score_spread.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"

namespace penk {
namespace {

using Outcome = ::penk::testing_support::PenkRun;

Outcome Penk(const std::string& args) { return ::penk::testing_support::RunPenkShell(args); }

std::vector<std::string> Lines(const std::string& s) { return ::penk::testing_support::SplitLines(s); }

class SolverCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(
        (std::filesystem::temp_directory_path() / ("penk_solver_cli_" + std::to_string(getpid())))
            .string());
    std::filesystem::create_directories(*dir_);
    // Built by the CLI once per ctest run (tests/shared_tables.h), with its
    // spread table beside it; by every process when run by hand.
    const std::string shared = testing_support::SharedTableFolder();
    table_path_ = new std::string((shared.empty() ? *dir_ : shared) + "/" +
                                  (shared.empty() ? "t8" : "cli_t8") + ".penktable");
    if (!ReadTable(*table_path_, Rules{}).ok() ||
        !ReadSpreadTable(SpreadPathFor(*table_path_), Rules{}, 0).ok()) {
      Outcome r = Penk(absl::StrCat("tables build --max-free 8 --out ", *table_path_));
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    table_ = new SolitaireTable(*ReadTable(*table_path_, Rules{}));
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(*dir_); }
  static std::string T() { return " --table " + *table_path_; }

  static std::string* dir_;
  static std::string* table_path_;
  static SolitaireTable* table_;
};
std::string* SolverCliTest::dir_;
std::string* SolverCliTest::table_path_;
SolitaireTable* SolverCliTest::table_;

constexpr char kSheet[] = "o.o.o/.oooo/oo.oo/oooo./oo.oo";  // 6 free cells

TEST_F(SolverCliTest, ValuePrintsSixDecimals) {
  Outcome r = Penk(absl::StrCat("value --sheet ", kSheet, T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).back(),
            absl::StrFormat("value: %.6f", *table_->Value(*ParseSheet(kSheet))));
}

// The sd line comes before the value line, which stays last; it is the exact
// distribution's sd.
TEST_F(SolverCliTest, ValuePrintsTheSdBeforeTheValue) {
  Outcome r = Penk(absl::StrCat("value --sheet ", kSheet, T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 2u);
  const ScoreDistribution d = *OptimalScoreDistribution(*table_, *ParseSheet(kSheet));
  EXPECT_GT(d.StdDev(), 1.0);
  EXPECT_EQ(lines[lines.size() - 2], absl::StrFormat("sd: %.6f", d.StdDev()));
  r = Penk("value --sheet xo.../xo.../xo.../oo.../xo..." + T());  // finished: certain
  ASSERT_EQ(r.exit_code, 0) << r.err;
  lines = Lines(r.out);
  EXPECT_EQ(lines[lines.size() - 2], "sd: 0.000000");
}

TEST_F(SolverCliTest, FinishedSheetValueIsItsScore) {
  Outcome r = Penk("value --sheet xo.../xo.../xo.../oo.../xo..." + T());  // E5
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).back(), "value: 19.000000");  // column 2 full: 1+2+3+5+8
  r = Penk("value --sheet oooox/oooox/ooooo/xxxxx/xxxxx" + T());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // rows 1-3: 4*1 + 4*2 + 5*3; columns 1-4: 1+2+3 each, column 5: row 3 only.
  EXPECT_EQ(Lines(r.out).back(), absl::StrFormat("value: %.6f", 4 + 8 + 15 + 4 * 6.0));
}

TEST_F(SolverCliTest, HintJsonListsEveryKeepBestFirst) {
  Outcome r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 1133J5 --rerolls 2 --json", T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<RankedAction> ranked =
      *RankActions(*table_, *ParseSheet(kSheet), *ParseRoll("11335J"), 2);
  // Each action's sd: the spread table `tables build` wrote beside the table.
  const SpreadTable spreads = *ReadSpreadTable(SpreadPathFor(*table_path_), Rules{}, 0);
  const std::vector<double> sd =
      *ActionSds(*table_, spreads, *ParseSheet(kSheet), *ParseRoll("11335J"), 2, ranked);
  // The answer's fields in the documented order, every number to 6 decimals.
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"sheet", "roll", "rerolls", "count", "actions"}));
  EXPECT_EQ(j["sheet"], kSheet);
  EXPECT_EQ(j["roll"], "11335J");
  EXPECT_EQ(j["rerolls"], 2);
  EXPECT_EQ(j["count"], ranked.size());
  ASSERT_EQ(j["actions"].size(), ranked.size());
  for (size_t i = 0; i < ranked.size(); ++i) {
    const auto& a = j["actions"][i];
    EXPECT_EQ(a["action"], FormatAction(ranked[i].action)) << i;
    EXPECT_NEAR(a["value"].get<double>(), ranked[i].value, 5e-7) << i;
    EXPECT_NEAR(a["sd"].get<double>(), sd[i], 5e-7) << i;
    EXPECT_EQ(a.size(), 3u) << a.dump();
  }
  // Every distinct keep of 11335J: (2+1)*(2+1)*2*2 = 36.
  EXPECT_EQ(ranked.size(), 36u);
}

TEST_F(SolverCliTest, HintTopLimitsTheTable) {
  Outcome r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 11335J --top 3", T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;  // position, header, 3 keeps, "(33 more ...)"
  EXPECT_NE(lines[1].find("keep"), std::string::npos);
  EXPECT_NE(lines[2].find("0.000000"), std::string::npos);  // the best loses nothing
  EXPECT_NE(lines[5].find("33 more"), std::string::npos);
  r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 11335J --top 2 --json", T()));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '{'), 3);
}

// Issue 22: "11335J (stop)" is wider than the other keeps; the columns stay
// in line (the header and every row end at the same column).
TEST_F(SolverCliTest, HintTableColumnsStayInLine) {
  Outcome r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 11335J", T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 38u) << r.out;  // position, header, 36 keeps
  bool stop_seen = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].size(), lines[1].size()) << lines[i];
    stop_seen |= lines[i].find("(stop)") != std::string::npos;
  }
  EXPECT_TRUE(stop_seen) << r.out;
}

TEST_F(SolverCliTest, HintWithoutRerollsRanksMarkingsOrFailures) {
  Outcome r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 11335J --rerolls 0 --json", T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t markings = LegalMarkings(*ParseSheet(kSheet), *ParseRoll("11335J")).size();
  ASSERT_GT(markings, 0u);
  EXPECT_EQ(static_cast<size_t>(std::count(r.out.begin(), r.out.end(), '{')), markings + 1);
  // Six jollies form no group (R3.1): a failure (R3.5).
  r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll JJJJJJ --rerolls 0", T()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("fail:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("failure"), std::string::npos) << r.out;
}

// The target objective end to end (issue 13): a table built for P(score >=
// X), its value, its hint, and the exact distribution of its policy, which
// must give the same probability by forward propagation (an independent
// computation) and at least the expected-score policy's.
TEST_F(SolverCliTest, TargetObjectiveValueHintAndDistributionAgree) {
  const Sheet sheet = *ParseSheet(kSheet);
  Sheet full = sheet;
  full.circled |= sheet.free();
  const int target = (Score(sheet, Rules{}) + Score(full, Rules{})) / 2;
  const std::string objective = absl::StrCat("target=", target);
  const std::string path = *dir_ + "/t8_target.penktable";
  Outcome r = Penk(absl::StrCat("tables build --max-free 8 --objective ", objective, " --out ", path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("objective: " + objective), std::string::npos) << r.out;
  absl::StatusOr<SolitaireTable> table = ReadTable(path, Rules{}, 0, Objective{target});
  ASSERT_TRUE(table.ok()) << table.status();
  const double p = *table->Value(sheet);
  ASSERT_GT(p, 0.0);
  ASSERT_LT(p, 1.0);

  r = Penk(absl::StrCat("value --sheet ", kSheet, " --objective ", objective, " --table ", path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).back(), absl::StrFormat("value: %.6f", p));
  // The expected-score table is refused for a target, and the reverse.
  r = Penk(absl::StrCat("value --sheet ", kSheet, " --objective ", objective, T()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("it is for objective mean, not " + objective), std::string::npos) << r.err;
  r = Penk(absl::StrCat("value --sheet ", kSheet, " --table ", path));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("pass --objective " + objective), std::string::npos) << r.err;

  r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 1133J5 --json --objective ", objective,
                        " --table ", path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<RankedAction> ranked = *RankActions(*table, sheet, *ParseRoll("11335J"), 2);
  const nlohmann::ordered_json hint = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(hint["objective"], objective);
  EXPECT_EQ(hint["actions"][0]["action"], FormatAction(ranked[0].action)) << r.out;
  EXPECT_NEAR(hint["actions"][0]["value"].get<double>(), ranked[0].value, 5e-7) << r.out;

  r = Penk(absl::StrCat("distribution --sheet ", kSheet, " --policy ", objective,
                        " --compare optimal --table ", path, " --compare-table ", *table_path_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  double by_target = -1, by_mean = -1;
  const std::string prefix = absl::StrCat("P(score >= ", target, "): ", objective, " ");
  for (const std::string& line : Lines(r.out))
    if (line.rfind(prefix, 0) == 0) {
      ASSERT_EQ(std::sscanf(line.c_str() + prefix.size(), "%lf, optimal %lf", &by_target, &by_mean), 2)
          << line;
    }
  ASSERT_GE(by_target, 0) << r.out;
  EXPECT_NEAR(by_target, p, 1e-6);
  EXPECT_LE(by_mean, by_target + 1e-9) << "the target policy maximises P(score >= X)";
}

// A target hint's `mean` (issue 13, item 3) end to end: every action has a
// mean and an sd; the best marking's mean is the expected final score of
// `penk distribution --policy target=X` from the sheet it leads to (forward
// propagation, another code path), and `penk value`'s mean is the
// distribution's from the sheet itself. `tables build` writes the mean and
// spread tables beside the target table.
TEST_F(SolverCliTest, TargetHintMeansAreTheTargetPolicysDistribution) {
  const Sheet sheet = *ParseSheet(kSheet);
  Sheet full = sheet;
  full.circled |= sheet.free();
  const int target = (Score(sheet, Rules{}) + Score(full, Rules{})) / 2;
  const std::string objective = absl::StrCat("target=", target);
  const std::string path = *dir_ + "/t8_mean_target.penktable";
  Outcome r = Penk(absl::StrCat("tables build --max-free 8 --objective ", objective, " --out ", path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("mean table: " + MeanPathFor(path)), std::string::npos) << r.out;
  ASSERT_TRUE(std::filesystem::exists(MeanPathFor(path)));
  ASSERT_TRUE(std::filesystem::exists(SpreadPathFor(path)));
  const std::string table = absl::StrCat(" --objective ", objective, " --table ", path);

  // The mean of the final score from a sheet under the target policy.
  auto distribution_mean = [&](const Sheet& s) {
    Outcome d = Penk(absl::StrCat("distribution --json --sheet ", FormatSheet(s), " --policy ",
                                  objective, " --table ", path));
    EXPECT_EQ(d.exit_code, 0) << d.err;
    double mean = -1;
    const size_t at = d.out.find(R"("mean":)");
    if (at != std::string::npos) std::sscanf(d.out.c_str() + at + 7, "%lf", &mean);
    return mean;
  };

  r = Penk(absl::StrCat("value --sheet ", kSheet, table));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  double value_mean = -1;
  for (const std::string& line : Lines(r.out)) std::sscanf(line.c_str(), "mean: %lf", &value_mean);
  EXPECT_NEAR(value_mean, distribution_mean(sheet), 1e-6) << r.out;

  const std::regex action(
      R"re(\{"action":"([^"]+)","value":([0-9.]+),"mean":([0-9.]+),"sd":([0-9.]+)\})re");
  for (int rerolls : {0, 2}) {
    SCOPED_TRACE(rerolls);
    r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 11335J --json --rerolls ", rerolls, table));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::smatch> found;
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), action), end; it != end; ++it)
      found.push_back(*it);
    const size_t actions = static_cast<size_t>(std::count(r.out.begin(), r.out.end(), '{')) - 1;
    ASSERT_EQ(found.size(), actions) << "every action has value, mean and sd: " << r.out;
    ASSERT_GT(actions, 1u);
    if (rerolls != 0) continue;
    // The best marking's mean is the distribution's after it.
    const SolitaireTable t = *ReadTable(path, Rules{}, 0, Objective{target});
    Sheet after = sheet;
    bool known = false;
    const std::vector<RankedAction> ranked = *RankActions(t, sheet, *ParseRoll("11335J"), 0);
    for (const RankedAction& a : ranked)
      if (a.action.kind == Action::kMark && FormatAction(a.action) == found[0][1].str()) {
        after.circled |= a.action.cells;
        known = true;
      }
    ASSERT_TRUE(known) << found[0][1].str();
    const double mean = std::stod(found[0][3].str());
    if (after.ClosedColumns() >= 2)
      EXPECT_NEAR(mean, Score(after, Rules{}), 1e-6);
    else
      EXPECT_NEAR(mean, distribution_mean(after), 1e-6) << FormatSheet(after);
  }
  // The text table has the mean column.
  r = Penk(absl::StrCat("hint --sheet ", kSheet, " --roll 11335J", table));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(" mean "), std::string::npos) << r.out;
}

TEST_F(SolverCliTest, RefusalsAreOneLine) {
  struct Case {
    std::string args, says;
  } cases[] = {
      {"value --sheet xo.../xo.../xo.../oo.../xo... --rules line-min=2" + T(),
       "it is for rules line-min=3"},
      {"hint --roll 11335J --sheet xo.../xo.../xo.../oo.../xo..." + T(), "the game is over"},
      {"hint --roll 11335J" + T(), "at most 8 free cells"},
      {"value --sheet ...../...../...../...../....." + T(), "at most 8 free cells"},
      {"value --sheet oo.x./...../...../...../....." + T(), "cannot arise"},
      {"tables build --max-free 30 --out /tmp/x", "max-free"},
      {"tables build --blocked-rows 17 --out /tmp/x", "blocked-rows"},
  };
  for (const Case& c : cases) {
    Outcome r = Penk(c.args);
    SCOPED_TRACE(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  // The refused table is still there, unchanged.
  EXPECT_TRUE(ReadTable(*table_path_, Rules{}).ok());
}

// Issue 24: a partial table is never written to the default path, which
// every door and player reads as the whole game's values.
TEST_F(SolverCliTest, APartialTableIsNeverWrittenToTheDefaultPath) {
  const std::string folder = *dir_ + "/defaults";
  ::setenv("PENK_TABLE_DIR", folder.c_str(), 1);
  Outcome r = Penk("tables build --max-free 6");
  ::unsetenv("PENK_TABLE_DIR");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("--max-free 6 makes a partial table"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--out FILE"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(folder)) << "nothing may be written";
}

// Issue 24 item 4: a partial table (`--max-free N --out F`) copied under the
// default file name is refused there, naming the file, saying it is partial
// and what to do, and is left as it was (not rebuilt over); named as a file
// of its own it answers. Breaking the check in LoadOrBuildDefaultTable makes
// this fail (the value is served, or the file rebuilt).
TEST_F(SolverCliTest, APartialTableAtTheDefaultPathIsRefused) {
  const std::string folder = *dir_ + "/default_folder";
  std::filesystem::create_directories(folder);
  const std::string path = folder + "/solitaire_line-min=3_penk-lines=all.penktable";
  std::filesystem::copy_file(*table_path_, path, std::filesystem::copy_options::overwrite_existing);
  const auto size = std::filesystem::file_size(path);
  Outcome r = ::penk::testing_support::RunPenkShell(absl::StrCat("value --sheet ", kSheet), "",
                                                    "PENK_TABLE_DIR=" + folder);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find(path + " is a partial table (positions with at most 8 free cells)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("remove it so penk builds the full one"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--table"), std::string::npos) << r.err;
  EXPECT_EQ(std::filesystem::file_size(path), size);
  EXPECT_EQ(Penk(absl::StrCat("value --sheet ", kSheet, " --table ", path)).exit_code, 0);
}

}  // namespace
}  // namespace penk
