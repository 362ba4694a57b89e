// The solitaire solver against an independent brute force (issue 3, item 5).
//
// The brute force below shares only the markings with the code under test
// (LegalMarkings / FailureColumns, themselves checked against a brute force in
// marking_test). It has its own dice probabilities (enumerating outcomes die by
// die), its own keep enumeration (subsets of dice positions), no keep lattice,
// no canonical positions (it memoises raw sheets) and no tables.
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "engine/score.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/shared_tables.h"
#include "solver/advisor.h"
#include "solver/objective.h"
#include "solver/solitaire_dp.h"
#include "solver/turn_solver.h"

namespace penk {
namespace {

using Counts = std::array<int, 6>;

int Pack(const Counts& c) {
  int p = 0;
  for (int x : c) p = p * 7 + x;
  return p;
}

Dice ToDice(const Counts& c) {
  Dice d;
  for (int f = 0; f < 6; ++f) d.count[f] = static_cast<uint8_t>(c[f]);
  return d;
}

class BruteForce {
 public:
  // `target` >= 0: the value of a finished sheet is 1 if its score reaches
  // the target, else 0 (the target objective); -1: its score.
  explicit BruteForce(const Rules& rules, int target = -1) : rules_(rules), target_(target) {
    // All rolls as count vectors, with probabilities from 6^6 sequences.
    std::map<int, int> seen;
    for (int seq = 0; seq < 46656; ++seq) {
      Counts c{};
      for (int i = 0, s = seq; i < 6; ++i, s /= 6) ++c[s % 6];
      if (seen[Pack(c)]++ == 0) rolls_.push_back(c);
    }
    for (const Counts& c : rolls_) prob_.push_back(seen[Pack(c)] / 46656.0);
  }

  // R5.2: value at the start of a turn in solitaire.
  double Value(const Sheet& sheet) {
    if (sheet.ClosedColumns() >= 2) {
      const int score = Score(sheet, rules_);
      return target_ < 0 ? score : score >= target_ ? 1.0 : 0.0;
    }
    auto key = std::make_pair(sheet.circled, sheet.crossed);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    Turn turn(this, sheet);
    double v = 0;
    for (size_t i = 0; i < rolls_.size(); ++i) v += prob_[i] * turn.RollValue(rolls_[i], 2);
    memo_[key] = v;
    return v;
  }

  // Value of holding `roll` with `rerolls` left on `sheet`.
  double RollValue(const Sheet& sheet, const Dice& roll, int rerolls) {
    Counts c{};
    for (int f = 0; f < 6; ++f) c[f] = roll.count[f];
    Turn turn(this, sheet);
    return turn.RollValue(c, rerolls);
  }

 private:
  struct Turn {
    BruteForce* bf;
    Sheet sheet;
    std::vector<double> memo[3];
    std::vector<double> keep_memo[3];
    Turn(BruteForce* b, const Sheet& s) : bf(b), sheet(s) {
      for (auto& m : memo) m.assign(117649, NAN);
      for (auto& m : keep_memo) m.assign(117649, NAN);
    }
    double Final(const Counts& roll) {
      double best = -1e300;
      Dice d = ToDice(roll);
      std::vector<uint32_t> marks = LegalMarkings(sheet, d);
      for (uint32_t cells : marks) {
        Sheet next = sheet;
        next.circled |= cells;
        best = std::max(best, bf->Value(next));
      }
      if (marks.empty())
        for (int v : FailureColumns(sheet)) {
          Sheet next = sheet;
          next.crossed |= next.free() & ColumnMask(v);
          best = std::max(best, bf->Value(next));
        }
      return best;
    }
    double RollValue(const Counts& roll, int n) {
      double& m = memo[n][Pack(roll)];
      if (!std::isnan(m)) return m;
      double best = Final(roll);  // stop (or no rerolls left)
      if (n > 0) {
        std::array<int, 6> dice{};
        for (int f = 0, i = 0; f < 6; ++f)
          for (int j = 0; j < roll[f]; ++j) dice[i++] = f;
        for (int subset = 0; subset < 63; ++subset) {  // 63 = keep all = stop
          Counts keep{};
          for (int i = 0; i < 6; ++i)
            if (subset >> i & 1) ++keep[dice[i]];
          best = std::max(best, KeepValue(keep, n));
        }
      }
      return m = best;
    }
    // Keep `keep`, reroll the others die by die: 6^m equally likely outcomes.
    double KeepValue(const Counts& keep, int n) {
      double& m = keep_memo[n][Pack(keep)];
      if (!std::isnan(m)) return m;
      int kept = 0;
      for (int x : keep) kept += x;
      int free_dice = 6 - kept, outcomes = 1;
      for (int i = 0; i < free_dice; ++i) outcomes *= 6;
      double sum = 0;
      for (int seq = 0; seq < outcomes; ++seq) {
        Counts c = keep;
        for (int i = 0, s = seq; i < free_dice; ++i, s /= 6) ++c[s % 6];
        sum += RollValue(c, n - 1);
      }
      return m = sum / outcomes;
    }
  };

  Rules rules_;
  int target_ = -1;
  std::vector<Counts> rolls_;
  std::vector<double> prob_;
  std::map<std::pair<uint32_t, uint32_t>, double> memo_;
};

// A random live solitaire sheet with `free` free cells (at least 4: a live
// sheet has at most one closed column, so four columns keep a free cell).
Sheet RandomSolitaireSheet(Rng& rng, int free, bool with_closed) {
  for (;;) {
    Sheet s;
    if (with_closed) {
      int v = 1 + rng.Below(5);
      for (int k = 1; k <= 5; ++k)
        (rng.Below(2) ? s.circled : s.crossed) |= CellBit(v, k);
    }
    while (s.FreeCount() > free) {
      int cell = rng.Below(25);
      if (s.free() >> cell & 1) s.circled |= 1u << cell;
    }
    if (s.ClosedColumns() <= 1 && s.FreeCount() == free) return s;
    EXPECT_GE(free, 4) << "no live sheet has fewer than 4 free cells";
  }
}

class SolverTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    table_ = new SolitaireTable(testing_support::SharedTable(kMaxFree));
  }
  static constexpr int kMaxFree = 10;
  static SolitaireTable* table_;
};
SolitaireTable* SolverTest::table_ = nullptr;

TEST_F(SolverTest, TableMatchesBruteForceOnSmallPositions) {
  Rng rng(11);
  BruteForce bf(Rules{});
  for (int i = 0; i < 40; ++i) {
    Sheet s = RandomSolitaireSheet(rng, 4 + i % 4, i % 3 == 0);
    SCOPED_TRACE(FormatSheet(s));
    EXPECT_NEAR(*table_->Value(s), bf.Value(s), 1e-9);
  }
}

TEST_F(SolverTest, LineMinVariantMatchesBruteForce) {
  Rules rules;
  rules.line_min = 1;  // R6.5
  SolitaireTable t = BuildSolitaireTable(rules, 4);
  BruteForce bf(rules);
  Rng rng(5);
  for (int i = 0; i < 6; ++i) {
    Sheet s = RandomSolitaireSheet(rng, 4, i % 2 == 0);
    SCOPED_TRACE(FormatSheet(s));
    EXPECT_NEAR(*t.Value(s), bf.Value(s), 1e-9);
  }
}

// The target objective (issue 13): the same induction with a 0/1 leaf, so the
// values are the best probabilities of a final score of at least X. Targets
// are taken between the sheet's score and its score with every free cell
// circled, where the probability is neither 0 nor 1.
TEST_F(SolverTest, TargetObjectiveMatchesBruteForce) {
  Rng rng(29);
  int strictly_between = 0;
  for (int i = 0; i < 8; ++i) {
    const int free = 4 + i % 3;
    Sheet s = RandomSolitaireSheet(rng, free, i % 4 == 0);
    Sheet full = s;
    full.circled |= s.free();
    const int low = Score(s, Rules{}), high = Score(full, Rules{});
    const int target = low + (high - low) * (1 + i % 3) / 4;
    SCOPED_TRACE(absl::StrCat(FormatSheet(s), " target ", target));
    SolitaireTable t = BuildSolitaireTable(Rules{}, free, nullptr, 0, Objective{target});
    EXPECT_EQ(t.objective().target, target);
    BruteForce bf(Rules{}, target);
    const double p = *t.Value(s);
    EXPECT_NEAR(p, bf.Value(s), 2e-10);  // the tie-break moves values by at most 1e-10
    EXPECT_GE(p, 0.0);
    EXPECT_LE(p, 1.0 + 1e-10);
    strictly_between += p > 1e-9 && p < 1 - 1e-9;
    // The advisor ranks by the same probabilities: the best keep of a roll
    // is worth exactly the brute force's value of holding that roll.
    Dice roll = *ParseRoll("11335J");
    std::vector<RankedAction> ranked = *RankActions(t, s, roll, 2);
    EXPECT_NEAR(ranked.front().value, bf.RollValue(s, roll, 2), 2e-10);
  }
  EXPECT_GE(strictly_between, 4) << "the targets should make most probabilities non-trivial";
}

// The leaf of each objective, by hand.
TEST(ObjectiveTest, LeafParseAndFormat) {
  EXPECT_EQ(Objective{}.Leaf(37), 37.0);
  EXPECT_NEAR(Objective{40}.Leaf(39), 0.0, 1e-10);
  EXPECT_NEAR(Objective{40}.Leaf(40), 1.0, 1e-10);
  EXPECT_EQ(Objective{0}.Leaf(0), 1.0);
  // The tie-break: a higher score is worth more at equal reach, never more
  // than reaching the target.
  EXPECT_GT(Objective{40}.Leaf(41), Objective{40}.Leaf(40));
  EXPECT_GT(Objective{40}.Leaf(40), Objective{40}.Leaf(39));
  EXPECT_LT(Objective{190}.Leaf(189), Objective{0}.Leaf(0));  // missing never beats reaching
  EXPECT_EQ(ParseObjective("target=150")->target, 150);
  EXPECT_EQ(ParseObjective("mean")->target, -1);
  EXPECT_EQ(ParseObjective("")->target, -1);
  EXPECT_EQ(FormatObjective(Objective{150}), "target=150");
  EXPECT_EQ(FormatObjective(Objective{}), "mean");
  for (const char* bad : {"target=191", "target=-1", "target=", "target=1e2", "target=0150",
                          "median", "target= 5", "TARGET=5"}) {
    SCOPED_TRACE(bad);
    absl::StatusOr<Objective> o = ParseObjective(bad);
    ASSERT_FALSE(o.ok());
    EXPECT_NE(o.status().message().find("expected mean or target=X"), absl::string_view::npos);
  }
}

// The static site's two workers build a table in shares (TableBuild): each
// solves part of every layer and the other sets those values. Any split
// gives BuildSolitaireTable's table bit for bit; here two builds that each
// solve one end of every layer and take the other's values.
TEST(TableBuildTest, TwoBuildsTradingSharesGiveTheSameTable) {
  for (uint32_t blocked : {0u, 0b01011u}) {
    SCOPED_TRACE(blocked);
    const SolitaireTable whole = BuildSolitaireTable(Rules{}, 7, nullptr, blocked);
    TableBuild a(Rules{}, 7, blocked, Objective{}), b(Rules{}, 7, blocked, Objective{});
    ASSERT_EQ(a.layer_count(), b.layer_count());
    int64_t positions = 0;
    for (int layer = 0; layer < a.layer_count(); ++layer) {
      const size_t n = a.layer_size(layer), cut = n / 3;  // unequal shares
      positions += static_cast<int64_t>(n);
      a.Solve(layer, 0, cut);
      b.Solve(layer, cut, n);
      std::vector<double> from_a(cut), from_b(n - cut);
      a.Values(layer, 0, cut, from_a.data());
      b.Values(layer, cut, n, from_b.data());
      a.Set(layer, cut, n, from_b.data());
      b.Set(layer, 0, cut, from_a.data());
    }
    EXPECT_EQ(positions, a.positions());
    EXPECT_GT(positions, 0);
    for (const TableBuild* build : {&a, &b}) {
      const std::vector<double>& v = build->table().values();
      ASSERT_EQ(v.size(), whole.values().size());
      EXPECT_EQ(std::memcmp(v.data(), whole.values().data(), v.size() * sizeof(double)), 0);
    }
  }
}

// Rows crossed by opponents' PENKs (R4.2): a solitaire game on fewer cells.
TEST_F(SolverTest, BlockedRowsMatchBruteForce) {
  BruteForce bf(Rules{});
  Rng rng(77);
  for (uint32_t blocked : {0b00001u, 0b10010u}) {
    SolitaireTable t = BuildSolitaireTable(Rules{}, 6, nullptr, blocked);
    uint32_t cells = 0;
    for (int k = 1; k <= 5; ++k)
      if (blocked >> (k - 1) & 1) cells |= RowMask(k);
    for (int i = 0; i < 6; ++i) {
      Sheet s;
      do {
        s = RandomSolitaireSheet(rng, 4 + rng.Below(6), false);
        s.crossed |= cells & ~s.circled;  // the PENK crosses the row's free cells
      } while (s.ClosedColumns() >= 2 || s.FreeCount() > 6 ||
               (s.crossed & ~cells) != 0);
      SCOPED_TRACE(FormatSheet(s));
      ASSERT_TRUE(t.Value(s).ok()) << t.Value(s).status();
      EXPECT_NEAR(*t.Value(s), bf.Value(s), 1e-9);
      // The solitaire table refuses it unless the crossing fell in closed columns only.
      EXPECT_EQ(table_->Value(s).ok(), PositionOfSheet(s)->blocked_rows == 0);
    }
  }
}

TEST_F(SolverTest, FinishedSheetIsWorthItsScore) {
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    Sheet s;
    s.circled = static_cast<uint32_t>(rng.Next()) & kAllCells;
    int a = 1 + rng.Below(5), b = 1 + (a + rng.Below(4)) % 5;  // two distinct columns
    s.crossed = (ColumnMask(a) | ColumnMask(b)) & ~s.circled;
    ASSERT_GE(s.ClosedColumns(), 2);
    EXPECT_EQ(*table_->Value(s), Score(s, Rules{})) << FormatSheet(s);
  }
}

TEST_F(SolverTest, ColumnOrderDoesNotMatter) {
  // Faces are symmetric (R6): permuting columns keeps the value.
  Rng rng(8);
  for (int i = 0; i < 50; ++i) {
    Sheet s = RandomSolitaireSheet(rng, 4 + i % (kMaxFree - 3), i % 2);
    Sheet swapped;
    for (int k = 1; k <= 5; ++k)
      for (int v = 1; v <= 5; ++v) {
        int w = v == 1 ? 5 : v == 5 ? 1 : v;  // swap columns 1 and 5
        if (s.circled & CellBit(v, k)) swapped.circled |= CellBit(w, k);
        if (s.crossed & CellBit(v, k)) swapped.crossed |= CellBit(w, k);
      }
    EXPECT_EQ(*table_->Value(s), *table_->Value(swapped));
  }
}

TEST_F(SolverTest, HintBestActionHasThePositionsValue) {
  Rng rng(21);
  const DiceSpace& space = DiceSpace::Get();
  BruteForce bf(Rules{});
  for (int i = 0; i < 10; ++i) {
    Sheet s = RandomSolitaireSheet(rng, 4 + i % 4, i % 2);
    TurnValues turn = *SolveSolitaireTurn(*table_, s);
    EXPECT_NEAR(turn.start, *table_->Value(s), 1e-9);
    for (int j = 0; j < 20; ++j) {
      int r = rng.Below(kNumRolls);
      for (int n = 0; n <= 2; ++n) {
        std::vector<RankedAction> ranked = *RankActions(*table_, s, space.roll(r), n);
        ASSERT_FALSE(ranked.empty());
        EXPECT_EQ(ranked.front().value, turn.roll[n][r]);
        for (size_t a = 1; a < ranked.size(); ++a) EXPECT_LE(ranked[a].value, ranked[a - 1].value);
        if (j < 2) {
          EXPECT_NEAR(ranked.front().value, bf.RollValue(s, space.roll(r), n), 1e-9);
        }
      }
    }
  }
}

TEST_F(SolverTest, RankActionsRefusesBadPositions) {
  Sheet over;
  over.crossed = ColumnMask(1) | ColumnMask(2);
  Dice roll = *ParseRoll("11335J");
  EXPECT_FALSE(RankActions(*table_, over, roll, 2).ok());
  EXPECT_FALSE(RankActions(*table_, Sheet{}, roll, 2).ok());  // beyond the solved depth
  Sheet s = *ParseSheet("ooooo/ooooo/ooooo/oo.../.....");
  EXPECT_FALSE(RankActions(*table_, s, roll, 3).ok());
  Sheet multiplayer = *ParseSheet("ooooo/ooooo/ooooo/oox../.....");  // crossed in an open column
  EXPECT_FALSE(RankActions(*table_, multiplayer, roll, 1).ok());
}

// A seeded simulation of the optimal policy averages the table's value.
TEST_F(SolverTest, SimulationAgreesWithTheTable) {
  const Sheet start = *ParseSheet("o.o.o/.o.oo/oo..o/o.ooo/oo.o.");  // 10 free cells
  const double expected = *table_->Value(start);
  const DiceSpace& space = DiceSpace::Get();
  Rng rng(2026);
  const int games = 20000;
  double sum = 0, sum2 = 0;
  for (int g = 0; g < games; ++g) {
    Sheet s = start;
    while (s.ClosedColumns() < 2) {
      TurnValues turn = *SolveSolitaireTurn(*table_, s);
      Dice dice;
      for (int i = 0; i < 6; ++i) ++dice.count[rng.Die()];
      for (int n = 2; n >= 1; --n) {
        std::vector<RankedAction> ranked = RankActions(turn, *table_, s, dice, n);
        const Dice keep = ranked.front().action.keep;
        if (keep.size() == kDice) break;  // stop
        dice = keep;
        for (int i = keep.size(); i < 6; ++i) ++dice.count[rng.Die()];
      }
      const Action a = RankActions(turn, *table_, s, dice, 0).front().action;
      if (a.kind == Action::kMark) s.circled |= a.cells;
      else s.crossed |= s.free() & ColumnMask(a.face);
    }
    double score = Score(s, Rules{});
    sum += score;
    sum2 += score * score;
  }
  double mean = sum / games, sd = std::sqrt(sum2 / games - mean * mean);
  double half = 2.576 * sd / std::sqrt(games);  // 99% interval
  EXPECT_NEAR(mean, expected, half) << "sd " << sd;
  (void)space;
}

}  // namespace
}  // namespace penk
