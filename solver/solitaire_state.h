// Canonical solitaire positions and their dense index.
//
// In solitaire nothing is crossed except by a failure (R3.5), which closes a
// whole column, so a column is fully described by its circled rows (5 bits)
// and whether it is closed. Faces are symmetric in the scoring (R6: a cell's
// worth depends on its row), so a position is the sorted multiset of its five
// column codes. A position with two closed columns has ended (R5.2), so a
// live one has at most one closed column: C(35,5) positions with none and
// 32 * C(34,4) with one, 1,808,664 in all -- an index into a flat array.
#ifndef PENK_SOLVER_SOLITAIRE_STATE_H_
#define PENK_SOLVER_SOLITAIRE_STATE_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/sheet.h"

namespace penk {

// Column code: 0..30 an open column by its circled-rows mask (bit k-1 = row
// k); 31 + mask (31..62) a closed column. A full column (mask 31) is closed.
inline constexpr int kOpenCodes = 31;
inline constexpr int kClosedBase = 31;
inline constexpr int kNumColumnCodes = 63;
inline constexpr int64_t kStatesAllOpen = 324632;      // C(35,5)
inline constexpr int64_t kStatesPerClosedMask = 46376; // C(34,4)
inline constexpr int64_t kNumSolitaireStates = kStatesAllOpen + 32 * kStatesPerClosedMask;

inline constexpr uint8_t OpenCode(uint32_t rows) {
  return rows == 31 ? kClosedBase + 31 : static_cast<uint8_t>(rows);
}
inline constexpr bool CodeClosed(uint8_t code) { return code >= kClosedBase; }
inline constexpr uint32_t CodeRows(uint8_t code) {
  return code >= kClosedBase ? code - kClosedBase : code;
}

// Five column codes sorted ascending: the canonical form.
using ColumnCodes = std::array<uint8_t, kColumns>;

// Circled rows of column `face` (bit k-1 = row k).
uint32_t ColumnRows(uint32_t cells, int face);
// The sheet whose column v+1 has code codes[v].
Sheet SheetOfCodes(const ColumnCodes& codes);
// Sorts in place with a sorting network (hot path of the DP).
void SortCodes(ColumnCodes& codes);
int ClosedCount(const ColumnCodes& codes);
int FreeCellCount(const ColumnCodes& codes);

// Index of sorted codes with at most one closed column, in [0, kNumSolitaireStates).
int64_t StateIndex(const ColumnCodes& sorted);
// The inverse, for enumeration.
ColumnCodes StateOfIndex(int64_t index);

// The canonical codes of a sheet a solitaire game can reach: crossed cells only
// as whole failed columns. Refuses any other sheet with the reason.
absl::StatusOr<ColumnCodes> SolitaireCodes(const Sheet& sheet);

}  // namespace penk

#endif  // PENK_SOLVER_SOLITAIRE_STATE_H_
