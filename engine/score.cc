#include "engine/score.h"

#include <bit>

#include "engine/dispatch.h"

namespace penk {

// PENK_HOT: the popcounts (the AIs score sheets at every leaf).
PENK_HOT ScoreBreakdown ScoreSheet(const Sheet& sheet, const Rules& rules) {
  ScoreBreakdown s;
  for (int k = 1; k <= kRows; ++k) {
    int c = std::popcount(sheet.circled & RowMask(k));
    if (c >= rules.line_min) s.row[k - 1] = c * kRowPoints[k - 1];  // R6.1
  }
  for (int v = 1; v <= kColumns; ++v) {
    uint32_t col = sheet.circled & ColumnMask(v);
    if (std::popcount(col) < rules.line_min) continue;
    for (int k = 1; k <= kRows; ++k)
      if (col & CellBit(v, k)) s.column[v - 1] += kRowPoints[k - 1];  // R6.2
  }
  for (int x : s.row) s.total += x;
  for (int x : s.column) s.total += x;
  return s;
}

}  // namespace penk
