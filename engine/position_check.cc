#include "engine/position_check.h"

#include "absl/strings/str_cat.h"

namespace penk {
namespace {

// Rows with a crossed cell in a column that still has a free cell: only an
// opponent's row PENK crosses there (a failure crosses a whole column, R3.5).
uint32_t PenkCrossedRows(const Sheet& s) {
  uint32_t rows = 0;
  for (int v = 1; v <= kColumns; ++v) {
    if (s.ColumnClosed(v)) continue;
    for (int k = 1; k <= kRows; ++k)
      if (s.crossed & CellBit(v, k)) rows |= 1u << (k - 1);
  }
  return rows;
}

std::string LineName(bool row, int i) { return absl::StrCat(row ? "row " : "column ", i); }

}  // namespace

absl::Status CheckSheetReachable(const Sheet& s, const Rules& rules) {
  if (s.circled & s.crossed || (s.circled | s.crossed) & ~kAllCells)
    return absl::InvalidArgumentError("a cell is either circled or crossed (R1.3)");
  const uint32_t rows = PenkCrossedRows(s);
  if (rows && !rules.penk_rows)
    return absl::InvalidArgumentError(absl::StrCat(
        "sheet ", FormatSheet(s), " cannot arise with penk-lines=columns: a cell is crossed in a "
        "column that still has a free cell, and only a failure crosses there (R3.5, R4.3)"));
  for (int v = 1; v <= kColumns; ++v) {
    if (s.ColumnClosed(v)) continue;
    uint32_t want = 0;
    for (int k = 1; k <= kRows; ++k)
      if (rows >> (k - 1) & 1) want |= CellBit(v, k) & ~s.circled;
    if ((s.crossed & ColumnMask(v)) != want)
      return absl::InvalidArgumentError(absl::StrCat(
          "sheet ", FormatSheet(s), " cannot arise in a game: in column ", v,
          ", which is not closed, the crossed cells are not exactly the uncircled cells of "
          "rows crossed by a PENK (R3.5, R4.2)"));
  }
  return absl::OkStatus();
}

absl::Status CheckSheetsReachable(const std::vector<Sheet>& sheets, const Rules& rules) {
  const int n = static_cast<int>(sheets.size());
  for (int i = 0; i < n; ++i)
    if (absl::Status st = CheckSheetReachable(sheets[i], rules); !st.ok())
      return absl::InvalidArgumentError(absl::StrCat("sheet ", i + 1, ": ", st.message()));
  if (n < 2) return absl::OkStatus();
  for (int row = 1; row >= 0; --row) {
    if (row && !rules.penk_rows) continue;  // R4.3: rows never block
    for (int line = 1; line <= 5; ++line) {
      const uint32_t mask = row ? RowMask(line) : ColumnMask(line);
      int owner = -1;
      for (int i = 0; i < n; ++i) {
        if ((sheets[i].circled & mask) != mask) continue;
        if (owner >= 0)
          return absl::InvalidArgumentError(absl::StrCat(
              "sheets ", owner + 1, " and ", i + 1, " both completed ", LineName(row, line),
              ": the first to complete it crosses its free cells on every other sheet (R4.1, R4.2)"));
        owner = i;
      }
      if (owner < 0) continue;
      for (int i = 0; i < n; ++i)
        if (i != owner && (sheets[i].free() & mask))
          return absl::InvalidArgumentError(absl::StrCat(
              "sheet ", owner + 1, " completed ", LineName(row, line), " but sheet ", i + 1,
              " still has a free cell on it: a PENK crosses them (R4.2)"));
    }
  }
  // A row crossed outside closed columns was completed by another player.
  for (int i = 0; i < n; ++i) {
    const uint32_t rows = PenkCrossedRows(sheets[i]);
    for (int k = 1; k <= kRows; ++k) {
      if (!(rows >> (k - 1) & 1)) continue;
      bool completed = false;
      for (int j = 0; j < n; ++j)
        completed = completed || (j != i && (sheets[j].circled & RowMask(k)) == RowMask(k));
      if (!completed)
        return absl::InvalidArgumentError(absl::StrCat(
            "sheet ", i + 1, " has row ", k, " crossed by a PENK, but no other sheet completed row ",
            k, " (R4.2)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace penk
