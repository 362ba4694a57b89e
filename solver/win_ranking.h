// The advisor with opponents: expert's estimate of the probability of winning
// after each action, for `penk hint --opponent`, the engine protocol's and the
// C library's hints with opponents -- one computation behind all three.
#ifndef PENK_SOLVER_WIN_RANKING_H_
#define PENK_SOLVER_WIN_RANKING_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/advisor.h"
#include "solver/table_cache.h"

namespace penk {

struct WinQuery {
  Sheet sheet;                  // the player to move
  std::vector<Sheet> opponents; // the others, in turn order after the player
  Rules rules;
  bool last_round = false;      // R5.2; also set when some sheet has two closed columns
  int seat = 1;                 // the player's seat, 1..players
  int turns = -1;               // turns the player has taken; -1: estimated from the sheet
};

// Fills `win` with expert's estimate for each action of `ranked` (from
// RankActions for `roll` with `rerolls` left) and re-orders both by it,
// stable. Refuses more than three opponents, a seat out of range and an
// opponent's sheet no game can reach (InvalidArgument, one line). The exact
// tables of the sheets' blocked rows come from `tables`; one that cannot be
// had is Unavailable with the loader's message (e.g. a missing file when
// building is off).
absl::Status RankForWin(const WinQuery& query, const Dice& roll, int rerolls,
                        std::vector<RankedAction>& ranked, std::vector<double>& win,
                        std::shared_ptr<TableCache> tables);

}  // namespace penk

#endif  // PENK_SOLVER_WIN_RANKING_H_
