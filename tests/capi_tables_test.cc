// libpenk's contexts own their tables (issue 9): each context's folder and
// build setting serve its own games only, handles are validated, seeds can be
// random, and the table memory is capped per context.
#include "penk.h"

#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tests/completed_tables.h"

namespace {

using json = nlohmann::json;

constexpr char kDefaultName[] = "solitaire_line-min=3_penk-lines=all.penktable";

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for (auto it = std::filesystem::directory_iterator(dir); it != std::filesystem::directory_iterator(); ++it)
    ++n;
  return n;
}

class CApiTables : public testing::Test {
 protected:
  void SetUp() override {
    base_ = testing::TempDir() + "penk_capi_tables_" + std::to_string(getpid()) + "_" +
            testing::UnitTest::GetInstance()->current_test_info()->name();
    a_ = base_ + "/a";
    b_ = base_ + "/b";
    std::filesystem::create_directories(a_);
    std::filesystem::create_directories(b_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(base_, ec);
  }
  std::string base_, a_, b_;
};

TEST_F(CApiTables, EachContextUsesItsOwnFolderAndBuildSetting) {
  // B has a default table (complete but synthetic, cheap: a partial one is
  // refused there) and may build; A has none and may not.
  ASSERT_TRUE(penk::WriteTable(penk::CompletedTable(penk::Rules{}, 0), b_ + "/" + kDefaultName).ok());
  penk_context *a = nullptr, *b = nullptr;
  ASSERT_EQ(penk_context_create(a_.c_str(), &a), PENK_OK);
  ASSERT_EQ(penk_context_set_build(a, 0), PENK_OK);
  ASSERT_EQ(penk_context_create(b_.c_str(), &b), PENK_OK);  // created last: must not win
  penk_game *ga = nullptr, *gb = nullptr;
  ASSERT_EQ(penk_game_create(a, "optimal,greedy", nullptr, 5, &ga), PENK_OK);
  ASSERT_EQ(penk_game_create(b, "optimal,greedy", nullptr, 5, &gb), PENK_OK);
  char action[PENK_ACTION_SIZE];
  EXPECT_EQ(penk_game_best_action(ga, nullptr, 0, action, sizeof action), PENK_E_TABLE);
  EXPECT_NE(std::string(penk_last_error()).find(a_ + "/" + kDefaultName), std::string::npos)
      << penk_last_error();
  EXPECT_EQ(penk_game_best_action(gb, nullptr, 0, action, sizeof action), PENK_OK)
      << penk_last_error();
  // B's table served B; A still has none, and nothing was written anywhere.
  EXPECT_EQ(penk_game_best_action(ga, nullptr, 0, action, sizeof action), PENK_E_TABLE);
  EXPECT_EQ(FilesIn(a_), 0u);
  EXPECT_EQ(FilesIn(b_), 1u);
  double v;
  EXPECT_EQ(penk_value(a, nullptr, nullptr, nullptr, &v), PENK_E_TABLE);
  penk_game_destroy(ga);
  penk_game_destroy(gb);
  penk_context_destroy(a);
  penk_context_destroy(b);
}

TEST(CApiHandles, DestroyedAndForeignHandlesAreRefused) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(nullptr, &ctx), PENK_OK);
  penk_game* g = nullptr;
  ASSERT_EQ(penk_game_create(ctx, "human,random", nullptr, 1, &g), PENK_OK);
  EXPECT_EQ(penk_game_players(g), 2);
  penk_game_destroy(g);
  // The pointers are only compared, never followed.
  EXPECT_EQ(penk_game_apply(g, "stop"), PENK_E_BAD_ARGUMENT);
  EXPECT_NE(std::string(penk_last_error()).find("not a live handle"), std::string::npos);
  EXPECT_EQ(penk_game_players(g), -1);
  EXPECT_EQ(penk_game_phase(g), -1);
  EXPECT_EQ(penk_game_score(g, 0), -1);
  char buf[256];
  EXPECT_EQ(penk_game_state_json(g, buf, sizeof buf, nullptr), PENK_E_BAD_ARGUMENT);
  penk_game_destroy(g);  // a second destroy is ignored
  penk_context_destroy(ctx);
  EXPECT_EQ(penk_context_set_build(ctx, 0), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_create(ctx, "human", nullptr, 1, &g), PENK_E_BAD_ARGUMENT);
  penk_context_destroy(ctx);
  // A pointer libpenk never made.
  int not_a_handle[64] = {};
  auto* fake_ctx = reinterpret_cast<penk_context*>(not_a_handle);
  auto* fake_game = reinterpret_cast<penk_game*>(not_a_handle);
  double v;
  EXPECT_EQ(penk_value(fake_ctx, nullptr, nullptr, nullptr, &v), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_best_action(fake_game, nullptr, 0, buf, sizeof buf), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_game_current(fake_game), -1);
  penk_game_destroy(fake_game);  // ignored, not freed
  penk_context_destroy(fake_ctx);
}

TEST(CApiSeeds, RandomSeedOrFixedSeed) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(nullptr, &ctx), PENK_OK);
  auto seed_and_dice = [](penk_game* g) {
    std::vector<char> buf(1 << 14);
    EXPECT_EQ(penk_game_state_json(g, buf.data(), buf.size(), nullptr), PENK_OK);
    json st = json::parse(buf.data());
    return std::make_pair(st["seed"].get<uint64_t>(), st["dice"].get<std::string>());
  };
  penk_game *r1 = nullptr, *r2 = nullptr, *f1 = nullptr, *f2 = nullptr;
  ASSERT_EQ(penk_game_create_random(ctx, "human,greedy", nullptr, &r1), PENK_OK);
  ASSERT_EQ(penk_game_create_random(ctx, "human,greedy", nullptr, &r2), PENK_OK);
  EXPECT_NE(seed_and_dice(r1).first, seed_and_dice(r2).first);
  ASSERT_EQ(penk_game_create(ctx, "human,greedy", nullptr, 0, &f1), PENK_OK);
  ASSERT_EQ(penk_game_create(ctx, "human,greedy", nullptr, 0, &f2), PENK_OK);
  EXPECT_EQ(seed_and_dice(f1), seed_and_dice(f2));  // a given seed, 0 included, is fixed
  EXPECT_EQ(seed_and_dice(f1).first, 0u);
  EXPECT_EQ(penk_game_create_random(nullptr, "human", nullptr, &f1), PENK_E_BAD_ARGUMENT);
  for (penk_game* g : {r1, r2, f1, f2}) penk_game_destroy(g);
  penk_context_destroy(ctx);
}

TEST(CApiCache, TableCacheMegabytesAreChecked) {
  penk_context* ctx = nullptr;
  ASSERT_EQ(penk_context_create(nullptr, &ctx), PENK_OK);
  EXPECT_EQ(penk_context_set_table_cache_mb(ctx, 0), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_context_set_table_cache_mb(ctx, size_t{1} << 40), PENK_E_BAD_ARGUMENT);
  EXPECT_EQ(penk_context_set_table_cache_mb(ctx, 64), PENK_OK);
  penk_context_destroy(ctx);
}

}  // namespace
