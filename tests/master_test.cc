// `master` (ai/master.h, issue 11 item 7): only legal decisions on
// thousands of seeded positions (2-4 players, both rule variants, R4.3),
// the same decisions whatever its thread count, expert's decisions when it
// may roll out nothing, and its options. Its strength is measured by
// `penk match` (docs/AI.md), its decision time by penk_bench
// (BM_MasterDecision), not here. Tables are exact only for few free cells
// so that the suite stays fast, as in tests/ai_test.cc.
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/master.h"
#include "ai/neural_default.h"
#include "engine/game.h"
#include "gtest/gtest.h"
#include "solver/solitaire_dp.h"
#include "solver/table_cache.h"
#include "tests/completed_tables.h"
#include "tests/seeded_positions.h"

namespace penk {
namespace {

constexpr int kPartialFree = 7;
// The sanitizer pass runs ten times slower: it checks fewer positions (the
// Release pass checks thousands).
#ifdef PENK_SANITIZED
constexpr int kScale = 4;
#else
constexpr int kScale = 1;
#endif

// Complete tables (tests/completed_tables.h): exact for positions with at
// most kPartialFree free cells and no blocked rows, synthetic beyond and for
// the other blocked sets; whole games meet no gap (which would be a
// TableUnavailable), enough for these tests.
std::shared_ptr<TableCache> Tables() {
  static const std::shared_ptr<TableCache> tables = std::make_shared<TableCache>(
      [](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
        return CompletedTable(key.rules, key.blocked_rows == 0 ? kPartialFree : 0, key.blocked_rows);
      },
      size_t{1} << 40);
  return tables;
}

TEST(MasterTest, MakesOnlyLegalDecisionsOnThousandsOfPositions) {
  // window=1: every decision with two legal actions is rolled out, so the
  // rollouts' candidates and choices are exercised everywhere.
  MasterPlayer master(Tables(), *ParseMasterName("master:trials=1:window=1"));
  int checked = 0, players_seen[5] = {}, variants_seen[2] = {};
  for (uint64_t seed = 1; checked < 2400 / kScale; ++seed) {
    Game game = SeededMidGame(seed);
    if (game.over()) continue;
    const Action a = master.Decide(game);
    const absl::Status st = game.Apply(a);
    ASSERT_TRUE(st.ok()) << "master chose " << FormatAction(a) << " at seed " << seed << ": "
                         << st.message();
    ++checked;
    ++players_seen[game.players()];
    ++variants_seen[game.rules().penk_rows ? 1 : 0];
  }
  EXPECT_GT(players_seen[2], 500 / kScale);
  EXPECT_GT(players_seen[3], 500 / kScale);
  EXPECT_GT(players_seen[4], 500 / kScale);
  EXPECT_GT(variants_seen[0], 1000 / kScale);
  EXPECT_GT(variants_seen[1], 1000 / kScale);
  EXPECT_GT(master.stats().rolled, 1200 / kScale);  // most decisions were rolled out
  EXPECT_GT(master.stats().switched, 0);   // and some left expert's choice
}

TEST(MasterTest, WholeGamesAgainstExpertAreLegal) {
  for (uint64_t seed = 1; seed <= 6 / kScale + 1; ++seed) {
    const int players = 2 + static_cast<int>(seed % 3);
    Game game = *Game::Create(players, seed % 2 ? Rules{} : Rules{3, false}, seed);
    MasterPlayer master(Tables(), *ParseMasterName("master:trials=4"));
    ExpertPlayer expert(Tables());
    while (!game.over()) {
      Player& p = game.current() == 0 ? static_cast<Player&>(master) : expert;
      const Action a = p.Decide(game);
      ASSERT_TRUE(game.Apply(a).ok()) << p.name() << " " << FormatAction(a);
    }
  }
}

TEST(MasterTest, DecisionsDoNotDependOnTheThreadCount) {
  MasterPlayer one(Tables(), *ParseMasterName("master:trials=24:window=1:threads=1"));
  MasterPlayer two(Tables(), *ParseMasterName("master:trials=24:window=1:threads=2"));
  int compared = 0;
  for (uint64_t seed = 1; compared < 60 / kScale; ++seed) {
    Game game = SeededMidGame(seed);
    if (game.over()) continue;
    EXPECT_EQ(one.Decide(game), two.Decide(game)) << "seed " << seed;
    ++compared;
  }
  EXPECT_EQ(one.stats().switched, two.stats().switched);
  EXPECT_GT(one.stats().switched, 0);
}

TEST(MasterTest, WithNothingToRollOutItIsItsBase) {
  // One candidate (cands=1, no solitaire choice), or no lead ever enough
  // (z=10): master decides as its base, neural unless base=expert is named.
  MasterPlayer alone(Tables(), *ParseMasterName("master:cands=1:solitaire=0"));
  MasterPlayer narrow(Tables(), *ParseMasterName("master:window=0:z=10"));
  MasterPlayer alone_on_expert(Tables(), *ParseMasterName("master:base=expert:cands=1:solitaire=0"));
  ExpertPlayer neural(Tables(), *ParseNeuralName("neural"), "neural", BuiltInNeuralNet().value());
  ExpertPlayer expert(Tables());
  int differ = 0;  // positions where the two bases choose differently
  for (uint64_t seed = 1; seed <= 200 / kScale; ++seed) {
    Game game = SeededMidGame(seed);
    if (game.over()) continue;
    const Action n = neural.Decide(game), e = expert.Decide(game);
    EXPECT_EQ(alone.Decide(game), n) << "seed " << seed;
    EXPECT_EQ(narrow.Decide(game), n) << "seed " << seed;
    EXPECT_EQ(alone_on_expert.Decide(game), e) << "seed " << seed;
    differ += n != e;
  }
  EXPECT_GT(differ, 0);  // so that the test tells the bases apart
  EXPECT_EQ(alone.stats().rolled, 0);
  EXPECT_EQ(narrow.stats().switched, 0);
}

// Issue 20 item 6: with its cancel flag set, a decision that would roll out
// throws Cancelled instead of playing its trials (penk serve answers the
// request `cancelled`).
TEST(MasterTest, ACancelledDecisionThrows) {
  MasterPlayer master(Tables(), *ParseMasterName("master:trials=100000:window=1"));
  master.set_cancel(std::make_shared<std::atomic<bool>>(true));
  int rolled = 0;
  for (uint64_t seed = 1; rolled < 3 && seed < 1000; ++seed) {
    Game game = SeededMidGame(seed);
    if (game.over() || game.players() == 1 || game.LegalActions().size() < 2) continue;
    EXPECT_THROW(master.Decide(game), Cancelled) << "seed " << seed;
    ++rolled;
  }
  EXPECT_EQ(rolled, 3);
  EXPECT_EQ(master.stats().trials, 0);
}

TEST(MasterTest, NameOptions) {
  absl::StatusOr<MasterParams> p = ParseMasterName("Master:trials=100:window=0.05:cands=4:z=1:threads=2:ms=500:seed=3:solitaire=0");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->trials, 100);
  EXPECT_DOUBLE_EQ(p->window, 0.05);
  EXPECT_EQ(p->candidates, 4);
  EXPECT_DOUBLE_EQ(p->z, 1);
  EXPECT_EQ(p->threads, 2);
  EXPECT_EQ(p->time_ms, 500);
  EXPECT_EQ(p->seed, 3u);
  EXPECT_FALSE(p->solitaire);
  for (const char* bad : {"master:trials=0", "master:trials=1.5", "master:window=2", "master:cands=0",
                          "master:threads=65", "master:ms=-1", "master:depth=2", "master:trials",
                          "master:z=nan", "master:solitaire=2", "expert"}) {
    absl::StatusOr<MasterParams> q = ParseMasterName(bad);
    EXPECT_FALSE(q.ok()) << bad;
  }
  // MakeBot knows it; a bad option is a clear error, not another player.
  EXPECT_TRUE(MakeBot("master", Rules{}, 0, Tables()).ok());
  absl::StatusOr<std::unique_ptr<Player>> bad = MakeBot("master:trials=0", Rules{}, 0, Tables());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("trials 1..100000"), std::string::npos) << bad.status();
  EXPECT_FALSE(MakeBot("master", Rules{}, 0, nullptr).ok());  // needs tables
  EXPECT_TRUE(CheckBotName("master:trials=5").ok());
  EXPECT_FALSE(CheckBotName("master:bogus=1").ok());
}

}  // namespace
}  // namespace penk
