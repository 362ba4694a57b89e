#include "engine/sheet.h"

#include "absl/strings/str_cat.h"
#include "engine/quoted_input.h"

namespace penk {

int Sheet::ClosedColumns() const {
  int n = 0;
  for (int v = 1; v <= kColumns; ++v) n += ColumnClosed(v);
  return n;
}

std::string FormatSheet(const Sheet& sheet) {
  std::string s;
  for (int k = 1; k <= kRows; ++k) {
    if (k > 1) s += '/';
    for (int v = 1; v <= kColumns; ++v) {
      uint32_t bit = CellBit(v, k);
      s += (sheet.circled & bit) ? 'o' : (sheet.crossed & bit) ? 'x' : '.';
    }
  }
  return s;
}

absl::StatusOr<Sheet> ParseSheet(absl::string_view text) {
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "sheet must be 5 rows of 5 cells from '.', 'o', 'x' separated by '/' "
        "(e.g. ...../...../...../...../.....); got ",
        QuotedInput(text)));
  };
  Sheet sheet;
  int row = 0, col = 0;
  for (char c : text) {
    if (c == '/') {
      if (col != kColumns) return bad();
      ++row;
      col = 0;
      if (row >= kRows) return bad();
      continue;
    }
    if (col >= kColumns) return bad();
    uint32_t bit = CellBit(col + 1, row + 1);
    switch (c) {
      case '.': break;
      case 'o': case 'O': sheet.circled |= bit; break;
      case 'x': case 'X': sheet.crossed |= bit; break;
      default: return bad();
    }
    ++col;
  }
  if (row != kRows - 1 || col != kColumns) return bad();
  return sheet;
}

}  // namespace penk
