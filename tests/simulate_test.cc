// `penk simulate` and ai/simulate.h (issue 4): seat rotation, the
// statistics, reproducibility, the JSON output.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <regex>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/penk_process.h"
#include "ai/simulate.h"
#include "solver/solitaire_dp.h"
#include "solver/table_cache.h"
#include "tests/completed_tables.h"

namespace penk {
namespace {

class SimulateTest : public ::testing::Test {};

// Complete tables of synthetic values (tests/completed_tables.h: score plus
// 2 per free cell, nothing solved): optimal and expert play whole games
// meeting no gap (a gap would be a TableUnavailable), enough to test the
// tournament machinery quickly.
std::shared_ptr<TableCache> NothingSolved() {
  static const std::shared_ptr<TableCache> tables =
      std::make_shared<TableCache>(CompletedTableLoader(0), size_t{1} << 40);
  return tables;
}

SimulationOptions Options(std::vector<std::string> players, int64_t games, int threads) {
  SimulationOptions o;
  o.players = std::move(players);
  o.games = games;
  o.seed = 42;
  o.threads = threads;
  o.tables = NothingSolved();
  return o;
}

void ExpectSame(const SimulationResult& a, const SimulationResult& b) {
  ASSERT_EQ(a.players.size(), b.players.size());
  for (size_t i = 0; i < a.players.size(); ++i) {
    EXPECT_EQ(a.players[i].win_rate, b.players[i].win_rate);
    EXPECT_EQ(a.players[i].mean_score, b.players[i].mean_score);
    EXPECT_EQ(a.players[i].sd_score, b.players[i].sd_score);
    EXPECT_EQ(a.players[i].mean_turns, b.players[i].mean_turns);
  }
}

TEST_F(SimulateTest, SameSeedSameResultWhateverTheThreads) {
  SimulationResult one = *Simulate(Options({"greedy", "random", "expert"}, 60, 1));
  SimulationResult again = *Simulate(Options({"greedy", "random", "expert"}, 60, 1));
  SimulationResult two = *Simulate(Options({"greedy", "random", "expert"}, 60, 2));
  ExpectSame(one, again);
  ExpectSame(one, two);
  SimulationOptions other = Options({"greedy", "random", "expert"}, 60, 1);
  other.seed = 43;
  EXPECT_NE(Simulate(other)->players[0].mean_score, one.players[0].mean_score);
}

TEST_F(SimulateTest, SharesSumToOneAndSeatsRotate) {
  // Greedy against itself: win shares sum to 1 in every game (R6.4: k tied
  // winners have 1/k each), and with seats rotated it wins about half.
  SimulationResult r = *Simulate(Options({"greedy", "greedy"}, 400, 2));
  EXPECT_NEAR(r.players[0].win_rate + r.players[1].win_rate, 1.0, 1e-12);
  EXPECT_LT(r.players[0].win_ci_low, 0.5);
  EXPECT_GT(r.players[0].win_ci_high, 0.5);
  EXPECT_EQ(r.players[0].mean_turns, r.players[1].mean_turns);  // R5.2: same number of turns
  EXPECT_GT(r.players[0].sd_score, 0);
  // Four players.
  SimulationResult four = *Simulate(Options({"greedy", "random", "greedy", "random"}, 100, 2));
  double sum = 0;
  for (const PlayerResult& p : four.players) sum += p.win_rate;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_GT(four.players[0].win_rate, four.players[1].win_rate);
}

// Issue 24, item 3: one tie rule (R6.4, Winners::Share). A game whose three
// players tie (searched for among seeded games of random players) gives each
// 1/3 of the win, not 1/2, and every game's shares sum to 1.
TEST_F(SimulateTest, TournamentsCountAThreeWayTieAsThirds) {
  for (uint64_t seed = 1; seed < 20000; ++seed) {
    SimulationOptions o = Options({"random", "random", "random"}, 1, 1);
    o.seed = seed;
    SimulationResult r = *Simulate(o);
    int winners = 0;
    double sum = 0;
    for (const PlayerResult& p : r.players) {
      winners += p.win_rate > 0;
      sum += p.win_rate;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12) << "seed " << seed;
    if (winners < 3) continue;
    for (const PlayerResult& p : r.players) EXPECT_DOUBLE_EQ(p.win_rate, 1.0 / 3) << seed;
    return;
  }
  FAIL() << "no three-way tie among 20,000 seeded games of random players";
}

TEST_F(SimulateTest, BoundsAndTableErrorsAreStatuses) {
  EXPECT_EQ(Simulate(Options({"greedy"}, kMaxSimulatedGames + 1, 1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(Simulate(Options({"greedy"}, 10, 0)).ok());
  EXPECT_FALSE(Simulate(Options({"greedy"}, 10, kMaxSimulationThreads + 1)).ok());
  EXPECT_TRUE(Simulate(Options({"greedy"}, 10, kMaxSimulationThreads)).ok());
  // optimal and expert need tables: without a cache, or when the cache
  // cannot give one, the tournament reports it instead of ending the process.
  SimulationOptions no_cache = Options({"optimal", "greedy"}, 10, 1);
  no_cache.tables = nullptr;
  EXPECT_EQ(Simulate(no_cache).status().code(), absl::StatusCode::kFailedPrecondition);
  SimulationOptions refused = Options({"expert", "greedy"}, 10, 2);
  refused.tables = std::make_shared<TableCache>(
      [](const TableKey&) -> absl::StatusOr<SolitaireTable> {
        return absl::NotFoundError("no table at /x (building tables is off)");
      });
  absl::StatusOr<SimulationResult> r = Simulate(refused);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no table at /x"), absl::string_view::npos) << r.status();
}

TEST_F(SimulateTest, SolitaireAndBadInput) {
  SimulationResult solo = *Simulate(Options({"greedy"}, 50, 1));
  EXPECT_EQ(solo.players[0].win_rate, 1.0);
  EXPECT_GT(solo.players[0].mean_score, 0);
  EXPECT_FALSE(Simulate(Options({"greedy", "wizard"}, 10, 1)).ok());
  EXPECT_FALSE(Simulate(Options({}, 10, 1)).ok());
  EXPECT_FALSE(Simulate(Options({"greedy", "greedy", "greedy", "greedy", "greedy"}, 10, 1)).ok());
  EXPECT_FALSE(Simulate(Options({"greedy"}, 0, 1)).ok());
}

std::string RunPenk(const std::string& args, int* code) {
  ::penk::testing_support::PenkRun r = ::penk::testing_support::RunPenkShell(args);
  *code = r.exit_code;
  return r.out;
}

TEST(simulateCli, JsonIsOneObjectInTheGivenOrder) {
  int code;
  const std::string out =
      RunPenk("simulate --players random,greedy --games 40 --seed 3 --threads 2 --json", &code);
  ASSERT_EQ(code, 0);
  const std::string num = R"(-?[0-9.]+(e-?[0-9]+)?)";
  const std::string player = R"(\{"name":"[a-z]+","win_rate":)" + num + R"(,"win_ci95":\[)" + num +
                             "," + num + R"(\],"mean_score":)" + num + R"(,"sd_score":)" + num +
                             R"(,"mean_turns":)" + num + R"(\})";
  EXPECT_TRUE(std::regex_match(out, std::regex(R"(\{"games":40,"players":\[)" + player + "," +
                                               player + R"(\]\}\n)")))
      << out;
  EXPECT_LT(out.find("\"random\""), out.find("\"greedy\""));
  EXPECT_EQ(out, RunPenk("simulate --players random,greedy --games 40 --seed 3 --threads 2 --json", &code));
  RunPenk("simulate --players greedy,wizard --games 4", &code);
  EXPECT_EQ(code, 2);
  RunPenk("simulate --players greedy --games 0", &code);
  EXPECT_EQ(code, 2);
}

}  // namespace
}  // namespace penk
