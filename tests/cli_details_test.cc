// CLI details of issue 10 (item 11), each through the real binary: bounds and
// signs of numbers, options that need --opponent, `moves` on sheets with
// nothing to list, spaces in markings, which --help an error points to, long
// input cut in errors, round and current at game over, singular nouns.
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/marking.h"
#include "engine/quoted_input.h"
#include "gtest/gtest.h"
#include "ai/bot.h"
#include "tests/penk_process.h"

namespace penk {
namespace {

using ::penk::testing_support::PenkRun;
using ::penk::testing_support::RunPenk;
using ::penk::testing_support::SplitLines;

// A refusal: exit 2, one line on stderr containing `part`, nothing on stdout.
void ExpectRefused(const std::vector<std::string>& args, const std::string& part) {
  const PenkRun r = RunPenk(args);
  std::string cmd;
  for (const std::string& a : args) cmd += " " + a.substr(0, 60);
  EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.err;
  EXPECT_EQ(SplitLines(r.err).size(), 1u) << cmd << "\n" << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << cmd << "\n" << r.err;
  EXPECT_EQ(r.out, "") << cmd;
}

TEST(CliDetails, TopMustNotBeNegative) {
  ExpectRefused({"hint", "--roll", "3335JJ", "--top", "-1"},
                "--top must be 0 (show all) or a number of actions; got -1");
  const PenkRun r = RunPenk({"hint", "--roll", "3335JJ", "--top", "-1"});
  EXPECT_LT(r.err.size(), 120u) << "no 300-digit bound";
}

TEST(CliDetails, NegativeSeedsAreRefused) {
  ExpectRefused({"play", "--players", "greedy", "--seed", "-1"},
                "--seed: a seed is a number from 0 to 2^64-1; got \"-1\"");
  ExpectRefused({"simulate", "--players", "greedy", "--games", "1", "--seed", "-5"},
                "a seed is a number from 0 to 2^64-1");
  ExpectRefused({"distribution", "--simulate", "10", "--seed", "-2"},
                "a seed is a number from 0 to 2^64-1");
  const PenkRun ok = RunPenk({"play", "--players", "greedy", "--seed", "18446744073709551615"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(SplitLines(ok.out).front(), "seed 18446744073709551615");
}

TEST(CliDetails, GameOptionsNeedOpponents) {
  for (const char* option : {"--seat=2", "--turn=3", "--last-round"}) {
    const std::string name = std::string(option).substr(0, std::string(option).find('='));
    ExpectRefused({"hint", "--roll", "3335JJ", option},
                  name + " describes a game with opponents: give their sheets with --opponent");
  }
}

TEST(CliDetails, ImpossibleOpponentsAreRefused) {
  // README's old example: the opponent's row-1 PENK crossed the mover's row 1.
  ExpectRefused({"hint", "--roll", "3335JJ", "--opponent", "ooooo/...../...../...../....."},
                "the player to move has a free cell on row 1, which opponent 1 completed");
  ExpectRefused({"hint", "--roll", "3335JJ", "--sheet", "xxxxx/...../...../...../.....",
                 "--opponent", "ooooo/...../...../...../.....", "--opponent",
                 "ooooo/...../...../...../....."},
                "row 1 is completed on opponent 1 and on opponent 2");
}

TEST(CliDetails, MovesRefusesSheetsWithNothingToList) {
  ExpectRefused({"moves", "--sheet", "ooooo/ooooo/ooooo/ooooo/ooooo", "--roll", "11335J"},
                "has no free cell: its player does nothing on a turn (R3.6)");
  ExpectRefused({"moves", "--sheet", "xo.../xo.../xo.../oo.../xo...", "--roll", "11335J"},
                "has two closed columns: the game is over (R5.2)");
  const PenkRun r = RunPenk({"moves", "--sheet", "xo.../xo.../xo.../oo.../.o...", "--roll", "11335J"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(r.out.empty());
}

TEST(CliDetails, MarkingsIgnoreSpacesAsKeepsDo) {
  const Sheet empty;
  const Dice roll = *ParseRoll("3335JJ");
  EXPECT_EQ(*ParseMarking(" 3 : 4 + 5 :2J ", empty, roll), *ParseMarking("3:4+5:2J", empty, roll));
  EXPECT_FALSE(ParseMarking("3 4", empty, roll).ok());
  // `penk play --seed 1` rolls as Game::Create(1, ..., 1) does.
  Game game = *Game::Create(1, Rules{}, 1);
  ASSERT_TRUE(game.Apply("stop").ok());
  const absl::StatusOr<Action> fail = game.ParseAction(" fail : 3 ");
  ASSERT_TRUE(fail.ok()) << fail.status().message();
  EXPECT_EQ(*fail, Action::Fail(3));
  // Through `penk play`: a marking typed with spaces is accepted.
  const std::string first = FormatMarking(LegalMarkings(game.sheet(0), game.dice()).front());
  std::string spaced;
  for (char c : first) spaced += c == ':' ? std::string(" : ") : std::string(1, c);
  const PenkRun m = RunPenk({"play", "--players", "human", "--seed", "1"}, "stop\n" + spaced + "\nq\n");
  EXPECT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(m.out.find("marks " + first), std::string::npos) << spaced << "\n" << m.out;
}

TEST(CliDetails, ErrorsPointToTheSubcommandsHelp) {
  ExpectRefused({"hint", "--roll", "3335JJ", "--rerolls", "5"}, "(see penk hint --help)");
  ExpectRefused({"moves", "--sheet", "...../...../...../...../....."}, "(see penk moves --help)");
  ExpectRefused({"tables", "build", "--max-free", "2"}, "(see penk tables build --help)");
  ExpectRefused({"--no-such-option"}, "(see penk --help)");
}

TEST(CliDetails, LongInputIsCutInErrors) {
  const std::string huge(100000, '1');
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"hint", "--roll", huge},
        std::vector<std::string>{"score", huge},
        std::vector<std::string>{"hint", "--roll", "123456", "--rules", huge},
        std::vector<std::string>{"play", "--players", huge},
        std::vector<std::string>{"hint", "--roll", "123456", "--top", huge},
        std::vector<std::string>{huge}}) {
    const PenkRun r = RunPenk(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_LT(r.err.size(), 400u) << args[0] << ": " << r.err.substr(0, 400);
    EXPECT_EQ(SplitLines(r.err).size(), 1u) << args[0];
  }
  EXPECT_EQ(QuotedInput("abc"), "\"abc\"");
  EXPECT_EQ(QuotedInput(std::string(41, 'a')), "\"" + std::string(40, 'a') + "...\"");
  EXPECT_EQ(QuotedInput(std::string("a\nb\0c", 5)), "\"a?b?c\"");
}

TEST(CliDetails, RoundAndCurrentAtGameOver) {
  for (int players = 1; players <= 4; ++players) {
    Game game = *Game::Create(players, Rules{}, 11 + players);
    std::unique_ptr<Player> bot = *MakeBot("greedy", Rules{}, 3);
    while (!game.over()) {
      ASSERT_EQ(game.round(), game.turns(players - 1) + 1);
      ASSERT_GE(game.current(), 0);
      ASSERT_TRUE(game.Apply(bot->Decide(game)).ok());
    }
    EXPECT_EQ(game.round(), game.turns(0)) << "the last round played, not one more";
    EXPECT_EQ(game.current(), -1) << "nobody moves once the game is over";
  }
}

TEST(CliDetails, SingularNouns) {
  const PenkRun score = RunPenk({"score", "ooo../...../...../...../....."});
  EXPECT_NE(score.out.find("row 1 (1 point a cell)"), std::string::npos) << score.out;
  EXPECT_NE(score.out.find("row 2 (2 points a cell)"), std::string::npos) << score.out;
  const PenkRun sim = RunPenk({"simulate", "--players", "greedy", "--games", "1"});
  EXPECT_EQ(sim.out.rfind("1 game, 1 player, seed 1", 0), 0u) << sim.out;
  EXPECT_NE(sim.out.find(", 1 thread,"), std::string::npos) << sim.out;
}

}  // namespace
}  // namespace penk
