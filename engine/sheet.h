// A player's sheet (R1.2, R1.3, R7.3).
//
// 25 cells, each free, circled or crossed: two 25-bit masks in one machine
// word each, so a sheet is copied and compared like an integer. Cell (v, k)
// -- column v = die face 1..5, row k = number of dice 1..5 -- is bit
// (k-1)*5 + (v-1): row-major, the order of the R7.3 notation.
#ifndef PENK_ENGINE_SHEET_H_
#define PENK_ENGINE_SHEET_H_

#include <bit>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace penk {

inline constexpr int kRows = 5;
inline constexpr int kColumns = 5;
inline constexpr uint32_t kAllCells = (1u << 25) - 1;
// Points of a cell by row k = 1..5 (R1.2).
inline constexpr int kRowPoints[kRows] = {1, 2, 3, 5, 8};

constexpr int CellIndex(int face, int size) { return (size - 1) * kColumns + (face - 1); }
constexpr uint32_t CellBit(int face, int size) { return 1u << CellIndex(face, size); }
constexpr int CellFace(int cell) { return cell % kColumns + 1; }
constexpr int CellSize(int cell) { return cell / kColumns + 1; }
constexpr uint32_t RowMask(int size) { return 0x1Fu << ((size - 1) * kColumns); }
constexpr uint32_t ColumnMask(int face) { return 0x108421u << (face - 1); }

struct Sheet {
  uint32_t circled = 0;
  uint32_t crossed = 0;

  uint32_t free() const { return kAllCells & ~(circled | crossed); }
  bool IsFree(int face, int size) const { return free() & CellBit(face, size); }
  int FreeCount() const { return std::popcount(free()); }
  // A column is closed when it has no free cell (R5.1).
  bool ColumnClosed(int face) const { return (free() & ColumnMask(face)) == 0; }
  int ClosedColumns() const;
  bool operator==(const Sheet&) const = default;
};

// R7.3 text, e.g. "ooo.o/..o.x/....x/..o.x/....x".
// The empty sheet in R7.3 notation: the default of every sheet argument.
inline constexpr char kEmptySheetText[] = "...../...../...../...../.....";

std::string FormatSheet(const Sheet& sheet);
absl::StatusOr<Sheet> ParseSheet(absl::string_view text);

}  // namespace penk

#endif  // PENK_ENGINE_SHEET_H_
