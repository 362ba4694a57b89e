// Strategy tables, exact score distributions and rule variants (issue 5).
//
// The forward propagation of solver/distribution.cc is checked three ways:
// its mean is the table's value (the same policy, expectation by backward
// induction); its whole distribution equals an independent brute force on
// small positions (die-by-die dice enumeration, real sheets, RankActions for
// every decision, no keep lattice, no canonical positions); its policy's
// choices are RankActions' (penk hint); the greedy policy's choices and the
// strategy table's rows are checked against a brute force of one turn
// (tests/brute_turn.h) rather than against the code they call.
// The CLI part runs the real binary on endgame tables (--max-free).
#include <omp.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "engine/score.h"
#include "gtest/gtest.h"
#include "tests/brute_turn.h"
#include "tests/penk_process.h"
#include "tests/shared_tables.h"
#include "solver/advisor.h"
#include "ai/bot.h"
#include "ai/greedy_policy.h"
#include "ai/sampled_scores.h"
#include "solver/distribution.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "solver/strategy.h"

namespace penk {
namespace {

namespace fs = std::filesystem;

// A random live solitaire sheet with `free` free cells (4..25; at most 20
// with `with_closed`), with one failed (closed) column when `with_closed`.
Sheet RandomSheet(Rng& rng, int free, bool with_closed) {
  for (;;) {
    Sheet s;
    if (with_closed) {
      int v = 1 + rng.Below(5);
      for (int k = 1; k <= 5; ++k) (rng.Below(2) ? s.circled : s.crossed) |= CellBit(v, k);
    }
    while (s.FreeCount() > free) {
      int cell = rng.Below(25);
      if (s.free() >> cell & 1) s.circled |= 1u << cell;
    }
    if (s.ClosedColumns() <= 1 && s.FreeCount() == free) return s;
  }
}

// Column v-1 = face v, as the policies take them.
ColumnCodes CodesOf(const Sheet& sheet) {
  ColumnCodes c{};
  for (int v = 1; v <= kColumns; ++v) {
    uint32_t rows = ColumnRows(sheet.circled, v);
    c[v - 1] = static_cast<uint8_t>(sheet.ColumnClosed(v) ? kClosedBase + rows : rows);
  }
  return c;
}

// ------------------------------------------------------------ brute force

// The score distribution of `sheet` under hint's policy, by enumeration:
// every die of every (re)roll separately (6^m equally likely sequences),
// decisions by RankActions on the real sheet, successors as real sheets.
class BruteDistribution {
 public:
  BruteDistribution(const SolitaireTable& table) : table_(table) {
    for (int seq = 0; seq < 46656; ++seq) {
      Dice d;
      for (int i = 0, s = seq; i < 6; ++i, s /= 6) ++d.count[s % 6];
      first_[DiceSpace::Get().RollIndex(d)] += 1.0 / 46656;
    }
  }

  std::map<int, double> Of(const Sheet& sheet) {
    if (sheet.ClosedColumns() >= 2) return {{Score(sheet, table_.rules()), 1.0}};  // R5.2
    auto key = std::make_pair(sheet.circled, sheet.crossed);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const TurnValues turn = *SolveSolitaireTurn(table_, sheet);
    // Distribution over final rolls: stage by stage from the first roll.
    std::vector<double> held = first_;
    std::vector<double> final(kNumRolls, 0.0);
    for (int n = 2; n >= 1; --n) {
      std::map<int, double> kept;  // keep index -> mass that rerolls the rest
      for (int r = 0; r < kNumRolls; ++r) {
        if (held[r] == 0) continue;
        const Dice keep = RankActions(turn, table_, sheet, DiceSpace::Get().roll(r), n)
                              .front()
                              .action.keep;
        if (keep.size() == kDice)  // stop (R2.2)
          final[r] += held[r];
        else
          kept[DiceSpace::Get().KeepIndex(keep)] += held[r];
      }
      std::vector<double> next(kNumRolls, 0.0);
      for (const auto& [k, p] : kept) {
        const Dice keep = DiceSpace::Get().keep(k);
        const int m = kDice - keep.size();
        int outcomes = 1;
        for (int i = 0; i < m; ++i) outcomes *= 6;
        for (int seq = 0; seq < outcomes; ++seq) {
          Dice d = keep;
          for (int i = 0, s = seq; i < m; ++i, s /= 6) ++d.count[s % 6];
          next[DiceSpace::Get().RollIndex(d)] += p / outcomes;
        }
      }
      held = next;
    }
    std::map<int, double> out;
    for (int r = 0; r < kNumRolls; ++r) {
      double p = final[r] + held[r];
      if (p == 0) continue;
      const Action a = RankActions(turn, table_, sheet, DiceSpace::Get().roll(r), 0).front().action;
      Sheet next = sheet;
      if (a.kind == Action::kMark) next.circled |= a.cells;            // R3.2
      else next.crossed |= next.free() & ColumnMask(a.face);           // R3.5
      for (const auto& [score, q] : Of(next)) out[score] += p * q;
    }
    return memo_[key] = out;
  }

 private:
  const SolitaireTable& table_;
  std::vector<double> first_ = std::vector<double>(kNumRolls, 0.0);
  std::map<std::pair<uint32_t, uint32_t>, std::map<int, double>> memo_;
};

class AnalysisTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { table_ = new SolitaireTable(testing_support::SharedTable(kMaxFree)); }
  static constexpr int kMaxFree = 8;
  static SolitaireTable* table_;
};
SolitaireTable* AnalysisTest::table_ = nullptr;

TEST_F(AnalysisTest, FinalRollMassIsTheDiceTransitionLaw) {
  // Random keep choices; the lattice push must equal the direct law of
  // DiceSpace::Transition applied stage by stage.
  const DiceSpace& space = DiceSpace::Get();
  Rng rng(4);
  TurnChoices c;
  for (int n = 0; n < kRerolls; ++n)
    for (int r = 0; r < kNumRolls; ++r) {
      const std::vector<int16_t>& subs = space.SubKeeps(r);
      c.keep[n][r] = subs[rng.Below(static_cast<uint32_t>(subs.size()))];
    }
  std::array<double, kNumRolls> mass = FinalRollMass(c);
  std::vector<double> held(kNumRolls), final(kNumRolls, 0.0);
  for (int r = 0; r < kNumRolls; ++r) held[r] = space.RollProbability(r);
  for (int n = 2; n >= 1; --n) {
    std::vector<double> next(kNumRolls, 0.0);
    for (int r = 0; r < kNumRolls; ++r) {
      int k = c.keep[n - 1][r];
      if (k >= kNumKeepsBelowSix) {
        final[r] += held[r];
        continue;
      }
      for (int r2 = 0; r2 < kNumRolls; ++r2) next[r2] += held[r] * space.Transition(k, r2);
    }
    held = next;
  }
  double total = 0;
  for (int r = 0; r < kNumRolls; ++r) {
    EXPECT_NEAR(mass[r], final[r] + held[r], 1e-15);
    total += mass[r];
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
}

// The optimal policy chooses what `penk hint` ranks first, at every decision.
TEST_F(AnalysisTest, OptimalPolicyIsHintsFirstChoice) {
  const DiceSpace& space = DiceSpace::Get();
  std::unique_ptr<TurnPolicy> policy = OptimalPolicy(*table_);
  Rng rng(9);
  TurnChoices c;
  for (int i = 0; i < 6; ++i) {
    Sheet s = RandomSheet(rng, 4 + i % (kMaxFree - 3), i % 2 == 1);
    SCOPED_TRACE(FormatSheet(s));
    policy->Decide(CodesOf(s), c);
    const TurnValues turn = *SolveSolitaireTurn(*table_, s);
    for (int r = 0; r < kNumRolls; ++r) {
      for (int n = 1; n <= 2; ++n)
        ASSERT_EQ(space.keep(c.keep[n - 1][r]),
                  RankActions(turn, *table_, s, space.roll(r), n).front().action.keep)
            << "roll " << FormatDice(space.roll(r)) << " rerolls " << n;
      const Action a = RankActions(turn, *table_, s, space.roll(r), 0).front().action;
      if (a.kind == Action::kMark)
        ASSERT_EQ(MarkingCatalog::Get().cells(c.action[r]), a.cells);
      else
        ASSERT_EQ(c.action[r], -a.face);
    }
  }
}

// The greedy policy maximises this turn's expected score gain (ai/bot.h),
// checked against a brute force written here (tests/brute_turn.h: every keep,
// every die of every reroll, no keep lattice, no SolveTurn): each keep is
// worth the best value, stopping wins ties, the marking is the first legal
// one (canonical order) of the largest gain, and a failure crosses the
// column with the fewest circled, then fewest free cells, then the lowest.
TEST_F(AnalysisTest, GreedyPolicyIsTheBruteForceTurnMaximum) {
  using testing_support::BruteTurn;
  const DiceSpace& space = DiceSpace::Get();
  std::unique_ptr<TurnPolicy> policy = GreedyPolicy(Rules{});
  Rng rng(12);
  TurnChoices c;
  int unique_best = 0, stops_on_ties = 0, failures = 0;
  for (int i = 0; i < 6; ++i) {
    Sheet s = RandomSheet(rng, 4 + rng.Below(17), i % 3 == 0);
    SCOPED_TRACE(FormatSheet(s));
    policy->Decide(CodesOf(s), c);
    const int base = Score(s, Rules{});
    BruteTurn brute([&](const Dice& roll) {
      double best = -kGreedyFailurePenalty;  // R3.5: a failure gains nothing
      for (uint32_t cells : LegalMarkings(s, roll))
        best = std::max<double>(best, Score(testing_support::AfterMarking(s, cells), Rules{}) - base);
      return best;
    });
    for (int r = 0; r < kNumRolls; ++r) {
      const Dice roll = space.roll(r);
      SCOPED_TRACE(FormatDice(roll));
      for (int n = 1; n <= 2; ++n) {
        const Dice keep = space.keep(c.keep[n - 1][r]);
        ASSERT_TRUE(roll.Contains(keep)) << FormatDice(keep);
        const double best = brute.Best(roll, n);
        ASSERT_NEAR(brute.KeepValue(keep, n), best, 1e-9) << "keep " << FormatDice(keep) << " rerolls " << n;
        if (brute.KeepValue(roll, n) >= best - 1e-9) {  // stopping ties the best: stop
          ASSERT_EQ(keep, roll) << "rerolls " << n;
          ++stops_on_ties;
        }
        int near = 0;
        for (const Dice& k : BruteTurn::SubMultisets(roll)) near += brute.KeepValue(k, n) >= best - 1e-6;
        unique_best += near == 1;
      }
      const std::vector<uint32_t> legal = LegalMarkings(s, roll);  // canonical order
      if (legal.empty()) {
        ++failures;
        int want = 0, want_circled = 99, want_free = 99;
        for (int v : testing_support::ColumnsWithAFreeCell(s)) {
          const int circled = std::popcount(s.circled & ColumnMask(v));
          const int free = std::popcount(s.free() & ColumnMask(v));
          if (circled < want_circled || (circled == want_circled && free < want_free)) {
            want = v;
            want_circled = circled;
            want_free = free;
          }
        }
        ASSERT_EQ(c.action[r], -want);
        continue;
      }
      ASSERT_GE(c.action[r], 0);
      int best_gain = -1;
      uint32_t want = 0;
      for (uint32_t cells : legal) {
        const int gain = Score(testing_support::AfterMarking(s, cells), Rules{}) - base;
        if (gain > best_gain) {
          best_gain = gain;
          want = cells;
        }
      }
      ASSERT_EQ(FormatMarking(MarkingCatalog::Get().cells(c.action[r])), FormatMarking(want));
    }
  }
  // The checks above must have had something to decide.
  EXPECT_GT(unique_best, 1000);
  EXPECT_GT(stops_on_ties, 100);
  EXPECT_GT(failures, 10);
}

TEST_F(AnalysisTest, DistributionSumsToOneAndItsMeanIsTheValue) {
  Rng rng(31);
  for (int i = 0; i < 8; ++i) {
    Sheet s = RandomSheet(rng, 4 + i % (kMaxFree - 3), i % 3 == 0);
    SCOPED_TRACE(FormatSheet(s));
    ScoreDistribution d = *OptimalScoreDistribution(*table_, s);
    EXPECT_NEAR(d.Total(), 1.0, 1e-12);
    EXPECT_NEAR(d.Mean(), *table_->Value(s), 1e-6);
    for (double p : d.pmf) EXPECT_GE(p, 0.0);
    EXPECT_GE(d.ExpectedTurns(), 1.0);
    EXPECT_NEAR(d.turn_at[s.FreeCount()], 1.0, 1e-12);  // the first turn always happens
  }
}

TEST_F(AnalysisTest, DistributionEqualsBruteForce) {
  BruteDistribution brute(*table_);
  Rng rng(47);
  size_t scores = 0;
  for (int i = 0; i < 8; ++i) {
    Sheet s = RandomSheet(rng, 4 + i % 3, i % 2 == 1);
    SCOPED_TRACE(FormatSheet(s));
    ScoreDistribution d = *OptimalScoreDistribution(*table_, s);
    std::map<int, double> b = brute.Of(s);
    scores += b.size();
    for (int score = 0; score <= kMaxScore; ++score)
      EXPECT_NEAR(d.pmf[score], b.count(score) ? b[score] : 0.0, 1e-12) << "score " << score;
  }
  EXPECT_GT(scores, 30u) << "the positions should have spread-out distributions";
}

// The parallel part only computes transitions; the sums are taken in one
// fixed order, so the thread count cannot change a single bit.
TEST_F(AnalysisTest, DistributionIsTheSameWithAnyThreadCount) {
  const Sheet s = *ParseSheet("ooooo/o.o.o/.oo.o/oo..o/o.oo.");  // 8 free cells
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  ScoreDistribution one = *OptimalScoreDistribution(*table_, s);
  omp_set_num_threads(3);
  ScoreDistribution three = *OptimalScoreDistribution(*table_, s);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.pmf, three.pmf);
  EXPECT_EQ(one.turn_at, three.turn_at);
  EXPECT_EQ(one.failure_at, three.failure_at);
  EXPECT_GT(one.positions, 100);
}

TEST_F(AnalysisTest, FinishedSheetIsItsScore) {
  Sheet s = *ParseSheet("xo.../xo.../xo.../oo.../xo...");  // E5
  ScoreDistribution d = *OptimalScoreDistribution(*table_, s);
  EXPECT_EQ(d.pmf[Score(s, Rules{})], 1.0);
  EXPECT_EQ(d.Percentile(0.5), Score(s, Rules{}));
  EXPECT_EQ(d.StdDev(), 0.0);
}

TEST_F(AnalysisTest, PercentilesAndTails) {
  ScoreDistribution d;
  d.pmf[10] = 0.25;
  d.pmf[20] = 0.5;
  d.pmf[30] = 0.25;
  EXPECT_EQ(d.Percentile(0.01), 10);
  EXPECT_EQ(d.Percentile(0.25), 10);
  EXPECT_EQ(d.Percentile(0.5), 20);
  EXPECT_EQ(d.Percentile(0.76), 30);
  EXPECT_DOUBLE_EQ(d.AtLeast(20), 0.75);
  EXPECT_DOUBLE_EQ(d.Mean(), 20);
  EXPECT_NEAR(d.StdDev(), std::sqrt(50.0), 1e-12);
}

// No policy beats the optimal one: the greedy bot's exact mean is at most the
// value, on average strictly less.
TEST_F(AnalysisTest, GreedyIsNoBetterThanOptimal) {
  Rng rng(5);
  std::unique_ptr<TurnPolicy> greedy = GreedyPolicy(Rules{});
  double loss = 0;
  for (int i = 0; i < 6; ++i) {
    Sheet s = RandomSheet(rng, 5 + i % 4, false);
    ScoreDistribution g = *PropagateScores(s, Rules{}, *greedy);
    EXPECT_NEAR(g.Total(), 1.0, 1e-12);
    EXPECT_LE(g.Mean(), *table_->Value(s) + 1e-9) << FormatSheet(s);
    loss += *table_->Value(s) - g.Mean();
  }
  EXPECT_GT(loss, 0.0);
}

// R6.5 and R4.2 variants end to end in the library.
TEST_F(AnalysisTest, VariantsMeanIsTheirValue) {
  Rules one;
  one.line_min = 1;
  SolitaireTable t1 = BuildSolitaireTable(one, 5);
  SolitaireTable blocked = BuildSolitaireTable(Rules{}, 5, nullptr, 0b00100);  // row 3 PENKed
  Rng rng(8);
  for (int i = 0; i < 3; ++i) {
    Sheet s = RandomSheet(rng, 5, i == 1);
    EXPECT_NEAR(OptimalScoreDistribution(t1, s)->Mean(), *t1.Value(s), 1e-6);
  }
  Sheet b = *ParseSheet("ooooo/ooooo/xxoxx/o.o../.o.oo");
  ASSERT_TRUE(blocked.Value(b).ok()) << blocked.Value(b).status();
  EXPECT_NEAR(OptimalScoreDistribution(blocked, b)->Mean(), *blocked.Value(b), 1e-6);
  ASSERT_EQ(b.ClosedColumns(), 0);
  EXPECT_FALSE(OptimalScoreDistribution(*table_, b).ok());  // not a solitaire sheet
}

// Each row against a brute force written here (tests/brute_turn.h): the
// successors' values straight from the table (a finished sheet is its score,
// R5.2), every keep and every die of every reroll enumerated; the row's best
// action is worth the best value, its second the second best, and the
// probabilities are the multinomial chances of six fresh dice.
TEST_F(AnalysisTest, StrategyTableRows) {
  using testing_support::BruteTurn;
  Sheet s = *ParseSheet("ooooo/oo.oo/o.ooo/.oo.o/o..oo");  // 6 free
  auto value = [&](const Sheet& x) {
    return x.ClosedColumns() >= 2 ? static_cast<double>(Score(x, Rules{})) : *table_->Value(x);
  };
  BruteTurn brute(testing_support::SolitaireLeaf(s, value));
  int unique_best = 0;
  for (int n = 0; n <= 2; ++n) {
    StrategyTable t = *MakeStrategyTable(*table_, s, n);
    ASSERT_EQ(t.rows.size(), 462u);
    EXPECT_NEAR(t.value, *table_->Value(s), 1e-9);
    double expected = 0, total = 0;
    for (const StrategyRow& row : t.rows) {
      SCOPED_TRACE(FormatDice(row.roll) + " rerolls " + std::to_string(n));
      EXPECT_NEAR(row.probability, BruteTurn::RollProbability(row.roll), 1e-15);
      total += row.probability;
      // Every action of the roll with its brute-force value, best first.
      std::vector<double> values;
      double chosen = 0;
      if (n > 0) {
        ASSERT_EQ(row.best.action.kind, Action::kKeep);
        ASSERT_TRUE(row.roll.Contains(row.best.action.keep));
        for (const Dice& k : BruteTurn::SubMultisets(row.roll)) values.push_back(brute.KeepValue(k, n));
        chosen = brute.KeepValue(row.best.action.keep, n);
      } else {
        const std::vector<uint32_t> legal = LegalMarkings(s, row.roll);
        for (uint32_t cells : legal) values.push_back(value(testing_support::AfterMarking(s, cells)));
        if (legal.empty())
          for (int v : testing_support::ColumnsWithAFreeCell(s))
            values.push_back(value(testing_support::AfterFailure(s, v)));
        ASSERT_EQ(row.best.action.kind, legal.empty() ? Action::kFail : Action::kMark);
        chosen = row.best.action.kind == Action::kMark
                     ? value(testing_support::AfterMarking(s, row.best.action.cells))
                     : value(testing_support::AfterFailure(s, row.best.action.face));
      }
      std::sort(values.rbegin(), values.rend());
      EXPECT_NEAR(chosen, values[0], 1e-9);
      EXPECT_NEAR(row.best.value, values[0], 1e-9);
      ASSERT_EQ(row.second.has_value(), values.size() > 1);
      if (row.second) {
        EXPECT_NEAR(row.second->value, values[1], 1e-9);
      }
      unique_best += values.size() > 1 && values[0] - values[1] > 1e-6;
      expected += row.probability * values[0];
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
    if (n == 2) {
      EXPECT_NEAR(expected, t.value, 1e-9);
    }
  }
  EXPECT_GT(unique_best, 300) << "the rows must have a best action that matters";
  std::string csv = StrategyCsv(*MakeStrategyTable(*table_, s, 2));
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "roll,best,value,second,second_value,margin");
  EXPECT_FALSE(MakeStrategyTable(*table_, s, 3).ok());
}

// ---------------------------------------------------------------- the CLI

using Result = ::penk::testing_support::PenkRun;

std::vector<std::string> Lines(const std::string& text) {
  return ::penk::testing_support::SplitLines(text);
}

class AnalysisCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/penk_analysis_test_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    tmp_ = new fs::path(dir);
    // Nothing may build a full table by accident.
    setenv("PENK_TABLE_DIR", (*tmp_ / "none").c_str(), 1);
    Result r = Run({"tables", "build", "--max-free", "6", "--out", Table()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*tmp_, ec);
    delete tmp_;
  }
  static std::string Table() { return (*tmp_ / "t6.penktable").string(); }

  static Result Run(const std::vector<std::string>& args) { return ::penk::testing_support::RunPenk(args); }
  static fs::path* tmp_;
};
fs::path* AnalysisCliTest::tmp_ = nullptr;

constexpr char kSix[] = "ooooo/oo.oo/o.ooo/.oo.o/o..oo";  // 6 free cells

TEST_F(AnalysisCliTest, StrategyCsv) {
  for (const char* n : {"2", "0"}) {
    Result r = Run({"strategy", "--sheet", kSix, "--rerolls", n, "--format", "csv", "--table",
                    Table()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 463u);
    EXPECT_EQ(lines[0], "roll,best,value,second,second_value,margin");
    for (size_t i = 1; i < lines.size(); ++i) {
      std::vector<std::string> f = absl::StrSplit(lines[i], ',');
      ASSERT_EQ(f.size(), 6u) << lines[i];
      EXPECT_EQ(f[0].size(), 6u);
      double value, second, margin;
      ASSERT_TRUE(absl::SimpleAtod(f[2], &value)) << lines[i];
      if (f[3].empty()) continue;  // a single legal action
      ASSERT_TRUE(absl::SimpleAtod(f[4], &second)) << lines[i];
      ASSERT_TRUE(absl::SimpleAtod(f[5], &margin)) << lines[i];
      EXPECT_GE(value, second);
      EXPECT_NEAR(margin, value - second, 1.5e-6) << lines[i];  // printed to 1e-6
    }
  }
}

TEST_F(AnalysisCliTest, StrategyJsonAndMarkdown) {
  Result j = Run({"strategy", "--sheet", kSix, "--format", "json", "--table", Table()});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.out.rfind("{\"sheet\":", 0), 0u);
  size_t rows = 0;
  for (size_t p = 0; (p = j.out.find("\"roll\":", p)) != std::string::npos; ++p) ++rows;
  EXPECT_EQ(rows, 462u);
  Result m = Run({"strategy", "--sheet", kSix, "--table", Table()});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  size_t table_rows = 0;
  for (const std::string& line : Lines(m.out)) table_rows += line.rfind("| `", 0) == 0;
  EXPECT_EQ(table_rows, 462u);
}

TEST_F(AnalysisCliTest, DistributionJsonMeanIsTheValue) {
  Result v = Run({"value", "--sheet", kSix, "--table", Table()});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  double value = 0;
  for (const std::string& line : Lines(v.out))
    if (line.rfind("value: ", 0) == 0) {
      ASSERT_TRUE(absl::SimpleAtod(line.substr(7), &value));
    }
  Result d = Run({"distribution", "--sheet", kSix, "--json", "--table", Table()});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  ASSERT_EQ(d.out.rfind("{\"mean\":", 0), 0u) << d.out;
  double mean = 0;
  ASSERT_TRUE(absl::SimpleAtod(d.out.substr(8, d.out.find(',') - 8), &mean)) << d.out;
  EXPECT_NEAR(mean, value, 1e-6);
  for (const char* key : {"\"sd\":", "\"pmf\":{", "\"percentiles\":{\"1\":", "\"99\":"})
    EXPECT_NE(d.out.find(key), std::string::npos) << key;
  EXPECT_EQ(Lines(d.out).size(), 1u);
}

TEST_F(AnalysisCliTest, DistributionSvg) {
  const std::string svg = (*tmp_ / "d.svg").string();
  Result d = Run({"distribution", "--sheet", kSix, "--table", Table(), "--svg", svg, "--compare",
                  "greedy"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str().rfind("<svg", 0), 0u);
  EXPECT_NE(ss.str().find("</svg>"), std::string::npos);
}

// R6.5: a table of one variant is refused for another, with one line.
TEST_F(AnalysisCliTest, OtherVariantsTableIsRefused) {
  for (const char* cmd : {"strategy", "distribution", "stats"}) {
    SCOPED_TRACE(cmd);
    Result r = Run({cmd, "--sheet", kSix, "--rules", "line-min=2", "--table", Table()});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(r.out, "");
    std::vector<std::string> lines = Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find("line-min=2"), std::string::npos) << lines[0];
  }
  Result r = Run({"distribution", "--sheet", kSix, "--rules", "penk-lines=columns", "--table",
                  Table()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
}

TEST_F(AnalysisCliTest, BadInput) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"strategy", "--format", "xml", "--table", Table()},
        {"strategy", "--rerolls", "3"},
        {"distribution", "--policy", "lucky", "--table", Table()},
        {"distribution", "--at-least", "abc", "--table", Table()},
        {"distribution", "--sheet", "ooooo/ooooo/ooooo/oox../.....", "--table", Table()}}) {
    Result r = Run(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1];
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  }
}

}  // namespace
}  // namespace penk
