// Positions no game can reach (issue 10): sheets checked alone and against
// each other before anything is ranked or played from them.
//
// A game crosses cells only in two ways: a failure crosses the free cells of
// one column (R3.5), which closes it, and another player's PENK crosses the
// free cells of the line it completed (R4.1, R4.2). So in a column that still
// has a free cell, the crossed cells are exactly the uncircled cells of the
// rows some opponent completed; and a completed line leaves no free cell on
// that line of any other sheet.
#ifndef PENK_ENGINE_POSITION_CHECK_H_
#define PENK_ENGINE_POSITION_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/sheet.h"

namespace penk {

// The rows an opponent's PENK crossed on `sheet` (bit k-1 = row k): the rows
// with a crossed cell in a column that still has a free cell. Refuses a sheet
// no game can reach even alone (InvalidArgument, one line): a crossed cell
// that neither a failure (a closed column) nor a row PENK explains.
absl::StatusOr<uint32_t> RowsCrossedByPenk(const Sheet& sheet);

// Refuses (InvalidArgument, one line naming the sheet and the line) a set of
// sheets no game can reach:
//  - a sheet not reachable alone (RowsCrossedByPenk);
//  - a line completed (all 5 circled) on one sheet while another sheet has a
//    free cell on it (R4.1, R4.2), or completed on two sheets; rows count
//    only under penk-lines=all (R4.3);
//  - a row crossed by a PENK on one sheet that no other sheet completed.
// `sheets` must be every player's sheet of one game, in any order (one sheet:
// a solitaire game). `names` name them in messages ("opponent 1"); empty:
// "sheet 1", "sheet 2", ... in the order given.
absl::Status CheckSheetsReachable(const std::vector<Sheet>& sheets, const Rules& rules,
                                  const std::vector<std::string>& names = {});

// The position of a hint with opponents: the mover's sheet and the others'
// (in turn order after the mover) as one game's sheets, named "the player to
// move", "opponent 1", ...; and `last_round` only when some sheet has two
// closed columns (R5.2: the last round starts no other way). One check for
// every door that takes such a position (CLI, engine, C library).
absl::Status CheckMoverAndOpponents(const Sheet& mover, const std::vector<Sheet>& opponents,
                                    const Rules& rules, bool last_round);

}  // namespace penk

#endif  // PENK_ENGINE_POSITION_CHECK_H_
