// Whole games (R2-R5): random legal play checked step by step.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/game.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "engine/score.h"
#include "gtest/gtest.h"
#include "tests/game_snapshot.h"

namespace penk {
namespace {

// The cell layout documented in sheet.h (R7.3 order).
uint32_t Bit(int v, int k) { return 1u << ((k - 1) * 5 + (v - 1)); }
uint32_t Row(int k) {
  uint32_t m = 0;
  for (int v = 1; v <= 5; ++v) m |= Bit(v, k);
  return m;
}
uint32_t Column(int v) {
  uint32_t m = 0;
  for (int k = 1; k <= 5; ++k) m |= Bit(v, k);
  return m;
}
int ClosedColumnsByHand(const Sheet& s) {
  int n = 0;
  for (int v = 1; v <= 5; ++v) n += ((s.circled | s.crossed) & Column(v)) == Column(v);
  return n;
}

using testing_support::Snap;
using testing_support::Snapshot;

struct GameStats {
  int decisions = 0;
  int turns = 0;
  int penks_on_others = 0;        // completed lines that had to cross others' cells
  int rows_completed_columns_rule = 0;  // row completions under penk-lines=columns
  int failures = 0;
};

// Plays one game with uniformly random legal decisions and checks R1.3, R3,
// R4, R5 after every decision. `by_text` applies decisions through their R7 text.
void PlayAndCheck(int players, const Rules& rules, uint64_t seed, bool by_text,
                  GameStats* stats) {
  SCOPED_TRACE("players=" + std::to_string(players) + " rules=" + FormatRules(rules) +
               " seed=" + std::to_string(seed));
  absl::StatusOr<Game> created = Game::Create(players, rules, seed);
  ASSERT_TRUE(created.ok()) << created.status();
  Game game = *created;
  Rng chooser(seed * 7919 + 1);
  int first_round_with_two_closed = 0;  // 0: not yet
  // A player takes at most 25 turns that change the sheet plus the closing
  // round; each turn is at most 3 decisions.
  const int kMaxDecisions = 3 * 27 * players;
  for (int d = 0; !game.over(); ++d) {
    ASSERT_LT(d, kMaxDecisions) << "the game does not end";
    const Snapshot before = Snap(game);
    const int p = game.current();
    ASSERT_GE(p, 0);
    ASSERT_LT(p, players);
    ASSERT_EQ(game.dice().size(), 6);
    if (game.phase() == Phase::kKeep) {
      ASSERT_TRUE(game.rerolls_left() == 2 || game.rerolls_left() == 1);
    }
    std::vector<Action> legal = game.LegalActions();
    ASSERT_FALSE(legal.empty()) << "a game that is not over always has a decision";
    for (const Action& a : legal)
      ASSERT_EQ(a.kind == Action::kKeep, game.phase() == Phase::kKeep);
    // R3.4/R3.5: failures only when no marking exists, on columns with a free cell.
    if (game.phase() == Phase::kMark && legal[0].kind == Action::kFail) {
      std::vector<int> columns;
      for (int v = 1; v <= 5; ++v)
        if (game.sheet(p).free() & Column(v)) columns.push_back(v);
      ASSERT_EQ(static_cast<int>(legal.size()), static_cast<int>(columns.size()));
      for (size_t i = 0; i < legal.size(); ++i) {
        ASSERT_EQ(legal[i].kind, Action::kFail);
        ASSERT_EQ(legal[i].face, columns[i]);
      }
    }
    const Action action = legal[chooser.Below(static_cast<uint32_t>(legal.size()))];
    absl::Status st = by_text ? game.Apply(FormatAction(action)) : game.Apply(action);
    ASSERT_TRUE(st.ok()) << FormatAction(action) << ": " << st;
    ++stats->decisions;
    const Snapshot after = Snap(game);

    // R1.3: circled and crossed cells never change; a cell is never both.
    for (int q = 0; q < players; ++q) {
      const Sheet& b = before.sheets[q];
      const Sheet& a = after.sheets[q];
      ASSERT_EQ(a.circled & b.circled, b.circled) << "player " << q;
      ASSERT_EQ(a.crossed & b.crossed, b.crossed) << "player " << q;
      ASSERT_EQ(a.circled & a.crossed, 0u) << "player " << q;
    }

    if (action.kind == Action::kKeep) {
      // R2.2: no sheet changes; the kept dice stay.
      for (int q = 0; q < players; ++q) ASSERT_EQ(after.sheets[q], before.sheets[q]);
      ASSERT_EQ(after.current, p);
      ASSERT_EQ(after.turns, before.turns);
      ASSERT_TRUE(game.dice().Contains(action.keep));
      if (action.keep.size() == 6) {
        ASSERT_EQ(game.phase(), Phase::kMark) << "keeping all six dice stops (R2.2)";
        ASSERT_EQ(game.dice(), before.dice);
      } else if (before.rerolls_left == 1) {
        ASSERT_EQ(game.phase(), Phase::kMark) << "two rerolls at most (R2.2)";
      } else {
        ASSERT_EQ(game.phase(), Phase::kKeep);
        ASSERT_EQ(game.rerolls_left(), 1);
      }
      continue;
    }

    // A turn ended: a marking or a failure.
    ++stats->turns;
    const Sheet& mine_before = before.sheets[p];
    const Sheet& mine = after.sheets[p];
    ASSERT_EQ(after.turns[p], before.turns[p] + 1);
    if (action.kind == Action::kMark) {
      // R3.2: exactly the marked cells are circled, all were free.
      ASSERT_EQ(action.cells & ~mine_before.free(), 0u);
      ASSERT_EQ(mine.circled, mine_before.circled | action.cells);
      ASSERT_EQ(mine.crossed, mine_before.crossed);
    } else {
      // R3.5: every free cell of the column is crossed, nothing else.
      ++stats->failures;
      ASSERT_EQ(mine.circled, mine_before.circled);
      ASSERT_EQ(mine.crossed, mine_before.crossed | (mine_before.free() & Column(action.face)));
    }
    // R4.1/R4.2/R4.3: lines completed (all five circled) by this turn, by hand.
    uint32_t blocked = 0;
    for (int i = 1; i <= 5; ++i) {
      bool row_done = (mine_before.circled & Row(i)) != Row(i) && (mine.circled & Row(i)) == Row(i);
      bool col_done =
          (mine_before.circled & Column(i)) != Column(i) && (mine.circled & Column(i)) == Column(i);
      if (row_done && rules.penk_rows) blocked |= Row(i);
      if (row_done && !rules.penk_rows) ++stats->rows_completed_columns_rule;
      if (col_done) blocked |= Column(i);
    }
    for (int q = 0; q < players; ++q) {
      if (q == p) continue;
      const Sheet& b = before.sheets[q];
      Sheet expect = b;
      expect.crossed |= b.free() & blocked;
      ASSERT_EQ(after.sheets[q], expect)
          << "player " << q << " before " << FormatSheet(b) << " after "
          << FormatSheet(after.sheets[q]) << " turn of " << p << " "
          << FormatSheet(mine_before) << " -> " << FormatSheet(mine);
      if (expect.crossed != b.crossed) ++stats->penks_on_others;
      // Other players' turn counts: only skipped turns (R3.6) of full sheets.
      if (after.turns[q] != before.turns[q]) {
        ASSERT_EQ(after.turns[q], before.turns[q] + 1);
        ASSERT_EQ(after.sheets[q].free(), 0u) << "only a full sheet skips a turn (R3.6)";
      }
    }
    // R5.2: the round of the turn in which some sheet first has two closed columns.
    if (first_round_with_two_closed == 0) {
      for (int q = 0; q < players; ++q)
        if (ClosedColumnsByHand(after.sheets[q]) >= 2) first_round_with_two_closed = after.turns[p];
    }
    if (first_round_with_two_closed == 0) {
      ASSERT_FALSE(game.over()) << "no sheet has two closed columns yet";
      ASSERT_FALSE(game.last_round());
    } else {
      ASSERT_TRUE(game.last_round());
      // Over exactly when every player has played that round.
      bool all_done = true;
      for (int q = 0; q < players; ++q) {
        ASSERT_LE(after.turns[q], first_round_with_two_closed) << "a turn after the last round";
        all_done &= after.turns[q] == first_round_with_two_closed;
      }
      ASSERT_EQ(game.over(), all_done);
    }
    if (!game.over()) {
      ASSERT_EQ(game.phase(), Phase::kKeep);
      ASSERT_EQ(game.rerolls_left(), 2);
      // The next player to roll is the first after p whose sheet has a free cell.
      int next = (p + 1) % players;
      while (game.sheet(next).free() == 0) next = (next + 1) % players;
      ASSERT_EQ(game.current(), next);
    }
  }
  // End of the game.
  ASSERT_GT(first_round_with_two_closed, 0) << "the game ended without two closed columns";
  ASSERT_TRUE(game.LegalActions().empty());
  for (int q = 0; q < players; ++q) {
    ASSERT_EQ(game.turns(q), first_round_with_two_closed) << "same number of turns (R5.2)";
    ASSERT_GE(game.Score(q), 0);
    ASSERT_LE(game.Score(q), 190);
    ASSERT_EQ(game.Score(q), Score(game.sheet(q), rules));
  }
  bool some_two_closed = false;
  for (int q = 0; q < players; ++q) some_two_closed |= ClosedColumnsByHand(game.sheet(q)) >= 2;
  ASSERT_TRUE(some_two_closed);
}

Rules ColumnsOnly() {
  Rules r;
  r.penk_rows = false;
  return r;
}

class RandomGamesTest : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(RandomGamesTest, EveryStepFollowsTheRules) {
  const int players = std::get<0>(GetParam());
  const Rules rules = std::get<1>(GetParam()) ? Rules{} : ColumnsOnly();
  GameStats stats;
  const int kGames = 1000;
  for (int i = 0; i < kGames; ++i) {
    const uint64_t seed = 1000003ull * players + 17 * i + (rules.penk_rows ? 0 : 500);
    PlayAndCheck(players, rules, seed, /*by_text=*/i % 3 == 0, &stats);
    if (HasFatalFailure()) return;
  }
  // The checks above must have seen the interesting cases.
  EXPECT_GT(stats.failures, 0);
  RecordProperty("decisions", stats.decisions);
  RecordProperty("failures", stats.failures);
  RecordProperty("penks_on_others", stats.penks_on_others);
  if (players > 1) {
    EXPECT_GT(stats.penks_on_others, 0) << "no PENK ever crossed a cell";
  }
  if (players > 1 && !rules.penk_rows) {
    EXPECT_GT(stats.rows_completed_columns_rule, 0) << "no completed row under penk-lines=columns";
  }
}

INSTANTIATE_TEST_SUITE_P(AllSizesBothVariants, RandomGamesTest,
                         ::testing::Combine(::testing::Values(1, 2, 3, 4), ::testing::Bool()),
                         [](const auto& info) {
                           return std::to_string(std::get<0>(info.param)) + "players_" +
                                  (std::get<1>(info.param) ? "all" : "columns");
                         });

// Same seed and same decisions: the same game. A different seed: another game.
TEST(GameTest, Reproducible) {
  for (int players = 1; players <= 4; ++players) {
    Game a = *Game::Create(players, Rules{}, 4242);
    Game b = *Game::Create(players, Rules{}, 4242);
    Rng choose_a(5), choose_b(5);
    int steps = 0;
    while (!a.over()) {
      ASSERT_FALSE(b.over());
      ASSERT_EQ(Snap(a), Snap(b));
      std::vector<Action> la = a.LegalActions(), lb = b.LegalActions();
      ASSERT_EQ(la, lb);
      ASSERT_TRUE(a.Apply(la[choose_a.Below(la.size())]).ok());
      ASSERT_TRUE(b.Apply(lb[choose_b.Below(lb.size())]).ok());
      ++steps;
    }
    ASSERT_TRUE(b.over());
    ASSERT_EQ(Snap(a), Snap(b));
    EXPECT_GT(steps, 5);
  }
  // Different seeds give different first rolls at least sometimes.
  int different = 0;
  Dice first = Game::Create(1, Rules{}, 0)->dice();
  for (uint64_t seed = 1; seed <= 20; ++seed)
    different += !(Game::Create(1, Rules{}, seed)->dice() == first);
  EXPECT_GT(different, 10);
}

TEST(GameTest, CreateChecksPlayerCount) {
  EXPECT_FALSE(Game::Create(0, Rules{}, 1).ok());
  EXPECT_FALSE(Game::Create(5, Rules{}, 1).ok());
  EXPECT_FALSE(Game::Create(-1, Rules{}, 1).ok());
  for (int n = 1; n <= 4; ++n) {
    absl::StatusOr<Game> g = Game::Create(n, Rules{}, 1);
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g->players(), n);
    EXPECT_EQ(g->current(), 0);
    EXPECT_EQ(g->phase(), Phase::kKeep);
    EXPECT_EQ(g->rerolls_left(), 2);
    EXPECT_EQ(g->dice().size(), 6);  // R2.1
    for (int p = 0; p < n; ++p) EXPECT_EQ(g->sheet(p), Sheet{});
  }
}

// A refused text decision returns an error and leaves the game as it was,
// including its random source: the game continues exactly like an untouched copy.
void ExpectRefusedUnchanged(Game& game, const std::string& text) {
  Game copy = game;
  Snapshot before = Snap(game);
  absl::Status st = game.Apply(text);
  ASSERT_FALSE(st.ok()) << "\"" << text << "\" accepted in phase " << static_cast<int>(before.phase)
                        << " with dice " << FormatDice(before.dice);
  EXPECT_FALSE(st.message().empty());
  ASSERT_EQ(Snap(game), before) << text;
  // Same continuation as the copy: reroll everything if possible.
  std::vector<Action> la = game.LegalActions(), lb = copy.LegalActions();
  ASSERT_EQ(la, lb);
  if (!la.empty()) {
    Game g2 = game, c2 = copy;
    ASSERT_TRUE(g2.Apply(la[0]).ok());
    ASSERT_TRUE(c2.Apply(lb[0]).ok());
    ASSERT_EQ(Snap(g2), Snap(c2)) << "refused \"" << text << "\" changed the random source";
  }
}

// A keep text that is not part of `dice`: one die more of some face.
std::string KeepNotInRoll(const Dice& dice) {
  for (int f = 0; f < kFaces; ++f)
    if (dice.count[f] < 6) return std::string(dice.count[f] + 1, FaceChar(f));
  return "";
}

TEST(GameTest, ApplyTextInTheRightPhaseOnly) {
  int failures_seen = 0, markings_seen = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Game game = *Game::Create(2, Rules{}, seed);
    Rng chooser(seed);
    while (!game.over()) {
      if (game.phase() == Phase::kKeep) {
        // Markings, failures and keeps that are not part of the roll are refused.
        ExpectRefusedUnchanged(game, "3:1");
        ExpectRefusedUnchanged(game, "1:1+2:1");
        ExpectRefusedUnchanged(game, "fail:1");
        ExpectRefusedUnchanged(game, KeepNotInRoll(game.dice()));
        ExpectRefusedUnchanged(game, "1137x");
        ExpectRefusedUnchanged(game, "1111111");
        if (HasFatalFailure()) return;
        const int rerolls = game.rerolls_left();
        const Dice dice = game.dice();
        switch (chooser.Below(4)) {
          case 0: {  // "stop": the dice are final
            ASSERT_TRUE(game.Apply("stop").ok());
            EXPECT_EQ(game.phase(), Phase::kMark);
            EXPECT_EQ(game.dice(), dice);
            break;
          }
          case 1: {  // the whole roll as a keep is stopping too
            ASSERT_TRUE(game.Apply(FormatDice(dice)).ok());
            EXPECT_EQ(game.phase(), Phase::kMark);
            EXPECT_EQ(game.dice(), dice);
            break;
          }
          case 2: {  // "-": reroll everything
            ASSERT_TRUE(game.Apply("-").ok());
            EXPECT_EQ(game.rerolls_left(), rerolls - 1);
            EXPECT_EQ(game.phase(), rerolls == 1 ? Phase::kMark : Phase::kKeep);
            break;
          }
          default: {  // keep the most frequent number face, spelled with separators
            int best = 0;
            for (int f = 1; f < kNumberFaces; ++f)
              if (dice.count[f] > dice.count[best]) best = f;
            std::string text;
            for (int i = 0; i < dice.count[best]; ++i) text += std::string(i ? ", " : "") + FaceChar(best);
            if (text.empty()) text = "-";
            ASSERT_TRUE(game.Apply(text).ok()) << text;
            Dice kept;
            kept.count[best] = dice.count[best];
            EXPECT_TRUE(game.dice().Contains(kept));
            EXPECT_EQ(game.rerolls_left(), rerolls - 1);
          }
        }
        continue;
      }
      ASSERT_EQ(game.phase(), Phase::kMark);
      const int p = game.current();
      const Sheet sheet = game.sheet(p);
      std::vector<uint32_t> legal = LegalMarkings(sheet, game.dice());
      // Keeps are refused once the dice are final.
      ExpectRefusedUnchanged(game, "stop");
      ExpectRefusedUnchanged(game, "-");
      ExpectRefusedUnchanged(game, FormatDice(game.dice()));
      ExpectRefusedUnchanged(game, "fail:0");
      ExpectRefusedUnchanged(game, "fail:6");
      ExpectRefusedUnchanged(game, "fail:x");
      ExpectRefusedUnchanged(game, "9:9");
      // A marking outside the legal set is refused.
      for (int v = 1; v <= 5; ++v)
        for (int k = 1; k <= 5; ++k)
          if (std::find(legal.begin(), legal.end(), Bit(v, k)) == legal.end())
            ExpectRefusedUnchanged(game, std::to_string(v) + ":" + std::to_string(k));
      if (HasFatalFailure()) return;
      if (!legal.empty()) {
        // A failure is refused while a marking exists (R3.4).
        for (int v = 1; v <= 5; ++v) ExpectRefusedUnchanged(game, "fail:" + std::to_string(v));
        uint32_t cells = legal[chooser.Below(legal.size())];
        ASSERT_TRUE(game.Apply(FormatMarking(cells)).ok()) << FormatMarking(cells);
        EXPECT_EQ(game.sheet(p).circled, sheet.circled | cells);
        ++markings_seen;
      } else {
        // Failure on a closed column is refused; on an open one accepted (R3.5).
        int open = 0;
        for (int v = 1; v <= 5; ++v) {
          if (sheet.free() & Column(v)) {
            if (!open) open = v;
          } else {
            ExpectRefusedUnchanged(game, "fail:" + std::to_string(v));
          }
        }
        ASSERT_GT(open, 0);
        ASSERT_TRUE(game.Apply("fail:" + std::to_string(open)).ok());
        EXPECT_EQ(game.sheet(p).crossed, sheet.crossed | (sheet.free() & Column(open)));
        ++failures_seen;
      }
      if (HasFatalFailure()) return;
    }
    // Nothing is accepted once the game is over.
    for (const char* text : {"stop", "-", "1:1", "fail:1"}) {
      Snapshot before = Snap(game);
      EXPECT_FALSE(game.Apply(text).ok()) << text;
      EXPECT_EQ(Snap(game), before);
    }
  }
  EXPECT_GT(failures_seen, 0);
  EXPECT_GT(markings_seen, 0);
}

// R5.2: in solitaire the game ends at the end of the turn that leaves two
// closed columns, and not before.
TEST(GameTest, SolitaireEndsAtTheTurnWithTwoClosedColumns) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Game game = *Game::Create(1, Rules{}, seed);
    Rng chooser(seed + 1);
    int turns = 0;
    while (!game.over()) {
      std::vector<Action> legal = game.LegalActions();
      const Action a = legal[chooser.Below(legal.size())];
      ASSERT_TRUE(game.Apply(a).ok());
      if (a.kind == Action::kKeep) continue;
      ++turns;
      ASSERT_EQ(game.turns(0), turns);
      ASSERT_EQ(game.over(), ClosedColumnsByHand(game.sheet(0)) >= 2) << FormatSheet(game.sheet(0));
    }
  }
}

}  // namespace
}  // namespace penk
