// The `penk` command line: rules-engine commands and bad input (R6, R3, R7).
//
// Runs the real binary. Bad input must give a non-zero exit (never a crash)
// and exactly one line on stderr naming what was wrong. Commands that need a
// solver table (hint, value) are only given input that is refused before any
// table is loaded, with PENK_TABLE_DIR pointing at a fresh empty directory.
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/penk_process.h"

namespace {

namespace fs = std::filesystem;

constexpr char kE3[] = "ooo.o/..o.x/....x/..o.x/....x";

using ::penk::testing_support::PenkRun;
using Result = PenkRun;

std::vector<std::string> Lines(const std::string& text) { return ::penk::testing_support::SplitLines(text); }

std::string Join(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    if (!s.empty()) s += ' ';
    s += a;
  }
  return s;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/penk_cli_test_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    tmp_ = dir;
    table_dir_ = tmp_ / "tables";
    fs::create_directories(table_dir_);
    // No table is ever built by accident: none of these inputs gets that far.
    ASSERT_EQ(setenv("PENK_TABLE_DIR", table_dir_.c_str(), 1), 0);
  }
  void TearDown() override {
    EXPECT_TRUE(fs::is_empty(table_dir_)) << "a command wrote a table into PENK_TABLE_DIR";
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }

  Result Run(const std::vector<std::string>& args) { return ::penk::testing_support::RunPenk(args); }

  // Bad input: non-zero exit, no crash, nothing on stdout, one line on stderr
  // that contains `must_contain`.
  void ExpectBadInput(const std::vector<std::string>& args, const std::string& must_contain) {
    SCOPED_TRACE("penk " + Join(args));
    Result r = Run(args);
    ASSERT_TRUE(r.exited) << "penk was killed by a signal (crash)";
    EXPECT_NE(r.exit_code, 0);
    EXPECT_LT(r.exit_code, 128) << "exit code looks like a signal";
    EXPECT_EQ(r.out, "") << "nothing on stdout for bad input";
    std::vector<std::string> lines = Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << "exactly one line on stderr; got:\n" << r.err;
    EXPECT_FALSE(lines[0].empty());
    EXPECT_EQ(r.err.back(), '\n');
    EXPECT_NE(lines[0].find(must_contain), std::string::npos)
        << "stderr should name \"" << must_contain << "\": " << lines[0];
  }

  fs::path GarbageTable() {
    fs::path p = tmp_ / "garbage.penktable";
    std::ofstream(p) << "this is not a table\n";
    return p;
  }

  fs::path tmp_, table_dir_;
};

// E3 through `penk score`.
TEST_F(CliTest, ScoreExampleE3) {
  Result r = Run({"score", kE3});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "total: 12");
}

// The breakdown as JSON, with the names of the engine's state.
TEST_F(CliTest, ScoreJson) {
  Result r = Run({"score", kE3, "--json"});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"sheet\":\"ooo.o/..o.x/....x/..o.x/....x\",\"rules\":\"line-min=3,penk-lines=all\","
            "\"score\":12,\"row_scores\":[4,0,0,0,0],\"column_scores\":[0,0,8,0,0],"
            "\"closed_columns\":[5]}\n");
}

// R6.5 through --rules: E3 at line-min=1 scores 22 (rows 11 + columns 11).
TEST_F(CliTest, ScoreWithRules) {
  Result r = Run({"score", kE3, "--rules", "line-min=1"});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "total: 22");
  r = Run({"score", "ooooo/ooooo/ooooo/ooooo/ooooo"});
  lines = Lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "total: 190");
}

// E1/E2b through `penk moves`.
TEST_F(CliTest, MovesExampleE1) {
  for (const char* roll : {"3335JJ", "J3J533", "3335jj", "3,3,3,5,!,6"}) {
    Result r = Run({"moves", "--roll", roll});
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 0) << roll << ": " << r.err;
    EXPECT_EQ(r.err, "");
    std::vector<std::string> lines = Lines(r.out);
    EXPECT_EQ(lines.size(), 22u) << roll << "\n" << r.out;
    auto has = [&](const std::string& s) {
      return std::find(lines.begin(), lines.end(), s) != lines.end();
    };
    EXPECT_TRUE(has("3:4+5:2")) << roll;
    EXPECT_TRUE(has("3:1+3:2+5:2")) << roll;
    EXPECT_FALSE(has("3:5")) << roll;
    EXPECT_FALSE(has("fail:1")) << roll;
  }
  Result r = Run({"moves", "--roll", "12345J"});
  EXPECT_EQ(Lines(r.out).size(), 80u);
  r = Run({"moves", "--roll", "333333"});
  EXPECT_EQ(Lines(r.out).size(), 12u);
}

// R3.5: no legal marking -> the failure choices.
TEST_F(CliTest, MovesWithoutMarkingPrintsFailures) {
  Result r = Run({"moves", "--roll", "111111", "--sheet", "x..../x..../o..../x..../x...."});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out), (std::vector<std::string>{"fail:2", "fail:3", "fail:4", "fail:5"}));
  r = Run({"moves", "--roll", "JJJJJJ"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out),
            (std::vector<std::string>{"fail:1", "fail:2", "fail:3", "fail:4", "fail:5"}));
}

TEST_F(CliTest, BadRolls) {
  ExpectBadInput({"moves", "--roll", "1137"}, "1137");
  ExpectBadInput({"moves", "--roll", "1111111"}, "1111111");
  ExpectBadInput({"moves", "--roll", "11335JJ"}, "11335JJ");
  ExpectBadInput({"moves", "--roll", "11a35J"}, "11a35J");
  ExpectBadInput({"moves", "--roll", ""}, "roll");
  ExpectBadInput({"moves", "--roll", "-"}, "roll");
}

TEST_F(CliTest, BadSheets) {
  ExpectBadInput({"score", "ooo.o/..o.x/....x/..o.x/....q"}, "ooo.o/..o.x/....x/..o.x/....q");
  ExpectBadInput({"score", "ooo.o/..o.x/....x/..o.x"}, "ooo.o/..o.x/....x/..o.x");
  ExpectBadInput({"score", "ooo.o/..o.x/....x/..o.x/....x/....."}, "....x/.....");
  ExpectBadInput({"moves", "--roll", "11335J", "--sheet", "ooo.o/..o.x"}, "ooo.o/..o.x");
}

TEST_F(CliTest, BadRules) {
  ExpectBadInput({"score", kE3, "--rules", "line-min=9"}, "line-min=9");
  ExpectBadInput({"score", kE3, "--rules", "line-min=0"}, "line-min=0");
  ExpectBadInput({"score", kE3, "--rules", "penk-lines=diagonal"}, "penk-lines=diagonal");
  ExpectBadInput({"tables", "build", "--rules", "line-min=9"}, "line-min=9");
}

// The message names the unknown word, not only "a subcommand is required".
TEST_F(CliTest, UnknownSubcommandIsNamed) {
  ExpectBadInput({"frobnicate"}, "frobnicate");
  ExpectBadInput({"scores", kE3}, "scores");
}

TEST_F(CliTest, BadCommandLines) {
  ExpectBadInput({}, "subcommand");
  ExpectBadInput({"tables"}, "subcommand");
  ExpectBadInput({"moves"}, "--roll");
  ExpectBadInput({"moves", "--roll"}, "--roll");
  ExpectBadInput({"score"}, "sheet");
  ExpectBadInput({"score", kE3, "extra"}, "extra");
  ExpectBadInput({"moves", "--roll", "3335JJ", "--bogus"}, "--bogus");
}

// hint/value: errors found before the table is loaded. PENK_TABLE_DIR is
// empty and must stay so (checked in TearDown).
TEST_F(CliTest, HintBadInputBeforeTheTable) {
  ExpectBadInput({"hint", "--roll", "1137"}, "1137");
  ExpectBadInput({"hint", "--roll", "1111111"}, "1111111");
  ExpectBadInput({"hint"}, "--roll");
  ExpectBadInput({"hint", "--roll", "333333", "--sheet", "ooooo/xx"}, "ooooo/xx");
  ExpectBadInput({"hint", "--roll", "333333", "--rules", "line-min=9"}, "line-min=9");
  ExpectBadInput({"hint", "--roll", "333333", "--rules", "penk-lines=diagonal"},
                 "penk-lines=diagonal");
  ExpectBadInput({"hint", "--roll", "333333", "--rerolls", "abc"}, "abc");
  ExpectBadInput({"hint", "--roll", "333333", "--top", "-1"}, "top");
}

// R2.2: at most two rerolls. The check must not depend on the table: the
// --table given is garbage, so a command that loads it first fails on the
// table instead of naming --rerolls.
TEST_F(CliTest, HintBadRerolls) {
  const std::string garbage = GarbageTable().string();
  ExpectBadInput({"hint", "--roll", "333333", "--rerolls", "3", "--table", garbage}, "rerolls");
  ExpectBadInput({"hint", "--roll", "333333", "--rerolls", "-1", "--table", garbage}, "rerolls");
}

TEST_F(CliTest, ValueBadInputBeforeTheTable) {
  ExpectBadInput({"value", "--sheet", "ooooo/xx"}, "ooooo/xx");
  ExpectBadInput({"value", "--sheet", "ooo.o/..o.x/....x/..o.x/....x/"}, "....x/");
  ExpectBadInput({"value", "--rules", "line-min=9"}, "line-min=9");
  ExpectBadInput({"value", "--rules", "penk-lines=diagonal"}, "penk-lines=diagonal");
}

}  // namespace
