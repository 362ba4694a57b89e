// The spread of the final score (issue 13, item 2) and the one-pass best
// keeps that the distributions and spreads decide with (item 1).
//
// Checked against independent computations: the standard deviation of each
// position against the exact distribution's (forward propagation, its own
// code path) on every solved position of a small table and on sheets played
// in their own labelling; each action's against a distribution mixed by hand
// from the dice law (DiceSpace::Transition), RankActions' choices and the
// distributions of the positions the turn can end in.
#include <unistd.h>

#include <cmath>
#include <functional>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "engine/score.h"
#include "gtest/gtest.h"
#include "tests/shared_tables.h"
#include "solver/advisor.h"
#include "solver/distribution.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"

namespace penk {
namespace {

// BestKeeps (one lattice pass) against BestKeep (a scan of each roll's
// sub-keeps), on turns full of ties: final values from {0, 1, 2}.
TEST(BestKeepsTest, IsBestKeepForEveryRoll) {
  Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    TurnValues t;
    for (int r = 0; r < kNumRolls; ++r)
      t.roll[0][r] = trial % 4 == 0 ? 1.0 : static_cast<double>(rng.Below(trial % 2 ? 3 : 50));
    SolveTurn(t);
    for (int n = 1; n <= kRerolls; ++n) {
      int16_t keeps[kNumRolls];
      BestKeeps(t, n, keeps);
      for (int r = 0; r < kNumRolls; ++r)
        ASSERT_EQ(keeps[r], t.BestKeep(n, r)) << "trial " << trial << " roll " << r << " n " << n;
    }
  }
}

// Four turns at once (SIMD lanes) are the one-turn functions, bit for bit
// (the start value to rounding: the sum of 462 products may be fused
// differently), with fewer turns than lanes too.
TEST(BestKeepsTest, BatchIsOneTurnAtATime) {
  Rng rng(8);
  for (int count = 1; count <= kTurnBatch; ++count) {
    TurnValues turns[kTurnBatch], single[kTurnBatch];
    std::array<std::array<int16_t, kNumRolls>, kRerolls> keeps[kTurnBatch];
    TurnValues* t[kTurnBatch];
    std::array<std::array<int16_t, kNumRolls>, kRerolls>* k[kTurnBatch];
    for (int j = 0; j < count; ++j) {
      for (int r = 0; r < kNumRolls; ++r)
        turns[j].roll[0][r] = j % 2 ? rng.Below(4) : rng.Below(1000) / 7.0;
      single[j] = turns[j];
      SolveTurn(single[j]);
      t[j] = &turns[j];
      k[j] = &keeps[j];
    }
    SolveTurnsWithKeeps(t, count, k);
    for (int j = 0; j < count; ++j) {
      EXPECT_NEAR(turns[j].start, single[j].start, 1e-12 * std::abs(single[j].start));
      EXPECT_EQ(turns[j].roll, single[j].roll);
      EXPECT_EQ(turns[j].keep, single[j].keep);
      for (int n = 1; n <= kRerolls; ++n) {
        int16_t best[kNumRolls];
        BestKeeps(single[j], n, best);
        for (int r = 0; r < kNumRolls; ++r) ASSERT_EQ(keeps[j][n - 1][r], best[r]);
      }
    }
  }
}

// The DP's four turns at once (TurnStartValues: the running best in place,
// a roll's own value its value with one reroll fewer rather than its final
// value) start where the one-turn solve does, with final values full of
// ties, spread wide, and negative, fewer turns than lanes too.
TEST(BestKeepsTest, TurnStartValuesAreSolveTurns) {
  Rng rng(12);
  for (int trial = 0; trial < 12; ++trial) {
    const int count = 1 + trial % kTurnBatch;
    TurnValues turns[kTurnBatch];
    const double* finals[kTurnBatch];
    for (int j = 0; j < count; ++j) {
      for (int r = 0; r < kNumRolls; ++r)
        turns[j].roll[0][r] = trial % 3 == 0   ? rng.Below(3)
                              : trial % 3 == 1 ? rng.Below(100000) / 7.0
                                               : -(rng.Below(50) / 3.0);
      finals[j] = turns[j].roll[0].data();
    }
    double start[kTurnBatch];
    TurnStartValues(finals, count, start);
    for (int j = 0; j < count; ++j) {
      SolveTurn(turns[j]);
      EXPECT_NEAR(start[j], turns[j].start, 1e-12 * std::max(1.0, std::abs(turns[j].start)))
          << "trial " << trial << " lane " << j;
    }
  }
}

// The dice law of four decided turns at once is each turn's.
TEST(BestKeepsTest, FinalRollMassesAreEachTurns) {
  const DiceSpace& space = DiceSpace::Get();
  Rng rng(3);
  TurnChoices c[kTurnBatch];
  for (int j = 0; j < kTurnBatch; ++j)
    for (int n = 0; n < kRerolls; ++n)
      for (int r = 0; r < kNumRolls; ++r) {
        const std::vector<int16_t>& subs = space.SubKeeps(r);
        c[j].keep[n][r] = subs[rng.Below(static_cast<uint32_t>(subs.size()))];
      }
  for (int count = 1; count <= kTurnBatch; ++count) {
    std::array<double, kNumRolls> out[kTurnBatch];
    FinalRollMasses(c, count, out);
    for (int j = 0; j < count; ++j) {
      const std::array<double, kNumRolls> one = FinalRollMass(c[j]);
      for (int r = 0; r < kNumRolls; ++r) ASSERT_NEAR(out[j][r], one[r], 1e-16);
    }
  }
}

// The keeps-only turn solve (the distributions' batches) chooses as the
// full one, on turns full of ties, with fewer turns than lanes too.
TEST(BestKeepsTest, KeepsOfLanesAreTheFullSolvesKeeps) {
  typedef double Lanes __attribute__((vector_size(kTurnBatch * sizeof(double))));
  Rng rng(21);
  for (int count = 1; count <= kTurnBatch; ++count) {
    TurnValues turns[kTurnBatch];
    std::array<std::array<int16_t, kNumRolls>, kRerolls> full[kTurnBatch], alone[kTurnBatch];
    TurnValues* t[kTurnBatch];
    std::array<std::array<int16_t, kNumRolls>, kRerolls>*f[kTurnBatch], *a[kTurnBatch];
    alignas(64) Lanes lanes[kNumRolls];
    for (int j = 0; j < kTurnBatch; ++j)
      for (int r = 0; r < kNumRolls; ++r) {
        turns[j].roll[0][r] = j % 2 ? rng.Below(3) : rng.Below(1000) / 7.0;
        lanes[r][j] = turns[j < count ? j : 0].roll[0][r];  // idle lanes repeat lane 0
      }
    for (int j = 0; j < count; ++j) t[j] = &turns[j], f[j] = &full[j], a[j] = &alone[j];
    SolveTurnsWithKeeps(t, count, f);
    TurnKeepsOfLanes(reinterpret_cast<const double*>(lanes), count, a);
    for (int j = 0; j < count; ++j) EXPECT_EQ(alone[j], full[j]) << "lane " << j;
  }
}

// Four decided turns spread at once (SpreadOfTurns, the spread table's
// batches) are each turn's MeansOfTurn and SpreadOfTurn, with fewer turns
// than lanes too, on turns full of ties.
TEST(BestKeepsTest, SpreadOfTurnsIsEachTurns) {
  Rng rng(17);
  for (int count = 1; count <= kTurnBatch; ++count) {
    TurnValues turns[kTurnBatch];
    TurnChoices choices[kTurnBatch];
    TurnSpread spreads[kTurnBatch];
    alignas(64) double mean0[kNumRolls * kTurnBatch], var0[kNumRolls * kTurnBatch];
    for (int j = 0; j < kTurnBatch; ++j) {
      for (int r = 0; r < kNumRolls; ++r) {
        turns[j].roll[0][r] = j % 2 ? rng.Below(3) : rng.Below(1000) / 7.0;
        spreads[j].var_roll[0][r] = rng.Below(100) / 3.0;
      }
      SolveTurn(turns[j]);
      for (int n = 1; n <= kRerolls; ++n) BestKeeps(turns[j], n, choices[j].keep[n - 1].data());
    }
    for (int r = 0; r < kNumRolls; ++r)
      for (int j = 0; j < kTurnBatch; ++j) {
        const int p = j < count ? j : 0;  // idle lanes repeat lane 0
        mean0[r * kTurnBatch + j] = turns[p].roll[0][r];
        var0[r * kTurnBatch + j] = spreads[p].var_roll[0][r];
      }
    double var[kTurnBatch], mean[kTurnBatch];
    SpreadOfTurns(mean0, var0, choices, count, var, mean);
    for (int j = 0; j < count; ++j) {
      TurnValues means = turns[j];
      MeansOfTurn(choices[j], means);
      EXPECT_EQ(means.roll, turns[j].roll) << "a roll's mean is its value";
      SpreadOfTurn(turns[j], choices[j], spreads[j]);
      EXPECT_NEAR(mean[j], turns[j].start, 1e-12 * std::abs(turns[j].start)) << "lane " << j;
      EXPECT_NEAR(var[j], spreads[j].start, 1e-12 * spreads[j].start) << "lane " << j;
      EXPECT_GT(var[j], 0);
    }
  }
}

// ScoreOfCodes (R6 by table lookups, the DP's leaves) is the score of the
// sheet, for every threshold, on positions of every kind.
TEST(BestKeepsTest, ScoreOfCodesIsTheSheetsScore) {
  Rng rng(4);
  for (int t = 0; t < 20000; ++t) {
    const ColumnCodes codes = StateOfIndex(rng.Below(static_cast<uint32_t>(kNumSolitaireStates)));
    for (int line_min = 1; line_min <= 5; ++line_min) {
      Rules rules;
      rules.line_min = line_min;
      ASSERT_EQ(ScoreOfCodes(codes, rules), Score(SheetOfCodes(codes), rules))
          << FormatSheet(SheetOfCodes(codes)) << " line-min " << line_min;
    }
  }
}

class SpreadTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    values_ = new SolitaireTable(testing_support::SharedTable(kMaxFree));
    spreads_ = new SpreadTable(testing_support::SharedSpreadTable(*values_));
  }
  static constexpr int kMaxFree = 7;
  static SolitaireTable* values_;
  static SpreadTable* spreads_;
};
SolitaireTable* SpreadTest::values_ = nullptr;
SpreadTable* SpreadTest::spreads_ = nullptr;

// The choices alone (OptimalPolicy's batches) are OptimalDecider::Turns'
// choices, and its final-roll values and choices those of the one-position
// Turn (a scalar path of its own: markings and failures), on
// positions of the table and on their labellings in place, batches of every
// size, with blocked rows too; the decision's final values and the chosen
// markings' successors are the turn's values and the successors' own codes'
// index.
TEST_F(SpreadTest, ChoicesAloneAreTheFullDecisions) {
  Rng rng(6);
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const SolitaireTable blocked = BuildSolitaireTable(Rules{}, kMaxFree, nullptr, 0b00101);
  for (const SolitaireTable* table : {static_cast<const SolitaireTable*>(values_), &blocked}) {
    OptimalDecider decider(*table);
    std::vector<ColumnCodes> positions;
    for (int64_t i = 0; i < table->index().size() && positions.size() < 400; ++i) {
      const ColumnCodes codes = table->index().CodesOf(i);
      if (!std::isnan(table->values()[i]) && rng.Below(8) == 0) positions.push_back(codes);
    }
    ASSERT_GT(positions.size(), 40u);
    int markings = 0, failures = 0;
    for (size_t i = 0; i < positions.size(); i += kTurnBatch) {
      const int count = static_cast<int>(std::min<size_t>(kTurnBatch, positions.size() - i)) -
                        static_cast<int>(i / kTurnBatch % 2);  // batches of 3 and 4, ...
      if (count <= 0) continue;
      TurnValues turns[kTurnBatch];
      TurnChoices full[kTurnBatch], alone[kTurnBatch];
      decider.Turns(&positions[i], count, turns, full);
      decider.Choices(&positions[i], count, alone);
      for (int j = 0; j < count; ++j) {
        ASSERT_EQ(alone[j].action, full[j].action);
        ASSERT_EQ(alone[j].keep, full[j].keep);
        for (int r = 0; r < kNumRolls; ++r) {
          ASSERT_EQ(decider.final_values()[r * kTurnBatch + j], turns[j].roll[0][r]);
          const int a = alone[j].action[r];
          if (a < 0) continue;
          ColumnCodes after = CodesAfterMarking(positions[i + j], catalog.cells(a),
                                                table->blocked_rows());
          SortCodes(after);
          ASSERT_EQ(decider.successors()[a * kTurnBatch + j],
                    CodeClosed(after[3]) ? -1 : table->index().Of(after));
          ++markings;
        }
        TurnValues one;
        TurnChoices single;
        decider.Turn(positions[i + j], one, single);
        ASSERT_EQ(one.roll[0], turns[j].roll[0]);
        ASSERT_EQ(single.action, full[j].action);
        ASSERT_EQ(single.keep, full[j].keep);
        for (int r = 0; r < kNumRolls; ++r) failures += single.action[r] < 0;
        decider.Choices(&positions[i], count, alone);  // the lanes again, for the next j
      }
    }
    EXPECT_GT(markings, 1000);
    EXPECT_GT(failures, 1000) << "Turn's own path for failures (R3.5) should be compared too";
  }
}

// 200 positions of the table with 4..6 free cells (spread over the index),
// each in canonical labelling: the stored sd is the exact distribution's.
TEST_F(SpreadTest, EveryPositionsSdIsTheDistributions) {
  int checked = 0, spread_out = 0;
  for (int64_t i = 0; i < kNumSolitaireStates && checked < 200; i += 97) {
    const ColumnCodes codes = StateOfIndex(i);
    if (FreeCellCount(codes) > kMaxFree - 1) continue;
    const Sheet sheet = SheetOfCodes(codes);
    const ScoreDistribution d = *OptimalScoreDistribution(*values_, sheet);
    const double sd = std::sqrt(spreads_->variances()[i]);
    ASSERT_NEAR(sd, d.StdDev(), 1e-6) << FormatSheet(sheet);
    ASSERT_NEAR(sd, std::sqrt(*SheetVariance(*values_, *spreads_, sheet)), 1e-9);
    ++checked;
    spread_out += sd > 1;
  }
  EXPECT_EQ(checked, 200);
  EXPECT_GT(spread_out, 25) << "the positions should have uncertain scores";
}

// A sheet in its own labelling (columns not sorted) is played as given in its
// first turn, by both.
TEST_F(SpreadTest, SheetInItsOwnLabellingMatchesItsDistribution) {
  Rng rng(17);
  int checked = 0;
  while (checked < 40) {
    Sheet s;
    while (s.FreeCount() > 4 + static_cast<int>(rng.Below(kMaxFree - 3))) {
      const int cell = rng.Below(25);
      if (s.free() >> cell & 1) s.circled |= 1u << cell;
    }
    if (checked % 3 == 0) {  // a failed column
      const int v = 1 + rng.Below(5);
      s.crossed |= s.free() & ColumnMask(v);
    }
    if (s.ClosedColumns() > 1 || s.FreeCount() > kMaxFree) continue;
    SCOPED_TRACE(FormatSheet(s));
    const ScoreDistribution d = *OptimalScoreDistribution(*values_, s);
    EXPECT_NEAR(std::sqrt(*SheetVariance(*values_, *spreads_, s)), d.StdDev(), 1e-6);
    ++checked;
  }
}

// The distribution of the final score from the start of a turn at `codes`
// (canonical: the spread table's labelling of later positions).
std::map<int, double> Pmf(const SolitaireTable& values, ColumnCodes codes) {
  SortCodes(codes);
  std::map<int, double> out;
  if (CodeClosed(codes[3])) {
    out[ScoreOfCodes(codes, values.rules())] = 1;
    return out;
  }
  const ScoreDistribution d = *OptimalScoreDistribution(values, SheetOfCodes(codes));
  for (int s = 0; s <= kMaxScore; ++s)
    if (d.pmf[s] > 0) out[s] = d.pmf[s];
  return out;
}

double Sd(const std::map<int, double>& pmf) {
  double mean = 0, var = 0;
  for (auto [s, p] : pmf) mean += s * p;
  for (auto [s, p] : pmf) var += (s - mean) * (s - mean) * p;
  return std::sqrt(var);
}

// Each action's sd, against a distribution mixed by hand: a marking's is its
// successor's; a keep's mixes, over the dice law, the final roll's best
// marking (RankActions) or, with two rerolls, the next roll's best keep first.
TEST_F(SpreadTest, EveryActionsSdIsItsMixedDistributions) {
  const DiceSpace& space = DiceSpace::Get();
  const Sheet sheet = *ParseSheet("o.o.o/.oooo/oo.oo/oooo./oo.o.");  // 7 free cells
  const ColumnCodes codes = CodesInPlace(sheet);
  std::map<int, std::map<int, double>> after_roll;  // final roll -> pmf
  auto final_pmf = [&](int r) -> const std::map<int, double>& {
    auto it = after_roll.find(r);
    if (it != after_roll.end()) return it->second;
    const Action a = (*RankActions(*values_, sheet, space.roll(r), 0)).front().action;
    return after_roll[r] = Pmf(*values_, a.kind == Action::kFail
                                             ? CodesAfterFailure(codes, a.face)
                                             : CodesAfterMarking(codes, a.cells, 0));
  };
  // Holding roll r with n rerolls: the best keep, then the dice.
  std::function<std::map<int, double>(int, int)> held = [&](int r, int n) {
    if (n == 0) return final_pmf(r);
    const Dice keep = (*RankActions(*values_, sheet, space.roll(r), n)).front().action.keep;
    const int k = space.KeepIndex(keep);
    if (k >= kNumKeepsBelowSix) return final_pmf(r);
    std::map<int, double> mix;
    for (int r2 = 0; r2 < kNumRolls; ++r2)
      if (double p = space.Transition(k, r2); p > 0)
        for (auto [s, q] : held(r2, n - 1)) mix[s] += p * q;
    return mix;
  };
  for (const char* text : {"11335J", "123455", "JJ2244"}) {
    const Dice roll = *ParseRoll(text);
    for (int rerolls = 0; rerolls <= 1; ++rerolls) {
      SCOPED_TRACE(std::string(text) + " rerolls " + std::to_string(rerolls));
      const std::vector<RankedAction> ranked = *RankActions(*values_, sheet, roll, rerolls);
      const std::vector<double> sd =
          *ActionSds(*values_, *spreads_, sheet, roll, rerolls, ranked);
      ASSERT_EQ(sd.size(), ranked.size());
      for (size_t i = 0; i < ranked.size(); ++i) {
        const Action& a = ranked[i].action;
        std::map<int, double> pmf;
        if (rerolls == 0) {
          pmf = Pmf(*values_, a.kind == Action::kFail ? CodesAfterFailure(codes, a.face)
                                                      : CodesAfterMarking(codes, a.cells, 0));
        } else {
          const int k = space.KeepIndex(a.keep);
          if (k >= kNumKeepsBelowSix) {
            pmf = final_pmf(space.RollIndex(roll));
          } else {
            for (int r2 = 0; r2 < kNumRolls; ++r2)
              if (double p = space.Transition(k, r2); p > 0)
                for (auto [s, q] : held(r2, rerolls - 1)) pmf[s] += p * q;
          }
        }
        EXPECT_NEAR(sd[i], Sd(pmf), 1e-6) << FormatAction(a);
      }
    }
  }
}

// The hint's one solve of the turn (RankWithMoments) gives exactly what its
// two calls give, each solving the turn itself: RankActions' actions and
// values in the same order (ties included), RankedMoments' moments; on
// positions of the table, in a labelling of their own too, every number of
// rerolls, for an expected-score table and a target table (whose means are
// not its values), and the refusals of both.
TEST_F(SpreadTest, RankWithMomentsIsRankActionsAndRankedMoments) {
  const Objective target{160};  // target_mean_test's: one shared table
  const SolitaireTable target_values = testing_support::SharedTable(kMaxFree, target);
  const SpreadTable target_spreads = testing_support::SharedSpreadTable(target_values, target);
  const DiceSpace& space = DiceSpace::Get();
  std::vector<Sheet> sheets = {*ParseSheet("o.o.o/.oooo/oo.oo/oooo./oo.o."),
                               *ParseSheet(".oooo/o.o.o/oooo./oo.oo/oo.o.")};
  Rng rng(11);
  for (int64_t i = 0; i < kNumSolitaireStates && sheets.size() < 120; ++i) {
    const ColumnCodes codes = StateOfIndex(i);
    if (std::isnan(values_->values()[i]) || rng.Below(64) != 0) continue;
    const Sheet sheet = SheetOfCodes(codes);
    if (sheet.ClosedColumns() < 2 && sheet.free() > 0) sheets.push_back(sheet);
  }
  ASSERT_GT(sheets.size(), 100u);
  using Pair = std::pair<const SolitaireTable*, const SpreadTable*>;
  for (auto [values, spreads] : {Pair{values_, spreads_}, Pair{&target_values, &target_spreads}}) {
    SCOPED_TRACE(values->objective().is_target() ? "target 160" : "expected score");
    int keeps = 0;
    for (const Sheet& sheet : sheets) {
      for (int t = 0; t < 3; ++t) {
        const Dice roll = space.roll(static_cast<int>(rng.Below(kNumRolls)));
        for (int rerolls = 0; rerolls <= kRerolls; ++rerolls) {
          SCOPED_TRACE(FormatSheet(sheet) + " " + FormatDice(roll) + " rerolls " +
                       std::to_string(rerolls));
          const std::vector<RankedAction> ranked = *RankActions(*values, sheet, roll, rerolls);
          const std::vector<ActionMoments> moments =
              *RankedMoments(*values, *spreads, sheet, roll, rerolls, ranked);
          const RankedWithMoments both = *RankWithMoments(*values, *spreads, sheet, roll, rerolls);
          ASSERT_EQ(both.ranked.size(), ranked.size());
          ASSERT_EQ(both.moments.size(), moments.size());
          for (size_t i = 0; i < ranked.size(); ++i) {
            ASSERT_EQ(both.ranked[i].action, ranked[i].action) << "rank " << i;
            ASSERT_EQ(both.ranked[i].value, ranked[i].value) << FormatAction(ranked[i].action);
            ASSERT_EQ(both.moments[i].mean, moments[i].mean) << FormatAction(ranked[i].action);
            ASSERT_EQ(both.moments[i].sd, moments[i].sd) << FormatAction(ranked[i].action);
          }
          keeps += rerolls > 0 ? static_cast<int>(ranked.size()) : 0;
        }
      }
    }
    EXPECT_GT(keeps, 10000);
  }
  const Sheet live = sheets[0];
  const Dice roll = *ParseRoll("11335J");
  EXPECT_EQ(RankWithMoments(*values_, *spreads_, live, roll, 3).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RankWithMoments(*values_, *spreads_, *ParseSheet("xxxxx/xxxxx/oooo./ooo../oooo."),
                            roll, 1).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(RankWithMoments(*values_, *spreads_, Sheet{}, roll, 2).ok())
      << "the empty sheet is beyond this table's " << kMaxFree << " free cells";
  EXPECT_FALSE(RankWithMoments(*values_, target_spreads, live, roll, 2).ok())
      << "a spread table of another value table";
}

TEST_F(SpreadTest, FileRoundTripAndRefusals) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("penk_spread_" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(dir);
  const std::string value_path = dir + "/t.penktable";
  EXPECT_EQ(SpreadPathFor(value_path), dir + "/t.penkspread");
  EXPECT_EQ(SpreadPathFor(dir + "/t"), dir + "/t.spread");
  ASSERT_TRUE(WriteTable(*values_, value_path).ok());
  const std::string spread_path = SpreadPathFor(value_path);
  ASSERT_TRUE(WriteSpreadTable(*spreads_, spread_path).ok());
  absl::StatusOr<SpreadTable> back = ReadSpreadTable(spread_path, Rules{}, 0);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->max_free(), kMaxFree);
  for (int64_t i = 0; i < kNumSolitaireStates; i += 1001) {
    const double a = back->variances()[i], b = spreads_->variances()[i];
    ASSERT_TRUE(a == b || (std::isnan(a) && std::isnan(b)));
  }
  // One kind of table is never read as the other.
  EXPECT_NE(ReadSpreadTable(value_path, Rules{}, 0).status().message().find(
                "not a PENK spread table"),
            std::string::npos);
  EXPECT_NE(ReadTable(spread_path, Rules{}).status().message().find("not a PENK value table"),
            std::string::npos);
  // Another variant's spread table is refused.
  EXPECT_FALSE(ReadSpreadTable(spread_path, *ParseRules("line-min=2"), 0).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace penk
