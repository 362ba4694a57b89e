// Positions no game can reach (R3.5, R4.1, R4.2): a sheet alone, and the
// sheets of one game together. Everything that takes a set of sheets (hints
// with opponents, games set up from a position) checks them here first, so
// that an impossible position gets a reason instead of a plausible answer.
#ifndef PENK_ENGINE_POSITION_CHECK_H_
#define PENK_ENGINE_POSITION_CHECK_H_

#include <vector>

#include "absl/status/status.h"
#include "engine/rules.h"
#include "engine/sheet.h"

namespace penk {

// A sheet alone: outside closed columns, a cell is crossed only by an
// opponent's row PENK (R4.2, whole rows), so the crossed cells of each column
// with a free cell are exactly the uncircled cells of some set of rows; with
// penk-lines=columns (R4.3) no such row exists.
absl::Status CheckSheetReachable(const Sheet& sheet, const Rules& rules);

// The sheets of one game (any order; 1-4): each reachable alone; a line
// completed on one sheet (R4.1) is completed on no other and has no free
// cell on any other (R4.2); a row crossed by a PENK on a sheet was completed
// on another. Errors name the sheet (1-based, in the order given) and the line.
absl::Status CheckSheetsReachable(const std::vector<Sheet>& sheets, const Rules& rules);

}  // namespace penk

#endif  // PENK_ENGINE_POSITION_CHECK_H_
