// The what-to-keep table of a position (issue 5, item 1): for each of the 462
// rolls (R7.1) the best action with some rerolls left -- the best keep (R2.2,
// keeping all six dice = stopping), or with none left the best marking or
// failure (R3) -- its expected final score and the margin over the second
// best, under optimal solitaire play. The turn is solved once; each roll is
// then ranked by RankActions, so the table says exactly what `penk hint` says.
#ifndef PENK_SOLVER_STRATEGY_H_
#define PENK_SOLVER_STRATEGY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/sheet.h"
#include "solver/advisor.h"
#include "solver/solitaire_dp.h"

namespace penk {

struct StrategyRow {
  Dice roll;
  double probability = 0;  // of rolling it with six fresh dice (R2.1)
  RankedAction best;
  // Absent when the roll has a single action (one legal marking, or one
  // column left to cross).
  std::optional<RankedAction> second;
  double Margin() const { return second ? best.value - second->value : 0; }
};

struct StrategyTable {
  Sheet sheet;
  int rerolls = 2;
  double value = 0;  // of the position at the start of the turn
  std::vector<StrategyRow> rows;  // DiceSpace roll order = R7.1 text order
};

absl::StatusOr<StrategyTable> MakeStrategyTable(const SolitaireTable& table, const Sheet& sheet,
                                                int rerolls);

// R7 text of an action; a keep of all six dice is "<dice> (stop)" when
// `mark_stop`.
std::string StrategyActionText(const RankedAction& a, bool mark_stop);

// CSV: header `roll,best,value,second,second_value,margin`, one row per roll;
// the three last fields are empty when there is no second action.
std::string StrategyCsv(const StrategyTable& t);
// One JSON object: sheet, rerolls, rules, value and a "rolls" array.
std::string StrategyJson(const StrategyTable& t, const std::string& rules);
// A Markdown table with the roll's probability.
std::string StrategyMarkdown(const StrategyTable& t);

}  // namespace penk

#endif  // PENK_SOLVER_STRATEGY_H_
