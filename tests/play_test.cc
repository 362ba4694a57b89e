// The built-in bots (ai/bot.h) and `penk play` (issue 2, play item).
// Suites are named play* so that `ctest -R play` selects them.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/dice_space.h"
#include "engine/game.h"
#include "engine/marking.h"
#include "engine/sheet.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "tests/penk_process.h"
#include "ai/bot.h"
#include "ai/player.h"

namespace penk {
namespace {

// ---------------------------------------------------------------------------
// An independent R6 score, for the greedy bot's marking choice.

int IndependentScore(const Sheet& s, const Rules& rules) {
  static const int kPoints[5] = {1, 2, 3, 5, 8};
  auto circled = [&](int v, int k) { return (s.circled >> ((k - 1) * 5 + (v - 1))) & 1; };
  int total = 0;
  for (int k = 1; k <= 5; ++k) {  // R6.1
    int c = 0;
    for (int v = 1; v <= 5; ++v) c += circled(v, k);
    if (c >= rules.line_min) total += c * kPoints[k - 1];
  }
  for (int v = 1; v <= 5; ++v) {  // R6.2
    int c = 0, sum = 0;
    for (int k = 1; k <= 5; ++k)
      if (circled(v, k)) ++c, sum += kPoints[k - 1];
    if (c >= rules.line_min) total += sum;
  }
  return total;
}

int IndependentGain(const Sheet& s, uint32_t cells, const Rules& rules) {
  Sheet after = s;
  after.circled |= cells;
  return IndependentScore(after, rules) - IndependentScore(s, rules);
}

// The marking with the largest gain, the first in canonical order on ties.
std::string BestMarking(const Sheet& sheet, const Dice& roll, const Rules& rules) {
  std::vector<uint32_t> legal = LegalMarkings(sheet, roll);
  if (legal.empty()) return "";
  uint32_t best = legal[0];
  for (uint32_t m : legal)
    if (IndependentGain(sheet, m, rules) > IndependentGain(sheet, best, rules)) best = m;
  return FormatMarking(best);
}

Sheet S(const char* text) { return *ParseSheet(text); }
Dice R(const char* text) { return *ParseRoll(text); }

std::string GreedyMark(const char* sheet, const char* roll, const Rules& rules = Rules{}) {
  return FormatAction(GreedyBot::ChooseMarking(S(sheet), R(roll), rules));
}

// ---------------------------------------------------------------------------
// Bots

TEST(playMakeBot, KnownAndUnknownNames) {
  for (const char* name : {"bot", "greedy", "random", "Greedy"}) {
    auto bot = MakeBot(name, Rules{}, 1);
    ASSERT_TRUE(bot.ok()) << name;
    EXPECT_FALSE((*bot)->name().empty());
  }
  EXPECT_EQ((*MakeBot("bot", Rules{}))->name(), "greedy");
  EXPECT_EQ((*MakeBot("random", Rules{}))->name(), "random");
  EXPECT_FALSE(MakeBot("wizard", Rules{}).ok());
  EXPECT_FALSE(MakeBot("human", Rules{}).ok());
  EXPECT_FALSE(MakeBot("", Rules{}).ok());
}

// Plays whole games with the given bots; every decision must be legal and
// among Game::LegalActions().
void PlayOut(const Rules& rules, uint64_t seed, std::vector<std::unique_ptr<Player>>& bots) {
  Game game = *Game::Create(static_cast<int>(bots.size()), rules, seed);
  int decisions = 0;
  while (!game.over()) {
    ASSERT_LT(++decisions, 10000) << "game does not end";
    Player& bot = *bots[game.current()];
    const std::vector<Action> legal = game.LegalActions();
    Action a = bot.Decide(game);
    bool listed = false;
    for (const Action& l : legal) listed = listed || l == a;
    ASSERT_TRUE(listed) << bot.name() << " chose " << FormatAction(a) << " seed " << seed;
    absl::Status status = game.Apply(a);
    ASSERT_TRUE(status.ok()) << bot.name() << " chose " << FormatAction(a) << ": "
                             << status.message() << " seed " << seed;
  }
  // R5.2: every player had the same number of turns.
  for (int p = 1; p < game.players(); ++p) EXPECT_EQ(game.turns(p), game.turns(0));
}

TEST(playBots, AlwaysLegalOverManyGames) {
  const Rules variants[] = {Rules{}, Rules{.penk_rows = false}, Rules{.line_min = 1}};
  for (const Rules& rules : variants)
    for (int players = 1; players <= 4; ++players)
      for (uint64_t seed = 0; seed < 12; ++seed) {
        std::vector<std::unique_ptr<Player>> bots;
        for (int p = 0; p < players; ++p) {
          // Mix greedy and random seats; seed-dependent.
          const char* name = (seed + p) % 3 == 0 ? "random" : (p % 2 ? "greedy" : "bot");
          bots.push_back(*MakeBot(name, rules, seed * 31 + p));
        }
        PlayOut(rules, seed, bots);
        if (HasFatalFailure()) return;
      }
}

TEST(playBots, AllRandomAndAllGreedyGamesEnd) {
  for (uint64_t seed = 100; seed < 110; ++seed)
    for (const char* name : {"random", "greedy"}) {
      std::vector<std::unique_ptr<Player>> bots;
      for (int p = 0; p < 4; ++p) bots.push_back(*MakeBot(name, Rules{}, seed + p));
      PlayOut(Rules{.penk_rows = false}, seed, bots);
      if (HasFatalFailure()) return;
    }
}

TEST(playBots, RandomBotIsReproducible) {
  auto play = [](uint64_t seed) {
    Game game = *Game::Create(2, Rules{}, 5);
    RandomBot a(seed), b(seed + 1);
    std::string log;
    while (!game.over()) {
      Action act = (game.current() == 0 ? a : b).Decide(game);
      log += FormatAction(act) + " ";
      EXPECT_TRUE(game.Apply(act).ok());
    }
    return log;
  };
  EXPECT_EQ(play(9), play(9));
  EXPECT_NE(play(9), play(10));
}

TEST(playGreedyBot, HandMadeMarkings) {
  // Three singles in row 1 score 3 (R6.1); the canonical first of them.
  EXPECT_EQ(GreedyMark("...../...../...../...../.....", "12345J"), "1:1+2:1+3:1");
  EXPECT_EQ(BestMarking(S("...../...../...../...../....."), R("12345J"), Rules{}), "1:1+2:1+3:1");
  // Column 3 from three groups of 3s: 1 + 2 + 3 (R6.2).
  EXPECT_EQ(GreedyMark("...../...../...../...../.....", "333333"), "3:1+3:2+3:3");
  // E3's sheet scores 12; 3:5 completes column 3: +8 (column) and nothing else.
  EXPECT_EQ(GreedyMark("ooo.o/..o.x/....x/..o.x/....x", "33333J"), "3:5");
  EXPECT_EQ(GreedyBot::Gain(S("ooo.o/..o.x/....x/..o.x/....x"), CellBit(3, 5), Rules{}), 8);
  // Nothing gains: the canonical first legal marking.
  EXPECT_EQ(GreedyMark("...../...../...../...../.....", "11JJJJ"), "1:1");
  // line-min=1 (R6.5): every circled cell scores in its row and its column.
  // 5:1+5:5 (four 5s and the J, and one 5) = rows 1 + 8, column 1 + 8 = 18
  // beats 5:5 alone (16) and 5:1+5:2+5:3 (12).
  const Rules min1{.line_min = 1};
  EXPECT_EQ(GreedyMark("...../...../...../...../.....", "55555J", min1), "5:1+5:5");
  EXPECT_EQ(BestMarking(S("...../...../...../...../....."), R("55555J"), min1), "5:1+5:5");
}

TEST(playGreedyBot, FailureLosesLeast) {
  // Column 1 closed, 111111 forms only face-1 groups: a failure (R3.5).
  // Column 2 has a circled cell, column 3 five free cells, column 4 two free
  // cells and column 5 four: column 4 loses least.
  const char* sheet = "oo.x./o..x./x..x./x...x/x....";
  EXPECT_TRUE(LegalMarkings(S(sheet), R("111111")).empty());
  EXPECT_EQ(GreedyMark(sheet, "111111"), "fail:4");
  // Equal columns: the lowest face.
  EXPECT_EQ(GreedyMark("o..../o..../o..../o..../o....", "11111J"), "fail:2");
}

TEST(playGreedyBot, MarkingIsBestImmediateGainInPlayedGames) {
  const Rules variants[] = {Rules{}, Rules{.penk_rows = false}, Rules{.line_min = 2}};
  int checked = 0;
  for (const Rules& rules : variants)
    for (uint64_t seed = 0; seed < 8; ++seed) {
      Game game = *Game::Create(2, rules, seed);
      GreedyBot greedy;
      RandomBot random(seed);
      while (!game.over()) {
        Action a = (game.current() == 0 ? static_cast<Player&>(greedy) : random).Decide(game);
        if (game.phase() == Phase::kMark && game.current() == 0) {
          const Sheet& sheet = game.sheet(0);
          if (a.kind == Action::kMark) {
            EXPECT_EQ(FormatMarking(a.cells), BestMarking(sheet, game.dice(), rules))
                << FormatSheet(sheet) << " " << FormatDice(game.dice());
            ++checked;
          } else {
            EXPECT_TRUE(LegalMarkings(sheet, game.dice()).empty());
          }
        }
        ASSERT_TRUE(game.Apply(a).ok());
      }
    }
  EXPECT_GT(checked, 100);
}

TEST(playGreedyBot, KeepMaximisesKeepValue) {
  GreedyBot bot;
  const Sheet sheet = S("oo.../o..../...../...../.....");
  const DiceSpace& space = DiceSpace::Get();
  for (const char* roll : {"12345J", "111222", "3335JJ", "55555J"})
    for (int rerolls = 1; rerolls <= 2; ++rerolls) {
      Dice keep = bot.ChooseKeep(sheet, R(roll), rerolls, Rules{});
      ASSERT_TRUE(R(roll).Contains(keep));
      const TurnValues& t = bot.SolvedTurn(sheet, Rules{});
      const int r = space.RollIndex(R(roll));
      const double chosen = t.KeepValue(rerolls, r, space.KeepIndex(keep));
      for (int16_t k : space.SubKeeps(r)) EXPECT_LE(t.KeepValue(rerolls, r, k), chosen + 1e-9);
    }
  // With line-min=1 on an empty sheet a cell of row k gains 2 P(k), and six
  // dice can make at most 2 (8 + 1) = 18: 55555J's 5:1+5:5. No keep can do
  // better, so the bot stops (stopping also wins ties).
  EXPECT_EQ(FormatDice(bot.ChooseKeep(Sheet{}, R("55555J"), 2, Rules{.line_min = 1})), "55555J");
}

// ---------------------------------------------------------------------------
// `penk play`

using Result = ::penk::testing_support::PenkRun;

// Runs `penk ARGS` with `input` on stdin.
Result RunPenk(const std::string& args, const std::string& input = "") {
  return ::penk::testing_support::RunPenkShell(args, input);
}

int Lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(playCli, BotsPlayAWholeGameDeterministically) {
  Result a = RunPenk("play --players bot,bot --seed 7");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out.rfind("seed 7\n", 0), 0u) << a.out.substr(0, 100);
  EXPECT_NE(a.out.find("final scores"), std::string::npos);
  EXPECT_TRUE(a.out.find("winner: player") != std::string::npos ||
              a.out.find("share the win") != std::string::npos);
  EXPECT_NE(a.out.find("player 1 (bot) marks"), std::string::npos);
  EXPECT_NE(a.out.find("roll 1: "), std::string::npos);
  EXPECT_NE(a.out.find("k pts 1 2 3 4 5"), std::string::npos);
  EXPECT_TRUE(a.err.empty()) << a.err;
  Result b = RunPenk("play --players bot,bot --seed 7");
  EXPECT_EQ(a.out, b.out);
  Result c = RunPenk("play --players bot,bot --seed 8");
  EXPECT_NE(a.out, c.out);
}

// `undo` (issue 22): takes back the last thing typed and the AIs' moves
// after it; typing the same again gives the very same game (the engine's
// dice come again, the AI decides alike), which a game without the undo
// shows independently.
TEST(playCli, UndoTakesBackADecisionAndTheAisMovesAfterIt) {
  Result straight = RunPenk("play --players human,greedy --seed 3", "stop\n3:2\nq\n");
  Result undone = RunPenk("play --players human,greedy --seed 3", "stop\n3:2\nundo\n3:2\nq\n");
  ASSERT_EQ(straight.exit_code, 0) << straight.err;
  ASSERT_EQ(undone.exit_code, 0) << undone.err;
  EXPECT_NE(undone.out.find("undone: back to player 1 (human)'s marking"), std::string::npos)
      << undone.out;
  // From round 2 on the two games are one.
  const std::string tail = straight.out.substr(straight.out.rfind("--- round 2"));
  EXPECT_EQ(undone.out.substr(undone.out.rfind("--- round 2")), tail);
  EXPECT_GT(Lines(undone.out), Lines(straight.out));  // the undone part was shown
  // Nothing to take back at the start; "u" and "back" are undo too.
  Result start = RunPenk("play --players human --seed 3", "u\nq\n");
  EXPECT_NE(start.out.find("nothing to undo"), std::string::npos) << start.out;
  Result back = RunPenk("play --players human --seed 3", "stop\nback\nstop\n3:2\nq\n");
  EXPECT_NE(back.out.find("undone: back to player 1 (human)'s keep"), std::string::npos) << back.out;
}

// A mistyped physical roll is taken back and typed again (issue 22).
TEST(playCli, UndoCorrectsAMistypedPhysicalRoll) {
  Result right = RunPenk("play --players human --manual-dice --seed 3", "3355JJ\nstop\n3:2\nq\n");
  Result fixed =
      RunPenk("play --players human --manual-dice --seed 3", "111111\nundo\n3355JJ\nstop\n3:2\nq\n");
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_NE(fixed.out.find("undone: back to player 1 (human)'s dice"), std::string::npos) << fixed.out;
  EXPECT_EQ(fixed.out.substr(fixed.out.rfind("--- round 2")),
            right.out.substr(right.out.rfind("--- round 2")));
  EXPECT_NE(right.out.find("marks 3:2"), std::string::npos) << right.out;
}

// --names (issue 22): who sits where, shown instead of "player N"; the game
// is the same game.
TEST(playCli, NamesLabelTheSeats) {
  Result plain = RunPenk("play --players bot,bot --seed 7");
  Result named = RunPenk("play --players bot,bot --seed 7 --names \"Ann, Bob\"");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_NE(named.out.find("players: Ann (bot), Bob (bot)"), std::string::npos) << named.out;
  EXPECT_NE(named.out.find("Ann (bot) marks"), std::string::npos);
  EXPECT_EQ(named.out.find("player 1 (bot)"), std::string::npos);
  const std::string score_line = plain.out.substr(plain.out.rfind("winner: "));
  const std::string named_line = named.out.substr(named.out.rfind("winner: "));
  EXPECT_EQ(absl::StrReplaceAll(score_line, {{"player 1", "Ann"}, {"player 2", "Bob"}}), named_line);
  for (const char* bad : {"--names Ann", "--names Ann,,Bob", "--names \"Ann,$(printf '\\001')\""}) {
    Result r = RunPenk(std::string("play --players bot,bot --seed 7 ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << r.out;
    EXPECT_NE(r.err.find("--names"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
}

// --manual-dice: the same game as with the engine's dice when the players
// give those very dice (the bots decide alike on the same dice).
TEST(playCli, ManualDiceReplaysTheGameOfTheSameDice) {
  Result engine = RunPenk("play --players greedy,random --seed 3");
  ASSERT_EQ(engine.exit_code, 0) << engine.err;
  std::string dice, marks;
  for (absl::string_view line : absl::StrSplit(engine.out, '\n')) {
    if (absl::ConsumePrefix(&line, "roll ")) {
      const size_t colon = line.find(": ");
      absl::StrAppend(&dice, line.substr(colon + 2, 6), "\n");
    }
    if (line.find(" marks ") != absl::string_view::npos || line.find(" fails ") != absl::string_view::npos)
      absl::StrAppend(&marks, line, "\n");
  }
  ASSERT_GT(Lines(dice), 10);
  Result manual = RunPenk("play --players greedy,random --seed 3 --manual-dice", dice);
  ASSERT_EQ(manual.exit_code, 0) << manual.err;
  std::string manual_marks;
  for (absl::string_view line : absl::StrSplit(manual.out, '\n'))
    if (line.find(" marks ") != absl::string_view::npos || line.find(" fails ") != absl::string_view::npos)
      absl::StrAppend(&manual_marks, line, "\n");
  EXPECT_EQ(manual_marks, marks);
  EXPECT_EQ(manual.out.substr(manual.out.find("final scores")),
            engine.out.substr(engine.out.find("final scores")));
  // A roll without the kept dice is refused and asked again (R2.2).
  Result refused = RunPenk("play --players human --seed 1 --manual-dice",
                           "3335JJ\n333\n112345\n33312J\nq\n");
  EXPECT_NE(refused.out.find("refused: the roll 112345 does not contain the kept dice 333"),
            std::string::npos)
      << refused.out;
  // After a keep, the rerolled dice alone complete the roll (issue 22); a
  // count that is neither six nor the rerolled dice is refused.
  Result rerolled = RunPenk("play --players human --seed 1 --manual-dice",
                            "3335JJ\n333\n12\n12J\n?\nq\n");
  EXPECT_NE(rerolled.out.find("refused: give the six dice on the table, or the 3 rerolled (333 "
                              "kept); got 2 dice"),
            std::string::npos)
      << rerolled.out;
  EXPECT_NE(rerolled.out.find("roll 2: 12333J"), std::string::npos) << rerolled.out;
}

TEST(playCli, OtherBotsAndRules) {
  Result a = RunPenk("play --players random,greedy,bot,random --seed 1 --rules penk-lines=columns");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("rules line-min=3,penk-lines=columns"), std::string::npos);
  EXPECT_NE(a.out.find("final scores"), std::string::npos);
  Result b = RunPenk("play --players random,greedy,bot,random --seed 1 --rules penk-lines=columns");
  EXPECT_EQ(a.out, b.out);
  Result solo = RunPenk("play --players greedy --seed 2");
  ASSERT_EQ(solo.exit_code, 0) << solo.err;
  EXPECT_NE(solo.out.find("solitaire: final score"), std::string::npos);
}

TEST(playCli, SeedFromTheClockIsPrinted) {
  Result r = RunPenk("play --players bot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n');
  ASSERT_FALSE(lines.empty());
  const std::string seed = lines[0];
  ASSERT_EQ(seed.rfind("seed ", 0), 0u) << seed;
  // Replaying with that seed gives the same game.
  Result again = RunPenk("play --players bot --seed " + seed.substr(5));
  EXPECT_EQ(again.out, r.out);
}

TEST(playCli, HumanWithScriptedInput) {
  // Every turn: an invalid keep, then stop; then every single-cell marking
  // and every failure in turn: the first legal one is accepted (one group
  // alone is always a legal marking, R3.3; else some failure is, R3.5), the
  // rest are refused by the next keep prompt. No input is ever lost.
  std::string block = "zzz\nstop\n";
  for (int v = 1; v <= 5; ++v)
    for (int k = 1; k <= 5; ++k) absl::StrAppend(&block, v, ":", k, "\n");
  for (int v = 1; v <= 5; ++v) absl::StrAppend(&block, "fail:", v, "\n");
  std::string input = "?\n\n";
  for (int i = 0; i < 40; ++i) input += block;
  Result r = RunPenk("play --players human,bot --seed 3", input);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0);
  // The refusal gives the engine's reason.
  Game g = *Game::Create(1, Rules{}, 1);
  const std::string reason(g.ParseAction("zzz").status().message());
  EXPECT_NE(r.out.find("refused: " + reason), std::string::npos);
  EXPECT_NE(r.out.find("refused: empty entry"), std::string::npos);
  EXPECT_NE(r.out.find("'-' keeps none"), std::string::npos);  // the keep help
  EXPECT_NE(r.out.find("player 1 (human) stops with"), std::string::npos);
  EXPECT_NE(r.out.find("player 1 (human) marks"), std::string::npos);
  EXPECT_NE(r.out.find("player 2 (bot) marks"), std::string::npos);
  EXPECT_NE(r.out.find("final scores"), std::string::npos);
}

TEST(playCli, HumanListsOptionsAndQuits) {
  Result r = RunPenk("play --players human --seed 3", "stop\n?\nq\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.find("legal markings (") != std::string::npos ||
              r.out.find("no group is legal") != std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("quits"), std::string::npos);
}

// Issue 4: the AIs as seats, and the advisor behind `?`. These use the exact
// tables (built on first use beside the binary, ~10 s each, then loaded).
TEST(playCli, ExpertAndOptimalPlayWholeGames) {
  Result a = RunPenk("play --players expert,optimal,greedy --seed 11");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("player 1 (expert) marks"), std::string::npos);
  EXPECT_NE(a.out.find("final scores"), std::string::npos);
  Result b = RunPenk("play --players expert,optimal,greedy --seed 11");
  EXPECT_EQ(a.out, b.out);
}

TEST(playCli, QuestionMarkShowsTheAdvisor) {
  Result solo = RunPenk("play --players human --seed 3", "?\nq\n");
  EXPECT_EQ(solo.exit_code, 0) << solo.err;
  EXPECT_NE(solo.out.find("advisor (best first)"), std::string::npos) << solo.out;
  EXPECT_NE(solo.out.find("exp. score"), std::string::npos);
  Result duel = RunPenk("play --players human,expert --seed 3", "?\nstop\n?\nq\n");
  EXPECT_EQ(duel.exit_code, 0) << duel.err;
  EXPECT_NE(duel.out.find("win: the neural net's chance of winning"), std::string::npos)
      << duel.out;  // which estimate the figure is (issues 11, 21)
  EXPECT_NE(duel.out.find("score: expected final score in this game"), std::string::npos);
  EXPECT_NE(duel.out.find("solitaire"), std::string::npos);  // the solitaire figure, named
  EXPECT_NE(duel.out.find("marking       "), std::string::npos);  // ranked markings too
}

TEST(playCli, EndOfInputStopsTheGame) {
  Result r = RunPenk("play --players human,bot --seed 3", "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("end of input"), std::string::npos) << r.err;
  // EOF in the middle of a game, after some valid entries.
  Result mid = RunPenk("play --players bot,human --seed 4", "stop\nzzz\n");
  EXPECT_EQ(mid.exit_code, 1);
  EXPECT_NE(mid.err.find("end of input"), std::string::npos) << mid.err;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string RecordPath(const std::string& tag) {
  return testing::TempDir() + "penk_play_record_" + std::to_string(getpid()) + "_" + tag + ".json";
}

// --save / --load (issue 22 item 3): a game left with q (or at the end of
// input) and resumed is the game played straight through: the same screen
// from the resumed turn on, and the same record at the end.
TEST(playCli, SaveAndLoadResumeTheGame) {
  const std::string part = RecordPath("part"), whole = RecordPath("whole"),
                    resumed = RecordPath("resumed");
  Result straight =
      RunPenk("play --players human,greedy --seed 3 --save " + whole, "stop\n3:2\nstop\nq\n");
  ASSERT_EQ(straight.exit_code, 0) << straight.err;
  Result first = RunPenk("play --players human,greedy --seed 3 --save " + part, "stop\n3:2\nq\n");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string record = ReadText(part);
  EXPECT_EQ(record.rfind("{\"format\":\"penk-game\",\"version\":1,", 0), 0u) << record;
  EXPECT_NE(record.find("\"players\":[\"human\",\"greedy\"],\"seed\":3,"), std::string::npos)
      << record;
  Result second = RunPenk("play --load " + part + " --save " + resumed, "stop\nq\n");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out.rfind("seed 3\nrules line-min=3,penk-lines=all\n", 0), 0u) << second.out;
  EXPECT_NE(second.out.find("resumed from " + part + " after "), std::string::npos) << second.out;
  EXPECT_EQ(second.out.substr(second.out.rfind("--- round 2")),
            straight.out.substr(straight.out.rfind("--- round 2")));
  EXPECT_EQ(ReadText(resumed), ReadText(whole));
  EXPECT_FALSE(std::filesystem::exists(resumed + ".tmp"));  // written through a rename

  // End of input (or a crash) keeps every completed turn: here the human's
  // and greedy's of round 1.
  Result cut = RunPenk("play --players human,greedy --seed 3 --save " + part, "stop\n3:2\n");
  EXPECT_EQ(cut.exit_code, 1);
  const std::string after_cut = RunPenk("play --load " + part, "stop\nq\n").out;
  ASSERT_NE(after_cut.find("--- round 2"), std::string::npos) << after_cut;
  EXPECT_EQ(after_cut.substr(after_cut.find("--- round 2")),
            second.out.substr(second.out.find("--- round 2")));

  // A game of bots saved at its end loads as that end.
  Result bots = RunPenk("play --players bot,bot --seed 7 --save " + whole);
  ASSERT_EQ(bots.exit_code, 0) << bots.err;
  Result end = RunPenk("play --load " + whole);
  ASSERT_EQ(end.exit_code, 0) << end.err;
  EXPECT_EQ(end.out.substr(end.out.find("=== game over")), bots.out.substr(bots.out.find("=== game over")));
  for (const std::string& f : {part, whole, resumed}) std::remove(f.c_str());
}

TEST(playCli, LoadRefusesConflictsAndBadFilesWithOneLine) {
  const std::string path = RecordPath("bad");
  ASSERT_EQ(RunPenk("play --players bot --seed 1 --save " + path).exit_code, 0);
  struct Case {
    std::string args, says;
  } cases[] = {
      {"play --load " + path + " --players bot", "--players cannot be given with it"},
      {"play --load " + path + " --seed 2", "--seed cannot be given with it"},
      {"play --load " + path + " --rules line-min=2", "--rules cannot be given with it"},
      {"play --load " + path + " --manual-dice", "--manual-dice cannot be given with it"},
      {"play --load /nonexistent/record.json", "is not a readable file"},
      {"play --load " + testing::TempDir(), "is not a readable file"},
      {"play --save /nonexistent/dir/record.json --players bot --seed 1", "--save: cannot write"},
  };
  for (const Case& c : cases) {
    Result r = RunPenk(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_EQ(Lines(r.err), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << ": " << r.err;
  }
  const std::pair<const char*, const char*> files[] = {
      {"not json", "is not valid JSON"},
      {"{\"format\":\"pgn\"}", "field \"format\" must be \"penk-game\""},
      {"{\"format\":\"penk-game\",\"version\":1,\"players\":[\"bot\"],\"seed\":1,"
       "\"steps\":[{\"action\":\"stop\"},{\"action\":\"9:9\"}]}",
       "record: step 2 (action \"9:9\")"},
  };
  for (const auto& [text, says] : files) {
    std::ofstream(path, std::ios::trunc) << text;
    Result r = RunPenk("play --load " + path);
    EXPECT_EQ(r.exit_code, 2) << text;
    EXPECT_EQ(Lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  std::remove(path.c_str());
}

TEST(playCli, BadPlayersExit2WithOneLine) {
  for (const char* args :
       {"play --players human,wizard", "play --players bot,bot,bot,bot,bot",
        "play --players ''", "play --players bot,,bot", "play", "play --players bot --seed x"}) {
    Result r = RunPenk(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(Lines(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  Result r = RunPenk("play --players human,wizard");
  EXPECT_NE(r.err.find("wizard"), std::string::npos);
  EXPECT_NE(r.err.find("human, bot, greedy, random, solitaire (= optimal), expert, neural, master"),
            std::string::npos);
  Result option = RunPenk("play --players human,master:trials=0");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("trials 1..100000"), std::string::npos) << option.err;
  Result five = RunPenk("play --players bot,bot,bot,bot,bot");
  EXPECT_NE(five.err.find("1 to 4 players"), std::string::npos) << five.err;
  Result rules = RunPenk("play --players bot --rules line-min=9");
  EXPECT_EQ(rules.exit_code, 2);
  EXPECT_EQ(Lines(rules.err), 1) << rules.err;
}

}  // namespace
}  // namespace penk
