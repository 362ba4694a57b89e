// The spread of the final solitaire score under optimal play (issue 13,
// item 2): for every live position, the variance of the final score when the
// optimal policy plays (the policy of OptimalPolicy, solver/distribution.h,
// ties included), so that `penk hint` shows each action's standard deviation
// beside its expected final score and `penk value` the position's.
//
// Built from the value table by one more backward pass over the same layers:
// per position the turn is decided as OptimalPolicy decides it, then the
// variance goes down the decided turn by the law of total variance,
//   Var = E[Var | child] + E[(mean of child - mean)^2],
// at each averaging (a reroll's six outcomes, the first roll's 462) with the
// means of the value table's turn, and through each decision unchanged. Every
// term is non-negative, so no cancellation: a position whose score is certain
// gets 0, not the noise of E[X^2] - E[X]^2.
//
// The same pass serves any value table's policy (issue 13, item 3): the turn
// is decided by that table (OptimalDecider: its argmax, first best in
// canonical order), and the variance needs the policy's means. An
// expected-score table's values are those means; a target table's are
// probabilities, so for it the pass also carries the means down the decided
// turn (MeansOfTurn: the final score averaged, not the objective), and the
// table keeps them: a target hint's `mean` and `sd` come from this code.
#ifndef PENK_SOLVER_SCORE_SPREAD_H_
#define PENK_SOLVER_SCORE_SPREAD_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/sheet.h"
#include "solver/advisor.h"
#include "solver/distribution.h"
#include "solver/solitaire_dp.h"
#include "solver/turn_solver.h"

namespace penk {

// Variances of the final score by position (the value table's index, which
// the blocked rows set: PositionIndex), beside a value table of the same
// rules, blocked rows and objective, under that table's policy; for a target
// objective also the means (the expected final score) by position.
class SpreadTable {
 public:
  SpreadTable() = default;
  SpreadTable(const Rules& rules, int max_free, uint32_t blocked_rows,
              std::vector<double> variances, Objective objective = {},
              std::vector<double> means = {})
      : rules_(rules), max_free_(max_free), blocked_rows_(blocked_rows), objective_(objective),
        index_(blocked_rows), variances_(std::move(variances)), means_(std::move(means)) {}

  const Rules& rules() const { return rules_; }
  int max_free() const { return max_free_; }
  uint32_t blocked_rows() const { return blocked_rows_; }
  // The objective of the value table whose policy this is.
  const Objective& objective() const { return objective_; }
  const std::vector<double>& variances() const { return variances_; }
  // Empty for the expected-score objective (the value table holds the means).
  const std::vector<double>& means() const { return means_; }
  const PositionIndex& index() const { return index_; }

  // Sorted codes, live or finished (a finished game's score is certain: 0).
  double VarianceOfCodes(ColumnCodes codes) const;
  // The expected final score of any codes under a target policy (a finished
  // game: its score); only when means() is not empty.
  double MeanOfCodes(ColumnCodes codes) const;

 private:
  Rules rules_;
  int max_free_ = 0;
  uint32_t blocked_rows_ = 0;
  Objective objective_;
  PositionIndex index_;
  std::vector<double> variances_;
  std::vector<double> means_;
};

// The variances of one decided turn: var_roll[n][r] holding roll r with n
// rerolls left, var_keep[n-1][k] after keeping k with n rerolls left,
// `start` before the first roll.
struct TurnSpread {
  std::array<std::array<double, kNumRolls>, kRerolls + 1> var_roll;
  std::array<std::array<double, kNumKeepsBelowSix>, kRerolls> var_keep;
  double start = 0;
};

// Fills means.keep, means.roll[1..] and means.start from means.roll[0] (the
// expected final score after each final roll) down the turn decided by
// `choices`: a keep averages its six outcomes, a roll takes its chosen keep's.
void MeansOfTurn(const TurnChoices& choices, TurnValues& means);

// Fills s from s.var_roll[0] (the variance after each final roll: the
// successor's, as the choices say) down the decided turn (`turn`: its means).
void SpreadOfTurn(const TurnValues& turn, const TurnChoices& choices, TurnSpread& s);

// MeansOfTurn and SpreadOfTurn for count <= kTurnBatch decided turns at once,
// one per SIMD lane (the spread table's batches): from the means and
// variances after each final roll, mean0[r * kTurnBatch + j] and
// var0[r * kTurnBatch + j] (every lane filled; an idle lane may repeat
// another), the variance and mean before the first roll of turn j <
// count. The means of an expected-score table's turn are its values, so the
// turn solver's keep and roll values need not be written out: a keep's mean
// is computed here in the solver's order, and a roll's is its chosen keep's,
// the solver's maximum, so the same numbers.
void SpreadOfTurns(const double* mean0, const double* var0, const TurnChoices* choices, int count,
                   double* var_start, double* mean_start);

// Every live position solved by `values` (the same positions), in layers of
// increasing free cells, OpenMP, under the policy of `values` (for a target
// table, with the means). `progress` as BuildSolitaireTable's.
SpreadTable BuildSpreadTable(const SolitaireTable& values,
                             const BuildProgress& progress = nullptr);

// The variance of the final score of `sheet` (played as given in its first
// turn, as the distributions do) under optimal play; 0 for a finished sheet.
absl::StatusOr<double> SheetVariance(const SolitaireTable& values, const SpreadTable& spreads,
                                     const Sheet& sheet);

// The expected final score of `sheet` under the policy of `values` (as
// SheetVariance plays it): the value itself for an expected-score table.
absl::StatusOr<double> SheetMean(const SolitaireTable& values, const SpreadTable& spreads,
                                 const Sheet& sheet);

// The expected final score and its standard deviation after an action, the
// policy of the value table playing on.
struct ActionMoments {
  double mean = 0;
  double sd = 0;
};

// The moments after each of `ranked` (the actions RankActions gave for this
// sheet, roll and rerolls): ranked[i] -> result[i]. For an expected-score
// table each mean is ranked[i].value.
absl::StatusOr<std::vector<ActionMoments>> RankedMoments(const SolitaireTable& values,
                                                         const SpreadTable& spreads,
                                                         const Sheet& sheet, const Dice& roll,
                                                         int rerolls,
                                                         const std::vector<RankedAction>& ranked);

// RankActions' ranking and RankedMoments' moments (ranked[i] ->
// moments[i]) from one solve of the turn: the same numbers as the two
// calls, which would each solve it (in a hint with its sd the ranking's own
// solve was about 28% of the request). A live sheet only (as RankedMoments).
struct RankedWithMoments {
  std::vector<RankedAction> ranked;
  std::vector<ActionMoments> moments;
};
absl::StatusOr<RankedWithMoments> RankWithMoments(const SolitaireTable& values,
                                                  const SpreadTable& spreads, const Sheet& sheet,
                                                  const Dice& roll, int rerolls);

// OK if `sheet` is live; otherwise why no spread can be given for it. With
// opponents, a sheet with two closed columns still plays the last round's
// turn (R5.2), but spread tables cover live positions only: the hints that
// show an sd beside a game value (the CLI's and the engine's) say so
// instead of an sd.
absl::Status SpreadCoversSheet(const Sheet& sheet);

// The standard deviations of RankedMoments.
absl::StatusOr<std::vector<double>> ActionSds(const SolitaireTable& values,
                                              const SpreadTable& spreads, const Sheet& sheet,
                                              const Dice& roll, int rerolls,
                                              const std::vector<RankedAction>& ranked);

}  // namespace penk

#endif  // PENK_SOLVER_SCORE_SPREAD_H_
