// Canonical solitaire positions and their dense index.
//
// In solitaire nothing is crossed except by a failure (R3.5), which closes a
// whole column, so a column is fully described by its circled rows (5 bits)
// and whether it is closed. Faces are symmetric in the scoring (R6: a cell's
// worth depends on its row), so a position is the sorted multiset of its five
// column codes. A position with two closed columns has ended (R5.2), so a
// live one has at most one closed column: C(35,5) positions with none and
// 32 * C(34,4) with one, 1,808,664 in all -- an index into a flat array.
//
// In a game with opponents, a PENK on a row crosses that row's free cells
// (R4.2). Such a sheet is a solitaire game with a set of blocked rows: every
// cell of a blocked row that is not circled is crossed. The same codes and
// index describe it, with the blocked rows kept beside them (a table is for
// one set of blocked rows); a column whose free cells are all blocked is closed.
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

// Code of a column with circled `rows` that has not failed, given the blocked
// rows: closed when no free cell is left.
inline constexpr uint8_t ColumnCode(uint32_t rows, uint32_t blocked_rows) {
  return (rows | blocked_rows) == 31 ? static_cast<uint8_t>(kClosedBase + rows)
                                     : static_cast<uint8_t>(rows);
}
inline constexpr uint8_t OpenCode(uint32_t rows) { return ColumnCode(rows, 0); }
inline constexpr bool CodeClosed(uint8_t code) { return code >= kClosedBase; }
inline constexpr uint32_t CodeRows(uint8_t code) {
  return code >= kClosedBase ? code - kClosedBase : code;
}

// Five column codes sorted ascending: the canonical form.
using ColumnCodes = std::array<uint8_t, kColumns>;

// Circled rows of column `face` (bit k-1 = row k). Inline: the DP's hot path.
inline uint32_t ColumnRows(uint32_t cells, int face) {
  uint32_t col = cells >> (face - 1);
  return (col & 1) | (col >> 4 & 2) | (col >> 8 & 4) | (col >> 12 & 8) | (col >> 16 & 16);
}
// The sheet whose column v+1 has code codes[v]; with blocked rows, their
// uncircled cells in open columns are crossed.
Sheet SheetOfCodes(const ColumnCodes& codes, uint32_t blocked_rows = 0);
// Sorts in place with a sorting network (hot path of the DP).
inline void SortCodes(ColumnCodes& c) {
  auto cs = [&](int i, int j) {
    uint8_t a = c[i], b = c[j];
    c[i] = a < b ? a : b;
    c[j] = a < b ? b : a;
  };
  cs(0, 1); cs(3, 4); cs(2, 4); cs(2, 3); cs(0, 3); cs(0, 2); cs(1, 4); cs(1, 3); cs(1, 2);
}
int ClosedCount(const ColumnCodes& codes);
int FreeCellCount(const ColumnCodes& codes, uint32_t blocked_rows = 0);
// True if no open code has all its free cells blocked (such a column is closed).
bool CodesValid(const ColumnCodes& codes, uint32_t blocked_rows);

// The codes of a sheet PositionOfSheet accepts, unsorted: codes[v-1] is
// column v. Moves are applied to these; the table sorts on lookup.
ColumnCodes CodesInPlace(const Sheet& sheet);

// After circling `cells` (R3.2): a column left without a free cell, given
// the blocked rows, is closed (R5.1).
inline ColumnCodes CodesAfterMarking(ColumnCodes codes, uint32_t cells, uint32_t blocked_rows) {
  for (int v = 1; v <= kColumns; ++v)
    if (uint32_t rows = ColumnRows(cells, v))
      codes[v - 1] = ColumnCode(CodeRows(codes[v - 1]) | rows, blocked_rows);
  return codes;
}

// After a failure crossing column `face` (R3.5).
inline ColumnCodes CodesAfterFailure(ColumnCodes codes, int face) {
  codes[face - 1] = static_cast<uint8_t>(kClosedBase + CodeRows(codes[face - 1]));
  return codes;
}

// Index of sorted codes with at most one closed column, in [0, kNumSolitaireStates).
int64_t StateIndex(const ColumnCodes& sorted);
// The inverse, for enumeration.
ColumnCodes StateOfIndex(int64_t index);

// The dense index of the live positions of one set of blocked rows, which
// a table of those rows is an array over (issue 23). An open code whose free
// cells are all blocked cannot occur (that column is closed), so the open
// codes that can are renumbered 0..open-1 in their order (sorted codes stay
// sorted) and ranked as StateIndex ranks codes; any closed code can occur.
// With no blocked row it is StateIndex; with rows blocked it holds only what
// a game can reach: 1,587,696 positions with one row, 139,536 with four,
// none with all five (every column is then closed).
class PositionIndex {
 public:
  explicit PositionIndex(uint32_t blocked_rows = 0);
  uint32_t blocked_rows() const { return blocked_rows_; }
  // The number of live positions: the length of a table's array.
  int64_t size() const { return all_open_ + 32 * per_closed_; }
  // Sorted, valid codes (CodesValid) with at most one closed column.
  int64_t Of(const ColumnCodes& sorted) const;
  // The inverse, for enumeration: index in [0, size()).
  ColumnCodes CodesOf(int64_t index) const;

 private:
  uint32_t blocked_rows_ = 0;
  int open_ = 0;                       // open codes that can occur
  int64_t all_open_ = 0;               // positions with every column open
  int64_t per_closed_ = 0;             // positions with one closed column, per closed code
  uint8_t dense_[kNumColumnCodes]{};   // an open code's number; 255: cannot occur
  uint8_t code_[kOpenCodes]{};         // the open code of a number
};

// A sheet as sorted codes and blocked rows.
struct SolitairePosition {
  ColumnCodes codes{};
  uint32_t blocked_rows = 0;  // bit k-1: row k blocked by an opponent's PENK
};

// The canonical position of a sheet a game can reach: crossed cells form
// closed columns (failures, column PENKs) and, in open columns, exactly the
// uncircled cells of some rows (row PENKs). Refuses any other sheet, as
// RowsCrossedByPenk (engine/position_check.h) does.
absl::StatusOr<SolitairePosition> PositionOfSheet(const Sheet& sheet);

// The same, refusing blocked rows: the sheets a solitaire game can reach.
absl::StatusOr<ColumnCodes> SolitaireCodes(const Sheet& sheet);

}  // namespace penk

#endif  // PENK_SOLVER_SOLITAIRE_STATE_H_
