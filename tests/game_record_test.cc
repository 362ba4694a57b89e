// A real table (issue 10): physical dice, games set up from a position, undo
// and the history of every turn, and the positions no game can reach.
// Independent checks: a game replayed with its own dice given by hand must be
// the same game; undo must walk back through exactly the states seen; every
// crossed cell must be explained by the history; positions taken from real
// games must be accepted and hand-made impossible ones refused.
#include <bit>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/position_check.h"
#include "engine/rules.h"
#include "gtest/gtest.h"
#include "tests/game_snapshot.h"
#include "ai/bot.h"

namespace penk {
namespace {

using testing_support::Snap;
using testing_support::Snapshot;

Sheet S(const char* text) { return *ParseSheet(text); }
Dice D(const char* text) { return *ParseRoll(text); }

TEST(ManualDice, ReplayingAGameWithItsOwnDiceGivesTheSameGame) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const int players = 1 + seed % 4;
    const Rules rules = seed % 3 ? Rules{} : *ParseRules("penk-lines=columns");
    Game engine = *Game::Create(players, rules, seed);
    GameRecord manual(*Game::Create(players, rules, seed + 1000, DiceSource::kManual));
    RandomBot bot(seed);
    ASSERT_EQ(manual.game().phase(), Phase::kRoll);
    ASSERT_TRUE(manual.Roll(engine.dice()).ok());
    while (!engine.over()) {
      ASSERT_EQ(Snap(manual.game()), Snap(engine));
      const Action a = bot.Decide(engine);
      ASSERT_TRUE(engine.Apply(a).ok());
      ASSERT_TRUE(manual.Apply(a).ok());
      if (manual.game().phase() == Phase::kRoll) {
        // The dice kept are on the table; a roll without them is refused (R2.2).
        const Dice kept = manual.game().kept();
        if (kept.size() > 0) {
          Dice other;
          const int face = kept.count[0] ? 1 : 0;
          other.count[face] = kDice;
          EXPECT_FALSE(manual.Roll(other).ok());
        }
        ASSERT_TRUE(manual.Roll(engine.dice()).ok()) << FormatDice(engine.dice());
      }
    }
    EXPECT_EQ(Snap(manual.game()), Snap(engine));
  }
}

TEST(ManualDice, RollIsOnlyForManualGamesAndOnlyBeforeARoll) {
  Game engine = *Game::Create(2, Rules{}, 1);
  EXPECT_FALSE(engine.Roll(D("11111J")).ok());
  Game manual = *Game::Create(2, Rules{}, 1, DiceSource::kManual);
  EXPECT_FALSE(manual.Apply("stop").ok());  // nothing rolled yet
  EXPECT_FALSE(manual.Roll(Dice{}).ok());   // not six dice
  ASSERT_TRUE(manual.Roll(D("3335JJ")).ok());
  EXPECT_FALSE(manual.Roll(D("3335JJ")).ok());  // the dice are to be kept now
  ASSERT_TRUE(manual.Apply("333").ok());
  EXPECT_EQ(manual.phase(), Phase::kRoll);
  EXPECT_EQ(FormatDice(manual.kept()), "333");
  EXPECT_FALSE(manual.Roll(D("3312JJ")).ok());  // only two 3s: the kept 333 is not there
  ASSERT_TRUE(manual.Roll(D("33312J")).ok());
  EXPECT_EQ(manual.rerolls_left(), 1);
}

TEST(Undo, WalksBackThroughEveryStateAndReplaysTheSameDice) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const int players = 1 + seed % 4;
    for (DiceSource source : {DiceSource::kEngine, DiceSource::kManual}) {
      GameRecord record(*Game::Create(players, Rules{}, seed, source));
      Rng table_dice(seed);  // the physical dice of the manual game
      RandomBot bot(seed);
      std::vector<Snapshot> seen = {Snap(record.game())};
      std::vector<size_t> history_sizes = {record.turns().size()};
      while (!record.game().over()) {
        if (record.game().phase() == Phase::kRoll) {
          Dice six = record.game().kept();
          while (six.size() < kDice) ++six.count[table_dice.Die()];
          ASSERT_TRUE(record.Roll(six).ok());
        } else {
          const Action a = bot.Decide(record.game());
          ASSERT_TRUE(record.Apply(a).ok());
        }
        seen.push_back(Snap(record.game()));
        history_sizes.push_back(record.turns().size());
      }
      ASSERT_EQ(record.steps() + 1, seen.size());
      // Back to the start, one state at a time.
      for (size_t i = seen.size() - 1; i > 0; --i) {
        ASSERT_TRUE(record.Undo().ok());
        ASSERT_EQ(Snap(record.game()), seen[i - 1]) << "step " << i;
        ASSERT_EQ(record.turns().size(), history_sizes[i - 1]);
      }
      EXPECT_FALSE(record.Undo().ok());  // the start of the game
    }
  }
}

TEST(Undo, EngineDiceComeAgainAfterUndo) {
  GameRecord record(*Game::Create(2, Rules{}, 7));
  ASSERT_TRUE(record.Apply(Action::Keep(Dice{})).ok());  // reroll all six
  const Dice first = record.game().dice();
  ASSERT_TRUE(record.Undo().ok());
  ASSERT_TRUE(record.Apply(Action::Keep(Dice{})).ok());
  EXPECT_EQ(record.game().dice(), first);
}

TEST(History, EveryCrossedCellIsExplainedAndEveryStepRecorded) {
  int penk_crossings = 0, failures = 0, passes = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const int players = 2 + seed % 3;
    GameRecord record(*Game::Create(players, Rules{}, seed));
    GreedyBot greedy;
    RandomBot random(seed);
    int keeps = 0, rolls = 1;
    while (!record.game().over()) {
      Player& bot = record.game().current() % 2 ? static_cast<Player&>(random) : greedy;
      const Action a = bot.Decide(record.game());
      const int mover = record.game().current();
      const size_t turns_before = record.turns().size();
      ASSERT_TRUE(record.Apply(a).ok());
      if (a.kind == Action::kKeep && a.keep.size() < kDice) ++keeps, ++rolls;
      if (a.kind != Action::kKeep) {
        // The finished turn is the last one of the mover in the history.
        const TurnRecord* t = nullptr;
        for (size_t i = turns_before - 1; i < record.turns().size(); ++i)
          if (record.turns()[i].player == mover && !record.turns()[i].passed) t = &record.turns()[i];
        ASSERT_NE(t, nullptr);
        EXPECT_TRUE(t->done);
        EXPECT_EQ(static_cast<int>(t->rolls.size()), 1 + static_cast<int>(t->keeps.size()));
      }
    }
    // Per seat: crossed cells = failure crossings + PENK crossings + nothing else.
    for (int p = 0; p < players; ++p) {
      const std::array<int, 25> by = record.CrossedBy(p);
      for (int c = 0; c < 25; ++c) {
        const bool crossed = record.game().sheet(p).crossed >> c & 1;
        EXPECT_EQ(crossed, by[c] != kNotCrossed) << seed << " " << p << " " << c;
        EXPECT_NE(by[c], kCrossedBefore);
        EXPECT_NE(by[c], p);  // nobody crosses their own sheet by a PENK
      }
    }
    for (const TurnRecord& t : record.turns()) {
      passes += t.passed;
      failures += t.failed_column != 0;
      for (int p = 0; p < players; ++p) {
        penk_crossings += t.crossed_by_penk[p] != 0;
        // A PENK crosses only the free cells of the completed lines (R4.2).
        uint32_t lines = 0;
        for (int i = 1; i <= 5; ++i) {
          if (t.penk_rows >> (i - 1) & 1) lines |= RowMask(i);
          if (t.penk_columns >> (i - 1) & 1) lines |= ColumnMask(i);
        }
        EXPECT_EQ(t.crossed_by_penk[p] & ~lines, 0u);
      }
    }
    // The turns in the history are the turns the game counted.
    for (int p = 0; p < players; ++p) {
      int n = 0;
      for (const TurnRecord& t : record.turns()) n += t.player == p && t.done;
      EXPECT_EQ(n, record.game().turns(p));
    }
  }
  // The sample exercised each kind of record.
  EXPECT_GT(penk_crossings, 50);
  EXPECT_GT(failures, 20);
  (void)passes;
}

TEST(Positions, PositionsFromRealGamesAreAcceptedAndPlayOnAlike) {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const int players = 1 + seed % 4;
    const Rules rules = seed % 4 == 3 ? *ParseRules("penk-lines=columns,line-min=2") : Rules{};
    Game g = *Game::Create(players, rules, seed);
    RandomBot bot(seed);
    Rng stop(seed);
    while (!g.over()) {
      if (stop.Below(5) == 0) {
        Position pos;
        for (int p = 0; p < players; ++p) {
          pos.sheets.push_back(g.sheet(p));
          pos.turns.push_back(g.turns(p));
        }
        pos.current = g.current();
        pos.last_round = g.last_round();
        pos.dice = g.dice();
        pos.rerolls_left = g.phase() == Phase::kKeep ? g.rerolls_left() : 0;
        absl::StatusOr<Game> copy = Game::FromPosition(pos, rules, seed);
        ASSERT_TRUE(copy.ok()) << copy.status();
        EXPECT_EQ(Snap(*copy), Snap(g));
        // Without turns they are estimated consistently with the seat order.
        pos.turns.clear();
        ASSERT_TRUE(Game::FromPosition(pos, rules, seed).ok());
        std::vector<Sheet> sheets(pos.sheets);
        EXPECT_TRUE(CheckSheetsReachable(sheets, rules).ok());
        ++checked;
      }
      ASSERT_TRUE(g.Apply(bot.Decide(g)).ok());
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(Positions, ImpossiblePositionsAreRefusedWithTheReason) {
  const Rules rules;
  auto refused = [&](Position pos, const std::string& why) {
    absl::StatusOr<Game> g = Game::FromPosition(pos, rules, 1);
    EXPECT_FALSE(g.ok()) << why;
    if (!g.ok()) {
      EXPECT_NE(g.status().message().find(why), std::string::npos) << g.status().message();
    }
  };
  const Sheet empty;
  // R4.2: the opponent's row-1 PENK would have crossed our row 1.
  refused({{empty, S("ooooo/...../...../...../.....")}, 0, {}, {}, {}, 2}, "row 1");
  // Two players completed the same column.
  refused({{S("o..../o..../o..../o..../o...."), S("o..../o..../o..../o..../o....")}, 0, {}, {}, {}, 2},
          "column 1 is completed on");
  // A row crossed by a PENK nobody made.
  refused({{S("xxxxx/...../...../...../....."), empty}, 0, {}, {}, {}, 2}, "no other sheet completed row 1");
  // Turns out of seat order, too few or too many for the sheet.
  refused({{empty, empty}, 1, {0, 0}, {}, {}, 2}, "seat order");
  refused({{S("ooo../...../...../...../....."), empty}, 0, {0, 0}, {}, {}, 2}, "cannot have played");
  refused({{S("o..../...../...../...../....."), empty}, 0, {3, 3}, {}, {}, 2}, "cannot have played");
  // R5.2: the last round follows from the sheets.
  refused({{empty, empty}, 0, {}, true, {}, 2}, "last_round must be false");
  refused({{S("xx.../xx.../xx.../xx.../xx..."), empty}, 1, {}, false, {}, 2}, "last_round must be true");
  refused({{S("xx.../xx.../xx.../xx.../xx..."), empty}, 0, {}, {}, {}, 2}, "end of the game");
  // Dice and rerolls.
  refused({{empty}, 0, {}, {}, {}, 1}, "rerolls_left is given only with dice");
  refused({{empty}, 0, {}, {}, D("11111J"), 3}, "rerolls_left must be");
  // A valid one: seat 1 to move in the last round, with dice to mark.
  Position ok{{S("xx.../xx.../xx.../xx.../xx..."), S("o..../...../...../...../.....")}, 1, {2, 1},
              true, D("3335JJ"), 0};
  absl::StatusOr<Game> g = Game::FromPosition(ok, rules, 1);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->phase(), Phase::kMark);
  EXPECT_TRUE(g->last_round());
  ASSERT_TRUE(g->Apply("3:4+5:2").ok());
  EXPECT_TRUE(g->over());  // seat 1 was the last of the round (R5.2)
}

}  // namespace
}  // namespace penk

namespace penk {
namespace {

// GameRecord::Steps (issue 22 item 3, the game record): the decisions and
// physical rolls undo can take back, in order; replayed on the start they
// give the same game, whose next dice are the original's (engine dice: the
// generator is part of the game), and undo takes back the same steps.
TEST(GameRecordSteps, ReplayedOnTheStartTheyGiveTheSameGame) {
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    const int players = 1 + seed % 4;
    const DiceSource source = seed % 2 ? DiceSource::kEngine : DiceSource::kManual;
    GameRecord original(*Game::Create(players, Rules{}, seed, source));
    RandomBot bot(seed);
    for (int step = 0; step < 40 + static_cast<int>(seed) * 5 && !original.game().over(); ++step) {
      if (original.game().phase() == Phase::kRoll) {
        Dice six = original.game().kept();
        while (six.size() < kDice) six.count[(step * 7 + six.size() * 3 + seed) % kFaces] += 1;
        ASSERT_TRUE(original.Roll(six).ok());
      } else {
        ASSERT_TRUE(original.Apply(bot.Decide(original.game())).ok());
      }
      if (step % 11 == 10) {
        ASSERT_TRUE(original.Undo().ok());  // undone steps leave the record
      }
    }
    const std::vector<GameStep> steps = original.Steps();
    ASSERT_EQ(steps.size(), original.steps());
    GameRecord replay(original.start());
    for (const GameStep& s : steps)
      ASSERT_TRUE((s.kind == GameStep::kRoll ? replay.Roll(s.dice) : replay.Apply(s.action)).ok());
    EXPECT_EQ(Snap(replay.game()), Snap(original.game()));
    EXPECT_EQ(replay.Steps(), steps);
    // The same future: both play on alike.
    GameRecord ahead = original;
    for (int k = 0; k < 30 && !ahead.game().over() && ahead.game().phase() != Phase::kRoll; ++k) {
      const Action a = bot.Decide(ahead.game());
      ASSERT_TRUE(ahead.Apply(a).ok());
      ASSERT_TRUE(replay.Apply(a).ok());
      ASSERT_EQ(Snap(replay.game()), Snap(ahead.game()));
    }
    // And the same past: undo walks back through the original's states.
    GameRecord back = original;
    GameRecord replay_back(original.start());
    for (const GameStep& s : steps)
      ASSERT_TRUE((s.kind == GameStep::kRoll ? replay_back.Roll(s.dice) : replay_back.Apply(s.action)).ok());
    while (back.steps() > 0) {
      ASSERT_TRUE(back.Undo().ok());
      ASSERT_TRUE(replay_back.Undo().ok());
      ASSERT_EQ(Snap(replay_back.game()), Snap(back.game()));
    }
    EXPECT_EQ(Snap(back.game()), Snap(original.start()));
  }
}

}  // namespace
}  // namespace penk
