#include "engine/position_check.h"

#include "absl/strings/str_cat.h"

namespace penk {
namespace {

// Circled rows of column `face` as bits k-1.
uint32_t RowsOfColumn(uint32_t cells, int face) {
  uint32_t rows = 0;
  for (int k = 1; k <= kRows; ++k)
    if (cells & CellBit(face, k)) rows |= 1u << (k - 1);
  return rows;
}

struct Line {
  bool row;   // else a column
  int index;  // 1..5
  uint32_t mask() const { return row ? RowMask(index) : ColumnMask(index); }
  std::string name() const { return absl::StrCat(row ? "row " : "column ", index); }
};

}  // namespace

absl::StatusOr<uint32_t> RowsCrossedByPenk(const Sheet& sheet) {
  if (sheet.circled & sheet.crossed)
    return absl::InvalidArgumentError("a cell cannot be both circled and crossed (R1.3)");
  uint32_t rows = 0;
  for (int v = 1; v <= kColumns; ++v)
    if (!sheet.ColumnClosed(v)) rows |= RowsOfColumn(sheet.crossed, v);
  for (int v = 1; v <= kColumns; ++v) {
    if (sheet.ColumnClosed(v)) continue;  // a failure or a column PENK: anything goes
    if (RowsOfColumn(sheet.crossed, v) != (rows & ~RowsOfColumn(sheet.circled, v)))
      return absl::InvalidArgumentError(absl::StrCat(
          "sheet ", FormatSheet(sheet), " cannot arise in a game: in column ", v,
          ", which is not closed, the crossed cells are not exactly the uncircled cells of "
          "rows crossed by a PENK (R3.5, R4.2)"));
  }
  return rows;
}

absl::Status CheckSheetsReachable(const std::vector<Sheet>& sheets, const Rules& rules,
                                  const std::vector<std::string>& names) {
  auto name = [&](size_t i) {
    return i < names.size() ? names[i] : absl::StrCat("sheet ", i + 1);
  };
  std::vector<uint32_t> crossed_rows(sheets.size());
  for (size_t i = 0; i < sheets.size(); ++i) {
    absl::StatusOr<uint32_t> rows = RowsCrossedByPenk(sheets[i]);
    if (!rows.ok()) return absl::InvalidArgumentError(absl::StrCat(name(i), ": ", rows.status().message()));
    crossed_rows[i] = *rows;
  }
  std::vector<Line> lines;
  for (int i = 1; i <= 5; ++i) {
    if (rules.penk_rows) lines.push_back({true, i});  // R4.3: rows block only under penk-lines=all
    lines.push_back({false, i});
  }
  for (const Line& line : lines) {
    for (size_t j = 0; j < sheets.size(); ++j) {
      if ((sheets[j].circled & line.mask()) != line.mask()) continue;
      for (size_t i = 0; i < sheets.size(); ++i) {
        if (i == j) continue;
        if ((sheets[i].circled & line.mask()) == line.mask())
          return absl::InvalidArgumentError(absl::StrCat(
              line.name(), " is completed on ", name(j), " and on ", name(i),
              ": the first PENK crossed the other's free cells of it (R4.1, R4.2)"));
        if (sheets[i].free() & line.mask())
          return absl::InvalidArgumentError(absl::StrCat(
              name(i), " has a free cell on ", line.name(), ", which ", name(j),
              " completed: that PENK crossed it (R4.1, R4.2)"));
      }
    }
  }
  // A row crossed by a PENK: some other player completed it (R4.2).
  for (size_t i = 0; i < sheets.size(); ++i) {
    for (int k = 1; k <= kRows; ++k) {
      if (!(crossed_rows[i] >> (k - 1) & 1)) continue;
      bool completed = false;
      for (size_t j = 0; j < sheets.size(); ++j)
        completed = completed || (j != i && (sheets[j].circled & RowMask(k)) == RowMask(k));
      if (!rules.penk_rows)
        return absl::InvalidArgumentError(absl::StrCat(
            name(i), " has crossed cells on row ", k,
            " in columns that are not closed, but under penk-lines=columns no PENK crosses a "
            "row (R4.3)"));
      if (!completed)
        return absl::InvalidArgumentError(absl::StrCat(
            name(i), " has crossed cells on row ", k,
            " in columns that are not closed, as a PENK crosses, but no other sheet completed "
            "row ", k, " (R4.2)"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckMoverAndOpponents(const Sheet& mover, const std::vector<Sheet>& opponents,
                                    const Rules& rules, bool last_round) {
  std::vector<Sheet> sheets = {mover};
  std::vector<std::string> names = {"the player to move"};
  for (size_t i = 0; i < opponents.size(); ++i) {
    sheets.push_back(opponents[i]);
    names.push_back(absl::StrCat("opponent ", i + 1));
  }
  if (absl::Status s = CheckSheetsReachable(sheets, rules, names); !s.ok()) return s;
  bool ends = false;
  for (const Sheet& s : sheets) ends = ends || s.ClosedColumns() >= 2;
  if (last_round && !ends)
    return absl::InvalidArgumentError(
        "the last round cannot have begun: no sheet has two closed columns (R5.2)");
  return absl::OkStatus();
}

}  // namespace penk
