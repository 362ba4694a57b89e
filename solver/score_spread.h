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

// Variances of the final score by state index, beside a value table of the
// same rules and blocked rows.
class SpreadTable {
 public:
  SpreadTable() = default;
  SpreadTable(const Rules& rules, int max_free, uint32_t blocked_rows,
              std::vector<double> variances)
      : rules_(rules), max_free_(max_free), blocked_rows_(blocked_rows),
        variances_(std::move(variances)) {}

  const Rules& rules() const { return rules_; }
  int max_free() const { return max_free_; }
  uint32_t blocked_rows() const { return blocked_rows_; }
  const std::vector<double>& variances() const { return variances_; }

  // Sorted codes, live or finished (a finished game's score is certain: 0).
  double VarianceOfCodes(ColumnCodes codes) const;

 private:
  Rules rules_;
  int max_free_ = 0;
  uint32_t blocked_rows_ = 0;
  std::vector<double> variances_;
};

// The variances of one decided turn: var_roll[n][r] holding roll r with n
// rerolls left, var_keep[n-1][k] after keeping k with n rerolls left,
// `start` before the first roll.
struct TurnSpread {
  std::array<std::array<double, kNumRolls>, kRerolls + 1> var_roll;
  std::array<std::array<double, kNumKeepsBelowSix>, kRerolls> var_keep;
  double start = 0;
};

// Fills s from s.var_roll[0] (the variance after each final roll: the
// successor's, as the choices say) down the decided turn (`turn`: its means).
void SpreadOfTurn(const TurnValues& turn, const TurnChoices& choices, TurnSpread& s);

// Every live position solved by `values` (the same positions), in layers of
// increasing free cells, OpenMP. `progress` as BuildSolitaireTable's.
SpreadTable BuildSpreadTable(const SolitaireTable& values,
                             const BuildProgress& progress = nullptr);

// The variance of the final score of `sheet` (played as given in its first
// turn, as the distributions do) under optimal play; 0 for a finished sheet.
absl::StatusOr<double> SheetVariance(const SolitaireTable& values, const SpreadTable& spreads,
                                     const Sheet& sheet);

// The standard deviation of the final score after each of `ranked` (the
// actions RankActions gave for this sheet, roll and rerolls), optimal play
// after it: ranked[i] -> result[i].
absl::StatusOr<std::vector<double>> ActionSds(const SolitaireTable& values,
                                              const SpreadTable& spreads, const Sheet& sheet,
                                              const Dice& roll, int rerolls,
                                              const std::vector<RankedAction>& ranked);

}  // namespace penk

#endif  // PENK_SOLVER_SCORE_SPREAD_H_
