// "What should I keep?": every action of a decision ranked by its exact
// expected final score under optimal solitaire play.
#ifndef PENK_SOLVER_ADVISOR_H_
#define PENK_SOLVER_ADVISOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "engine/action.h"
#include "engine/dice.h"
#include "engine/sheet.h"
#include "solver/solitaire_dp.h"
#include "solver/turn_solver.h"

namespace penk {

struct RankedAction {
  Action action;
  double value = 0;  // expected final score after taking it, playing optimally on
};

// The whole turn solved on a solitaire sheet with the table as leaf.
absl::StatusOr<TurnValues> SolveSolitaireTurn(const SolitaireTable& table, const Sheet& sheet);

// A sheet with two closed columns: in solitaire the game is over (R5.2) and
// it is refused; with opponents its player may still have turns in the last
// round, each worth the final score it leads to (the table's value of a
// finished position).
enum class FinishedSheet { kRefuse, kLastTurns };

// Ranks the actions of `roll` with `rerolls` (0..2) rerolls left, best first:
// with rerolls left the distinct keeps (the whole roll = stop, R2.2), else the
// legal markings or, when there is none, the failure choices (R3.5). Ties keep
// canonical order.
absl::StatusOr<std::vector<RankedAction>> RankActions(
    const SolitaireTable& table, const Sheet& sheet, const Dice& roll, int rerolls,
    FinishedSheet finished = FinishedSheet::kRefuse);

// The same from a solved turn (no table lookups for keeps).
std::vector<RankedAction> RankActions(const TurnValues& turn, const SolitaireTable& table,
                                      const Sheet& sheet, const Dice& roll, int rerolls);

}  // namespace penk

#endif  // PENK_SOLVER_ADVISOR_H_
