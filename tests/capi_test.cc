// libpenk's C API (capi/penk.h): every entry point, its errors and buffer
// rules. Uses only the C header against libpenk.so, except to build the
// small test table (positions with at most 6 free cells) and to run the
// `penk` binary for comparisons.
#include "penk.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "solver/advisor.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tests/completed_tables.h"

namespace {

using json = nlohmann::json;

constexpr char kSmallSheet[] = "ooooo/o.ooo/oo.oo/ooo.o/oooo.";

std::string SmallTable() {
  const std::string path = testing::TempDir() + "penk_capi_test_v" +
                           std::to_string(penk::kTableFormatVersion) + "_free6.penktable";
  if (!std::filesystem::exists(path)) {
    EXPECT_TRUE(penk::WriteTable(penk::BuildSolitaireTable(penk::Rules{}, 6), path).ok());
  }
  return path;
}

// A table folder with, under the default name, the small table completed
// beyond its 6 free cells by a synthetic estimate (tests/completed_tables.h;
// a partial table is refused there): it serves the context (hints, game
// values, expert's tables) and the CLI (PENK_TABLE_DIR) alike, and where the
// small table solves its values are the small table's. The caller removes it.
std::string SmallTableDir(const std::string& tag) {
  return penk::CompletedTableDir(testing::TempDir() + "penk_capi_test_" + tag, 6);
}

std::string RunPenk(const std::string& args) {
  std::string out;
  FILE* p = popen((std::string(PENK_BINARY) + " " + args + " 2>/dev/null").c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (p) pclose(p);
  return out;
}

std::string RunPenk(const std::string& env, const std::string& args) {
  std::string out;
  FILE* p = popen((env + " " + PENK_BINARY + " " + args + " 2>/dev/null").c_str(), "r");
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (p) pclose(p);
  return out;
}

class CApi : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(penk_context_create(testing::TempDir().c_str(), &ctx_), PENK_OK);
    ASSERT_EQ(penk_context_set_build(ctx_, 0), PENK_OK);  // never build a full table here
  }
  void TearDown() override { penk_context_destroy(ctx_); }
  penk_context* ctx_ = nullptr;
};

TEST(CApiInfo, VersionLevelsStatusNames) {
  EXPECT_STREQ(penk_version(), PENK_PROJECT_VERSION);  // project() in CMakeLists.txt
  EXPECT_EQ(penk_api_version(), PENK_API_VERSION);
  ASSERT_EQ(penk_level_count(), 6);  // hello's levels, aliases apart (issue 24), neural (21)
  EXPECT_STREQ(penk_level_name(0), "random");
  EXPECT_STREQ(penk_level_name(4), "neural");
  EXPECT_STREQ(penk_level_name(5), "master");  // the strongest (data/ladder.json)
  EXPECT_EQ(penk_level_name(-1), nullptr);
  EXPECT_EQ(penk_level_name(penk_level_count()), nullptr);
  EXPECT_STREQ(penk_status_name(PENK_OK), "ok");
  EXPECT_STREQ(penk_status_name(PENK_E_BAD_POSITION), "bad_position");
  EXPECT_STREQ(penk_status_name(PENK_E_BUFFER_TOO_SMALL), "buffer_too_small");
  EXPECT_STREQ(penk_status_name(PENK_E_CANCELLED), "cancelled");
  EXPECT_STREQ(penk_status_name(99), "unknown_status");
  // NULL handles are refused, never dereferenced; destroy(NULL) is a no-op.
  EXPECT_EQ(penk_context_create(nullptr, nullptr), PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("NULL"), std::string::npos);
  EXPECT_EQ(penk_context_set_build(nullptr, 1), PENK_E_BAD_ARGUMENT);
  penk_context_destroy(nullptr);
  penk_game_destroy(nullptr);
  EXPECT_EQ(penk_game_players(nullptr), -1);
  EXPECT_EQ(penk_game_current(nullptr), -1);
  EXPECT_EQ(penk_game_phase(nullptr), -1);
  EXPECT_EQ(penk_game_rerolls_left(nullptr), -1);
  EXPECT_EQ(penk_game_score(nullptr, 0), -1);
  // A context with the default table folder (tables/ beside libpenk.so).
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(nullptr, &ctx), PENK_OK);
  penk_context_destroy(ctx);
}

// API 3: the target objective (issue 13), values as probabilities; the
// ranking's first value is the position's value when the turn starts with
// the roll held (checked against the table itself).
TEST_F(CApi, ObjectiveValueAndHint) {
  const std::string table = testing::TempDir() + "penk_capi_test_v" +
                            std::to_string(penk::kTableFormatVersion) + "_free6_target60_" +
                            std::to_string(getpid()) + ".penktable";
  penk::SolitaireTable built =
      penk::BuildSolitaireTable(penk::Rules{}, 6, nullptr, 0, penk::Objective{163});
  ASSERT_TRUE(penk::WriteTable(built, table).ok());
  double v = -1;
  ASSERT_EQ(penk_value_objective(ctx_, kSmallSheet, nullptr, table.c_str(), "target=163", &v),
            PENK_OK)
      << penk_last_error();
  EXPECT_EQ(v, *built.Value(*penk::ParseSheet(kSmallSheet)));
  EXPECT_GT(v, 0.0);  // one turn left: 163 is reached by some rolls only
  EXPECT_LT(v, 1.0);
  penk_ranked_action actions[64];
  size_t count = 0;
  ASSERT_EQ(penk_hint_objective(ctx_, kSmallSheet, "12345J", 2, nullptr, table.c_str(),
                                "target=163", actions, 64, &count),
            PENK_OK)
      << penk_last_error();
  ASSERT_GT(count, 0u);
  std::vector<penk::RankedAction> ranked = *penk::RankActions(
      built, *penk::ParseSheet(kSmallSheet), *penk::ParseRoll("12345J"), 2);
  EXPECT_EQ(actions[0].value, ranked[0].value);
  // The default (NULL or "mean") reads only the expected-score table.
  EXPECT_EQ(penk_value_objective(ctx_, kSmallSheet, nullptr, table.c_str(), nullptr, &v),
            PENK_E_TABLE);
  EXPECT_NE(std::string(penk_last_error()).find("objective target=163"), std::string::npos);
  EXPECT_EQ(penk_value_objective(ctx_, kSmallSheet, nullptr, table.c_str(), "target=x", &v),
            PENK_E_BAD_ARGUMENT);
  // API 4: each action's mean (under the target policy) and sd, as `penk hint
  // --json`; the position's as `penk value`.
  penk_ranked_moments moments[64];
  ASSERT_EQ(penk_hint_moments(ctx_, kSmallSheet, "12345J", 2, nullptr, table.c_str(), "target=163",
                              moments, 64, &count),
            PENK_OK)
      << penk_last_error();
  const json cli = json::parse(RunPenk(std::string("hint --json --sheet ") + kSmallSheet +
                                       " --roll 12345J --objective target=163 --table " + table));
  ASSERT_EQ(count, cli["actions"].size());
  for (size_t i = 0; i < count; ++i) {
    EXPECT_EQ(std::string(moments[i].action), cli["actions"][i]["action"]);
    EXPECT_NEAR(moments[i].value, cli["actions"][i]["value"].get<double>(), 5e-7);
    EXPECT_NEAR(moments[i].mean, cli["actions"][i]["mean"].get<double>(), 5e-7);
    EXPECT_NEAR(moments[i].sd, cli["actions"][i]["sd"].get<double>(), 5e-7);
  }
  double mean = -1, sd = -1;
  ASSERT_EQ(penk_value_moments(ctx_, kSmallSheet, nullptr, table.c_str(), "target=163", &v, &mean,
                               &sd),
            PENK_OK)
      << penk_last_error();
  const std::string out = RunPenk(std::string("value --sheet ") + kSmallSheet +
                                  " --objective target=163 --table " + table);
  EXPECT_NE(out.find(absl::StrFormat("mean: %.6f", mean)), std::string::npos) << out;
  EXPECT_NE(out.find(absl::StrFormat("sd: %.6f", sd)), std::string::npos) << out;
  EXPECT_EQ(penk_value_moments(ctx_, kSmallSheet, nullptr, table.c_str(), "target=163", &v, nullptr,
                               &sd),
            PENK_E_BAD_ARGUMENT);
  std::filesystem::remove(table);
}

TEST_F(CApi, ValueMatchesPenkValue) {
  const std::string table = SmallTable();
  double v = 0;
  ASSERT_EQ(penk_value(ctx_, kSmallSheet, nullptr, table.c_str(), &v), PENK_OK) << penk_last_error();
  std::string out = RunPenk(std::string("value --sheet ") + kSmallSheet + " --table " + table);
  size_t at = out.find("value: ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NEAR(v, std::strtod(out.c_str() + at + 7, nullptr), 5e-7);
  // Errors.
  EXPECT_EQ(penk_value(nullptr, kSmallSheet, nullptr, table.c_str(), &v), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_value(ctx_, kSmallSheet, nullptr, table.c_str(), nullptr), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_value(ctx_, "bad", nullptr, table.c_str(), &v), PENK_E_BAD_POSITION);
  EXPECT_EQ(penk_value(ctx_, kSmallSheet, "line-min=7", table.c_str(), &v), PENK_E_BAD_POSITION);
  EXPECT_EQ(penk_value(ctx_, nullptr, nullptr, table.c_str(), &v), PENK_E_TABLE);  // not covered
  EXPECT_NE(std::string(penk_last_error()).find("free cells"), std::string::npos);
  EXPECT_EQ(penk_value(ctx_, kSmallSheet, nullptr, "/nonexistent.penktable", &v), PENK_E_TABLE);
  // Default table missing and building off.
  EXPECT_EQ(penk_value(ctx_, kSmallSheet, "line-min=5", nullptr, &v), PENK_E_TABLE);
}

TEST_F(CApi, HintMatchesPenkHintJson) {
  const std::string table = SmallTable();
  for (int rerolls : {2, 0}) {
    std::string cli_text = RunPenk(std::string("hint --json --sheet ") + kSmallSheet +
                                   " --roll 3335JJ --rerolls " + std::to_string(rerolls) +
                                   " --table " + table);
    json cli = json::parse(cli_text);
    // JSON: first ask the size, then fetch.
    size_t needed = 0;
    EXPECT_EQ(penk_hint_json(ctx_, kSmallSheet, "3335JJ", rerolls, nullptr, table.c_str(), nullptr,
                             0, &needed),
              PENK_E_BUFFER_TOO_SMALL);
    ASSERT_GT(needed, 0u);
    std::vector<char> buf(needed + 1);
    char tiny[4] = "abc";
    EXPECT_EQ(penk_hint_json(ctx_, kSmallSheet, "3335JJ", rerolls, nullptr, table.c_str(), tiny,
                             sizeof tiny, nullptr),
              PENK_E_BUFFER_TOO_SMALL);
    EXPECT_EQ(tiny[0], '\0');
    ASSERT_EQ(penk_hint_json(ctx_, kSmallSheet, "3335JJ", rerolls, nullptr, table.c_str(),
                             buf.data(), buf.size(), &needed),
              PENK_OK);
    EXPECT_EQ(std::strlen(buf.data()), needed);
    json mine = json::parse(buf.data());
    // Each action's sd (issue 13) too, as the CLI's.
    for (const json& a : mine["actions"]) EXPECT_TRUE(a.contains("sd")) << a;
    EXPECT_EQ(mine, cli);
    // Arrays: count first, then all of them, then a truncated best-first prefix.
    size_t count = 0;
    ASSERT_EQ(penk_hint(ctx_, kSmallSheet, "3335JJ", rerolls, nullptr, table.c_str(), nullptr, 0,
                        &count),
              PENK_OK);
    ASSERT_EQ(count, cli["actions"].size());
    std::vector<penk_ranked_action> actions(count);
    ASSERT_EQ(penk_hint(ctx_, kSmallSheet, "3335JJ", rerolls, nullptr, table.c_str(),
                        actions.data(), actions.size(), &count),
              PENK_OK);
    for (size_t i = 0; i < count; ++i) {
      EXPECT_EQ(actions[i].action, cli["actions"][i]["action"].get<std::string>());
      EXPECT_NEAR(actions[i].value, cli["actions"][i]["value"].get<double>(), 5e-7);
    }
    penk_ranked_action two[2];
    ASSERT_EQ(penk_hint(ctx_, kSmallSheet, "3335JJ", rerolls, nullptr, table.c_str(), two, 2,
                        &count),
              PENK_OK);
    EXPECT_EQ(count, actions.size());
    for (size_t i = 0; i < std::min<size_t>(2, count); ++i)
      EXPECT_STREQ(two[i].action, actions[i].action);
  }
}

TEST_F(CApi, HintErrors) {
  const std::string table = SmallTable();
  const char* t = table.c_str();
  size_t count;
  penk_ranked_action a[4];
  char buf[64];
  EXPECT_EQ(penk_hint(nullptr, kSmallSheet, "12345J", 2, nullptr, t, a, 4, &count), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint(ctx_, kSmallSheet, nullptr, 2, nullptr, t, a, 4, &count), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint(ctx_, kSmallSheet, "12345J", 2, nullptr, t, a, 4, nullptr), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint(ctx_, kSmallSheet, "12345J", 2, nullptr, t, nullptr, 4, &count),
            PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint(ctx_, kSmallSheet, "12345J", 3, nullptr, t, a, 4, &count), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint(ctx_, kSmallSheet, "1234", 2, nullptr, t, a, 4, &count), PENK_E_BAD_POSITION);
  EXPECT_EQ(penk_hint(ctx_, "ooooo/ooooo/ooooo/ooooo/ooooo", "12345J", 2, nullptr, t, a, 4, &count),
            PENK_E_BAD_POSITION);
  EXPECT_EQ(penk_hint(ctx_, nullptr, "12345J", 2, nullptr, t, a, 4, &count), PENK_E_TABLE);
  EXPECT_EQ(penk_hint_json(nullptr, kSmallSheet, "12345J", 2, nullptr, t, buf, sizeof buf, nullptr),
            PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint_json(ctx_, kSmallSheet, nullptr, 2, nullptr, t, buf, sizeof buf, nullptr),
            PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint_json(ctx_, kSmallSheet, "12345J", 2, nullptr, t, nullptr, 10, nullptr),
            PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint_json(ctx_, kSmallSheet, "12345J", 2, "x=1", t, buf, sizeof buf, nullptr),
            PENK_E_BAD_POSITION);
}

TEST_F(CApi, GameCreateApplyStateBestAction) {
  penk_game* g = nullptr;
  ASSERT_EQ(penk_game_create(ctx_, "human,greedy", nullptr, 7, &g), PENK_OK) << penk_last_error();
  EXPECT_EQ(penk_game_players(g), 2);
  EXPECT_EQ(penk_game_current(g), 0);
  EXPECT_EQ(penk_game_phase(g), PENK_PHASE_KEEP);
  EXPECT_EQ(penk_game_rerolls_left(g), 2);
  EXPECT_EQ(penk_game_score(g, 0), 0);
  EXPECT_EQ(penk_game_score(g, 2), -1);
  size_t needed = 0;
  EXPECT_EQ(penk_game_state_json(g, nullptr, 0, &needed), PENK_E_BUFFER_TOO_SMALL);
  std::vector<char> buf(needed + 1);
  ASSERT_EQ(penk_game_state_json(g, buf.data(), buf.size(), &needed), PENK_OK);
  json st = json::parse(buf.data());
  EXPECT_EQ(st["players"][1]["seat"], "greedy");
  EXPECT_EQ(st["phase"], "keep");
  // The same seed gives the same dice as the protocol's new_game (seed 7: 11335J).
  EXPECT_EQ(st["dice"], "11335J");

  // A human seat has no level; ask greedy for advice, without applying.
  char action[PENK_ACTION_SIZE];
  EXPECT_EQ(penk_game_best_action(g, nullptr, 0, action, sizeof action), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_best_action(g, "nobody", 0, action, sizeof action), PENK_E_UNKNOWN_LEVEL);
  ASSERT_EQ(penk_game_best_action(g, "greedy", 0, action, sizeof action), PENK_OK);
  EXPECT_EQ(penk_game_rerolls_left(g), 2);
  // Too small a buffer: nothing is applied.
  char one[1];
  EXPECT_EQ(penk_game_best_action(g, "greedy", 1, one, sizeof one), PENK_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(penk_game_rerolls_left(g), 2);
  EXPECT_EQ(penk_game_best_action(g, "greedy", 1, nullptr, 5), PENK_E_BAD_ARGUMENT);

  // Illegal actions change nothing.
  EXPECT_EQ(penk_game_apply(g, "5:5"), PENK_E_ILLEGAL_ACTION);
  EXPECT_EQ(penk_game_apply(g, nullptr), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_apply(nullptr, "stop"), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_rerolls_left(g), 2);
  ASSERT_EQ(penk_game_apply(g, "stop"), PENK_OK);
  EXPECT_EQ(penk_game_phase(g), PENK_PHASE_MARK);
  // Play to the end: every seat by the greedy or the random AI.
  int moves = 0;
  while (penk_game_phase(g) != PENK_PHASE_OVER) {
    ASSERT_LT(++moves, 3000);
    const char* level = penk_game_current(g) == 0 ? "random" : nullptr;  // seat 1: its own level
    ASSERT_EQ(penk_game_best_action(g, level, 1, action, sizeof action), PENK_OK)
        << penk_last_error();
  }
  EXPECT_EQ(penk_game_best_action(g, "greedy", 0, action, sizeof action), PENK_E_ILLEGAL_ACTION);
  EXPECT_EQ(penk_game_apply(g, "stop"), PENK_E_ILLEGAL_ACTION);
  ASSERT_EQ(penk_game_state_json(g, nullptr, 0, &needed), PENK_E_BUFFER_TOO_SMALL);
  buf.resize(needed + 1);
  ASSERT_EQ(penk_game_state_json(g, buf.data(), buf.size(), nullptr), PENK_OK);
  st = json::parse(buf.data());
  EXPECT_EQ(st["phase"], "over");
  EXPECT_FALSE(st["winners"].empty());
  penk_game_destroy(g);
}

TEST_F(CApi, GameCreateErrorsAndContextLifetime) {
  penk_game* g = reinterpret_cast<penk_game*>(1);
  EXPECT_EQ(penk_game_create(ctx_, "human,wizard", nullptr, 1, &g), PENK_E_UNKNOWN_LEVEL);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(penk_game_create(ctx_, "", nullptr, 1, &g), PENK_E_UNKNOWN_LEVEL);
  EXPECT_EQ(penk_game_create(ctx_, "human,human,human,human,human", nullptr, 1, &g),
            PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_create(ctx_, "human", "line-min=0", 1, &g), PENK_E_BAD_POSITION);
  EXPECT_EQ(penk_game_create(ctx_, nullptr, nullptr, 1, &g), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_create(nullptr, "human", nullptr, 1, &g), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_create(ctx_, "human", nullptr, 1, nullptr), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_state_json(nullptr, nullptr, 0, nullptr), PENK_E_BAD_ARGUMENT);
  // A game outlives its context.
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(nullptr, &ctx), PENK_OK);
  ASSERT_EQ(penk_game_create(ctx, "random", "penk-lines=columns", 3, &g), PENK_OK);
  penk_context_destroy(ctx);
  char action[PENK_ACTION_SIZE];
  EXPECT_EQ(penk_game_best_action(g, nullptr, 1, action, sizeof action), PENK_OK);
  penk_game_destroy(g);
}

TEST(CApiMultiplayer, HintMultiJsonMatchesPenkHintOpponent) {
  const std::string dir = SmallTableDir("mp");
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(dir.c_str(), &ctx), PENK_OK);
  ASSERT_EQ(penk_context_set_build(ctx, 0), PENK_OK);
  // A position a game can reach (R4.2): no line completed on either sheet.
  const char* mover = "oooo./ooo.o/oo.oo/o.ooo/.oooo";
  const char* opponent = ".oooo/o.ooo/oo.oo/ooo.o/oooo.";
  // The CLI builds the folder's spread table (each action's sd) and saves
  // it; the context, not building, then reads it.
  RunPenk("PENK_TABLE_DIR=" + dir, std::string("hint --json --sheet ") + mover +
                                       " --roll 12345J --opponent " + opponent);
  std::vector<char> buf(1 << 16);
  size_t needed = 0;
  ASSERT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, opponent, 0, 1,
                                 -1, buf.data(), buf.size(), &needed),
            PENK_OK)
      << penk_last_error();
  json cli = json::parse(RunPenk("PENK_TABLE_DIR=" + dir, std::string("hint --json --sheet ") +
                                                             mover + " --roll 12345J --rerolls 1 --opponent " +
                                                             opponent));
  EXPECT_EQ(json::parse(buf.data()), cli);
  // No opponents: the solitaire answer, as penk_hint_json.
  std::vector<char> solo(1 << 16);
  ASSERT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, "", 0, 1, -1,
                                 buf.data(), buf.size(), nullptr),
            PENK_OK);
  ASSERT_EQ(penk_hint_json(ctx, mover, "12345J", 1, nullptr, nullptr, solo.data(),
                           solo.size(), nullptr),
            PENK_OK);
  EXPECT_STREQ(buf.data(), solo.data());
  // Errors.
  EXPECT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, "bad", 0, 1, -1,
                                 buf.data(), buf.size(), nullptr),
            PENK_E_BAD_POSITION);
  EXPECT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, opponent, 0, 3,
                                 -1, buf.data(), buf.size(), nullptr),
            PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, opponent, 0, 1,
                                 -5, buf.data(), buf.size(), nullptr),
            PENK_E_BAD_ARGUMENT);
  std::string four = std::string(opponent) + "," + opponent + "," + opponent + "," + opponent;
  EXPECT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, four.c_str(), 0,
                                 1, -1, buf.data(), buf.size(), nullptr),
            PENK_E_BAD_ARGUMENT);
  // An impossible set of sheets: the opponent's row-1 PENK would have crossed ours.
  EXPECT_EQ(penk_hint_multi_json(ctx, "...../...../...../...../.....", "3335JJ", 2, nullptr, nullptr,
                                 "ooooo/...../...../...../.....", 0, 1, -1, buf.data(), buf.size(),
                                 nullptr),
            PENK_E_BAD_POSITION);
  EXPECT_NE(std::string(penk_last_error()).find("row 1"), std::string::npos) << penk_last_error();
  // API 8: the same ranking as numbers, action by action as the JSON shows it.
  ASSERT_EQ(penk_hint_multi_json(ctx, mover, "12345J", 1, nullptr, nullptr, opponent, 0, 1,
                                 -1, buf.data(), buf.size(), nullptr),
            PENK_OK);
  const json shown = json::parse(buf.data());
  std::vector<penk_ranked_win> ranked(100);
  size_t count = 0;
  char estimate[16] = "";
  ASSERT_EQ(penk_hint_multi(ctx, mover, "12345J", 1, nullptr, nullptr, opponent, 0, 1, -1,
                            ranked.data(), ranked.size(), &count, estimate),
            PENK_OK)
      << penk_last_error();
  ASSERT_EQ(count, shown["count"].get<size_t>());
  EXPECT_EQ(std::string(estimate), shown["estimate"]);
  for (size_t i = 0; i < count && i < shown["actions"].size(); ++i) {
    const json& a = shown["actions"][i];
    EXPECT_EQ(std::string(ranked[i].action), a["action"]) << i;
    EXPECT_NEAR(ranked[i].win, a["win"].get<double>(), 1e-9) << i;
    EXPECT_NEAR(ranked[i].score, a["score"].get<double>(), 1e-9) << i;
    EXPECT_NEAR(ranked[i].value, a["value"].get<double>(), 1e-6) << i;
    EXPECT_EQ(ranked[i].tied != 0, a["tied"].get<bool>()) << i;
  }
  EXPECT_EQ(penk_hint_multi(ctx, mover, "12345J", 1, nullptr, nullptr, "", 0, 1, -1,
                            ranked.data(), ranked.size(), &count, nullptr),
            PENK_E_BAD_ARGUMENT);
  penk_context_destroy(ctx);
  std::filesystem::remove_all(dir);
}

// API 8 (issue 22 item 1): requests in flight through the callback -- a long
// hint reports progress and is cancelled (penk_cancel) while a hello and a
// value submitted after it are answered first; penk_request still answers
// at once beside it; every submitted request gets exactly one reply.
struct Received {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<json, int>> lines;
};
void OnLine(const char* line, int is_reply, void* user) {
  auto* r = static_cast<Received*>(user);
  std::lock_guard<std::mutex> lock(r->mutex);
  r->lines.emplace_back(json::parse(line), is_reply);
  r->changed.notify_all();
}

TEST(CApiInFlight, SubmitCancelProgressAndDrain) {
  const std::string dir = SmallTableDir("flight");
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(dir.c_str(), &ctx), PENK_OK);
  ASSERT_EQ(penk_context_set_build(ctx, 0), PENK_OK);
  EXPECT_EQ(penk_submit(ctx, R"({"id":1,"cmd":"hello"})"), PENK_E_BAD_ARGUMENT) << "no callback yet";
  Received got;
  ASSERT_EQ(penk_context_set_callback(ctx, OnLine, &got), PENK_OK);
  const char* hint =
      R"({"id":"long","cmd":"hint","sheet":"oooo./ooo.o/oo.oo/o.ooo/.oooo","roll":"12345J",)"
      R"("rerolls":1,"opponents":[".oooo/o.ooo/oo.oo/ooo.o/oooo."],"rollouts":1000000,)"
      R"("time_ms":3600000,"progress_ms":50})";
  ASSERT_EQ(penk_submit(ctx, hint), PENK_OK);
  ASSERT_EQ(penk_submit(ctx, R"({"id":2,"cmd":"hello"})"), PENK_OK);
  ASSERT_EQ(penk_submit(ctx, R"({"id":3,"cmd":"value","sheet":"ooooo/o.ooo/oo.oo/ooo.o/oooo."})"), PENK_OK);
  ASSERT_EQ(penk_submit(ctx, R"({"cmd":"hello"})"), PENK_OK);  // no id: refused by a reply
  // penk_request is answered beside the hint.
  std::vector<char> buf(1 << 16);
  ASSERT_EQ(penk_request(ctx, R"({"id":4,"cmd":"hello"})", buf.data(), buf.size(), nullptr), PENK_OK);
  EXPECT_EQ(json::parse(buf.data())["id"], 4);
  {
    std::unique_lock<std::mutex> lock(got.mutex);
    ASSERT_TRUE(got.changed.wait_for(lock, std::chrono::seconds(30), [&] {
      int progress = 0, answered = 0;
      for (const auto& [l, reply] : got.lines) {
        progress += l["id"] == "long" && !reply;
        answered += reply && (l["id"] == 2 || l["id"] == 3);
      }
      return progress >= 2 && answered == 2;
    }));
  }
  int running = -1;
  ASSERT_EQ(penk_cancel(ctx, "\"long\"", &running), PENK_OK) << penk_last_error();
  EXPECT_EQ(running, 1);
  ASSERT_EQ(penk_drain(ctx), PENK_OK);
  std::lock_guard<std::mutex> lock(got.mutex);
  int replies = 0;
  json cancelled;
  for (const auto& [l, reply] : got.lines) {
    replies += reply;
    if (reply && l["id"] == "long") cancelled = l;
    if (!reply) {
      EXPECT_TRUE(l.contains("progress")) << l;
    }
  }
  EXPECT_EQ(replies, 4) << "one reply per submitted request";
  ASSERT_EQ(cancelled["error"]["code"], "cancelled") << cancelled;
  EXPECT_TRUE(cancelled["error"]["partial"].contains("actions"));
  EXPECT_EQ(penk_cancel(ctx, "\"long\"", &running), PENK_OK);
  EXPECT_EQ(running, 0);
  EXPECT_EQ(penk_cancel(ctx, "{", &running), PENK_E_BAD_ARGUMENT);
  EXPECT_STREQ(penk_status_name(PENK_E_TIME_OUT), "time_out");
  penk_context_destroy(ctx);
  std::filesystem::remove_all(dir);
}

TEST(CApiGames, PhysicalDicePositionsUndoHintAndRequests) {
  const std::string dir = SmallTableDir("games");
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(dir.c_str(), &ctx), PENK_OK);
  ASSERT_EQ(penk_context_set_build(ctx, 0), PENK_OK);
  std::vector<char> buf(1 << 18);
  size_t needed = 0;
  // Physical dice: the game waits for them; kept dice must be in the next roll.
  penk_game* g = nullptr;
  ASSERT_EQ(penk_game_create_json(ctx, R"({"players":["human","greedy"],"dice":"manual","seed":1})", &g),
            PENK_OK)
      << penk_last_error();
  EXPECT_EQ(penk_game_phase(g), PENK_PHASE_ROLL);
  EXPECT_EQ(penk_game_rerolls_left(g), 2);
  EXPECT_EQ(penk_game_apply(g, "stop"), PENK_E_ILLEGAL_ACTION);
  ASSERT_EQ(penk_game_roll(g, "3335JJ"), PENK_OK);
  EXPECT_EQ(penk_game_phase(g), PENK_PHASE_KEEP);
  ASSERT_EQ(penk_game_apply(g, "333"), PENK_OK);
  EXPECT_EQ(penk_game_roll(g, "112345"), PENK_E_ILLEGAL_ACTION);
  ASSERT_EQ(penk_game_roll(g, "333124"), PENK_OK);
  ASSERT_EQ(penk_game_undo(g), PENK_OK);
  EXPECT_EQ(penk_game_phase(g), PENK_PHASE_ROLL);
  ASSERT_EQ(penk_game_state_json(g, buf.data(), buf.size(), &needed), PENK_OK);
  json st = json::parse(buf.data());
  EXPECT_EQ(st["kept"], "333");
  EXPECT_EQ(st["history"][0]["rolls"], json({"3335JJ"}));
  ASSERT_EQ(penk_game_undo(g), PENK_OK);
  ASSERT_EQ(penk_game_undo(g), PENK_OK);
  EXPECT_EQ(penk_game_undo(g), PENK_E_ILLEGAL_ACTION);
  EXPECT_EQ(penk_game_roll(g, nullptr), PENK_E_BAD_ARGUMENT);
  penk_game_destroy(g);
  // Options are checked as new_game checks them.
  g = nullptr;
  EXPECT_EQ(penk_game_create_json(ctx, R"({"players":["human"],"Seed":1})", &g), PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("Seed"), std::string::npos);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(penk_game_create_json(ctx, "not json", &g), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_create_json(ctx, R"({"players":["human"],"cmd":"hello"})", &g),
            PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("not \"cmd\""), std::string::npos)
      << penk_last_error();
  EXPECT_EQ(penk_game_create_json(ctx, R"({"players":["human","human"],"position":{"sheets":["...../...../...../...../.....","ooooo/...../...../...../....."]}})", &g),
            PENK_E_BAD_POSITION);
  // A position: the hint for the player to move equals the stateless hint.
  const char* mover = "oooo./ooo.o/oo.oo/o.ooo/.oooo";
  ASSERT_EQ(penk_game_create_json(ctx, (std::string(R"({"players":["human"],"seed":2,"position":{"sheets":[")") +
                                        mover + R"("],"dice":"12345J","rerolls_left":1}})").c_str(), &g),
            PENK_OK)
      << penk_last_error();
  ASSERT_EQ(penk_game_hint_json(g, nullptr, 0, buf.data(), buf.size(), &needed), PENK_OK) << penk_last_error();
  json by_game = json::parse(buf.data());
  std::vector<char> plain(1 << 16);
  ASSERT_EQ(penk_hint_json(ctx, mover, "12345J", 1, nullptr, nullptr, plain.data(), plain.size(), nullptr),
            PENK_OK);
  EXPECT_EQ(by_game["actions"], json::parse(plain.data())["actions"]);
  EXPECT_EQ(penk_game_hint_json(g, nullptr, -1, buf.data(), buf.size(), &needed), PENK_E_BAD_ARGUMENT);
  // best_action with its value: the value the hint gives that action.
  ASSERT_EQ(penk_game_best_action_json(g, "greedy", 0, buf.data(), buf.size(), &needed), PENK_OK)
      << penk_last_error();
  json best = json::parse(buf.data());
  bool found = false;
  for (const json& a : by_game["actions"])
    if (a["action"] == best["action"]) {
      found = true;
      EXPECT_EQ(a["value"], best["value"]);
    }
  EXPECT_TRUE(found) << best;
  // Too small a buffer: nothing applied.
  char tiny[4];
  EXPECT_EQ(penk_game_best_action_json(g, "greedy", 1, tiny, sizeof tiny, &needed), PENK_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(penk_game_rerolls_left(g), 1);
  ASSERT_EQ(penk_game_best_action_json(g, "greedy", 1, buf.data(), buf.size(), &needed), PENK_OK);
  EXPECT_EQ(json::parse(buf.data())["applied"], true);
  penk_game_destroy(g);
  // The protocol itself, through the C door.
  ASSERT_EQ(penk_request(ctx, R"({"id":7,"cmd":"hello"})", buf.data(), buf.size(), &needed), PENK_OK);
  json hello = json::parse(buf.data());
  EXPECT_EQ(hello["id"], 7);
  EXPECT_EQ(hello["result"]["protocol"], 2);
  ASSERT_EQ(penk_request(ctx, R"({"id":8,"cmd":"hint","roll":"3335JJ","rerolls_left":0})", buf.data(),
                         buf.size(), &needed),
            PENK_OK);
  EXPECT_EQ(json::parse(buf.data())["error"]["code"], "bad_field");
  penk_context_destroy(ctx);
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// Issue 20, item 8: the kind of a handle is checked, not only that it is live.
// The game record (issue 22 item 3) through the C door: a game played by
// penk_request, exported there, restored as a handle by
// penk_game_create_json's "record": the same state, then the same dice and
// states as the original played on, and its undo.
TEST(CApiGames, ExportedRecordRestoresAsAGameHandle) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(testing::TempDir().c_str(), &ctx), PENK_OK);
  ASSERT_EQ(penk_context_set_build(ctx, 0), PENK_OK);
  std::vector<char> buf(1 << 18);
  size_t needed = 0;
  auto request = [&](const json& r) {
    EXPECT_EQ(penk_request(ctx, r.dump().c_str(), buf.data(), buf.size(), &needed), PENK_OK);
    json reply = json::parse(buf.data());
    EXPECT_TRUE(reply.contains("result")) << reply;
    json result = reply["result"];
    if (result.is_object()) result.erase("game");  // the handle's state has no id
    return result;
  };
  auto state_of = [&](penk_game* g) {
    EXPECT_EQ(penk_game_state_json(g, buf.data(), buf.size(), &needed), PENK_OK);
    return json::parse(buf.data());
  };
  json state = request({{"cmd", "new_game"}, {"players", {"human", "human"}}, {"seed", 12}});
  for (int i = 0; i < 9; ++i)
    state = request({{"cmd", "apply"}, {"game", 1}, {"action", state["legal_actions"].back()}});
  const json record = request({{"cmd", "export"}, {"game", 1}})["record"];
  EXPECT_EQ(record["steps"].size(), 9u) << record;
  penk_game* g = nullptr;
  ASSERT_EQ(penk_game_create_json(ctx, json({{"record", record}}).dump().c_str(), &g), PENK_OK)
      << penk_last_error();
  EXPECT_EQ(state_of(g), state);
  for (int i = 0; i < 12 && state["phase"] != "over"; ++i) {
    const std::string action = state["legal_actions"].front();
    state = request({{"cmd", "apply"}, {"game", 1}, {"action", action}});
    ASSERT_EQ(penk_game_apply(g, action.c_str()), PENK_OK) << penk_last_error();
    ASSERT_EQ(state_of(g), state) << action;
  }
  ASSERT_EQ(penk_game_undo(g), PENK_OK);
  EXPECT_EQ(state_of(g), request({{"cmd", "undo"}, {"game", 1}}));
  penk_game_destroy(g);
  // A bad record: the step named, nothing made.
  json bad = record;
  bad["steps"][0] = {{"action", "5:5"}};
  g = nullptr;
  EXPECT_EQ(penk_game_create_json(ctx, json({{"record", bad}}).dump().c_str(), &g),
            PENK_E_ILLEGAL_ACTION);
  EXPECT_EQ(g, nullptr);
  EXPECT_NE(std::string(penk_last_error()).find("record: step 1 (action \"5:5\")"), std::string::npos)
      << penk_last_error();
  penk_context_destroy(ctx);
}

TEST(CApiHardening, AHandleOfTheOtherKindIsRefused) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(testing::TempDir().c_str(), &ctx), PENK_OK);
  penk_game* g = nullptr;
  ASSERT_EQ(penk_game_create(ctx, "human,greedy", nullptr, 4, &g), PENK_OK);
  auto* ctx_as_game = reinterpret_cast<penk_game*>(ctx);
  auto* game_as_ctx = reinterpret_cast<penk_context*>(g);
  char buf[4096];
  size_t needed = 0;
  EXPECT_EQ(penk_game_apply(ctx_as_game, "stop"), PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("game is a context handle; a game handle is expected"),
            std::string::npos) << penk_last_error();
  EXPECT_EQ(penk_game_state_json(ctx_as_game, buf, sizeof buf, &needed), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_players(ctx_as_game), -1);
  double v = 0;
  EXPECT_EQ(penk_value(game_as_ctx, nullptr, nullptr, nullptr, &v), PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("ctx is a game handle"), std::string::npos)
      << penk_last_error();
  EXPECT_EQ(penk_request(game_as_ctx, "{\"cmd\":\"hello\"}", buf, sizeof buf, &needed),
            PENK_E_BAD_ARGUMENT);
  // Destroying with the other kind's function is ignored: both stay usable.
  penk_game_destroy(ctx_as_game);
  penk_context_destroy(game_as_ctx);
  EXPECT_EQ(penk_game_players(g), 2);
  EXPECT_EQ(penk_request(ctx, "{\"cmd\":\"hello\"}", buf, sizeof buf, &needed), PENK_OK);
  penk_game_destroy(g);
  penk_context_destroy(ctx);
}

// Item 9: the documented retry with a larger buffer does not run the request twice.
TEST(CApiHardening, BufferRetryDoesNotRunTheRequestTwice) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(testing::TempDir().c_str(), &ctx), PENK_OK);
  char tiny[8];
  size_t needed = 0;
  const char* new_game = R"({"id":1,"cmd":"new_game","players":["human"],"seed":5})";
  ASSERT_EQ(penk_request(ctx, new_game, tiny, sizeof tiny, &needed), PENK_E_BUFFER_TOO_SMALL);
  std::vector<char> buf(needed + 1);
  ASSERT_EQ(penk_request(ctx, new_game, buf.data(), buf.size(), &needed), PENK_OK);
  EXPECT_EQ(json::parse(buf.data())["result"]["game"], 1) << buf.data();
  std::vector<char> big(1 << 16);
  ASSERT_EQ(penk_request(ctx, R"({"cmd":"state","game":2})", big.data(), big.size(), &needed),
            PENK_OK);
  EXPECT_EQ(json::parse(big.data())["error"]["code"], "unknown_game")
      << big.data() << ": the retry made a second game";
  // Two steps, then one undo retried takes back one step.
  auto state = [&] {
    EXPECT_EQ(penk_request(ctx, R"({"cmd":"state","game":1})", big.data(), big.size(), &needed),
              PENK_OK);
    return json::parse(big.data())["result"];
  };
  for (int step = 0; step < 2; ++step) {
    const std::string apply = json{{"cmd", "apply"}, {"game", 1},
                                   {"action", state()["legal_actions"][0]}}.dump();
    ASSERT_EQ(penk_request(ctx, apply.c_str(), big.data(), big.size(), &needed), PENK_OK);
    ASSERT_TRUE(json::parse(big.data()).contains("result")) << big.data();
  }
  const int steps = state()["undo_steps"];
  ASSERT_GE(steps, 2);
  const char* undo = R"({"cmd":"undo","game":1})";
  ASSERT_EQ(penk_request(ctx, undo, tiny, sizeof tiny, &needed), PENK_E_BUFFER_TOO_SMALL);
  ASSERT_EQ(penk_request(ctx, undo, big.data(), big.size(), &needed), PENK_OK);
  EXPECT_EQ(state()["undo_steps"], steps - 1);
  penk_context_destroy(ctx);
}

// Item 1 through libpenk: a deep request is an error reply, not a dead host.
TEST(CApiHardening, DeeplyNestedJsonIsRefused) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(testing::TempDir().c_str(), &ctx), PENK_OK);
  const std::string deep = "{\"x\":" + std::string(130000, '[') + std::string(130000, ']') +
                           ",\"cmd\":\"hello\"}";
  std::vector<char> buf(4096);
  size_t needed = 0;
  ASSERT_EQ(penk_request(ctx, deep.c_str(), buf.data(), buf.size(), &needed), PENK_OK);
  EXPECT_EQ(json::parse(buf.data())["error"]["code"], "bad_json") << buf.data();
  const std::string options = "{\"players\":[\"human\"],\"x\":" + std::string(130000, '{');
  penk_game* g = nullptr;
  EXPECT_EQ(penk_game_create_json(ctx, options.c_str(), &g), PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("nested deeper than 32 levels"), std::string::npos)
      << penk_last_error();
  penk_context_destroy(ctx);
}

// Item 13: the C API's turns are bounded as the protocol's.
TEST(CApiHardening, TurnsAreBoundedAsInTheProtocol) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(testing::TempDir().c_str(), &ctx), PENK_OK);
  char buf[4096];
  size_t needed = 0;
  EXPECT_EQ(penk_hint_multi_json(ctx, nullptr, "3335JJ", 2, nullptr, nullptr,
                                 "...../...../...../...../.....", 0, 1, 2147483647, buf,
                                 sizeof buf, &needed),
            PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("turns must be 0..1000"), std::string::npos)
      << penk_last_error();
  penk_context_destroy(ctx);
}

}  // namespace
