#include "solver/solitaire_state.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/position_check.h"

namespace penk {
namespace {

// kTerm[i][a] = C(a + i, i + 1): the colex rank term of the i-th smallest code
// a of a multiset (turned into a strictly increasing combination a + i).
struct RankTerms {
  int64_t term[kColumns][kNumColumnCodes];
  RankTerms() {
    int64_t c[70][8] = {};
    for (int n = 0; n < 70; ++n) {
      c[n][0] = 1;
      for (int k = 1; k < 8 && k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
    for (int i = 0; i < kColumns; ++i)
      for (int a = 0; a < kNumColumnCodes; ++a) term[i][a] = c[a + i][i + 1];
  }
};
const RankTerms kRank;

}  // namespace

Sheet SheetOfCodes(const ColumnCodes& codes, uint32_t blocked_rows) {
  Sheet s;
  uint32_t blocked_cells = 0;
  for (int k = 1; k <= kRows; ++k)
    if (blocked_rows >> (k - 1) & 1) blocked_cells |= RowMask(k);
  for (int v = 1; v <= kColumns; ++v) {
    uint32_t rows = CodeRows(codes[v - 1]);
    for (int k = 1; k <= kRows; ++k)
      if (rows >> (k - 1) & 1) s.circled |= CellBit(v, k);
    const uint32_t crossed = CodeClosed(codes[v - 1]) ? ColumnMask(v) : ColumnMask(v) & blocked_cells;
    s.crossed |= crossed & ~s.circled;
  }
  return s;
}

ColumnCodes CodesInPlace(const Sheet& sheet) {
  ColumnCodes codes{};
  for (int v = 1; v <= kColumns; ++v) {
    const uint32_t rows = ColumnRows(sheet.circled, v);
    codes[v - 1] = static_cast<uint8_t>(sheet.ColumnClosed(v) ? kClosedBase + rows : rows);
  }
  return codes;
}

bool CodesValid(const ColumnCodes& codes, uint32_t blocked_rows) {
  for (uint8_t c : codes)
    if (!CodeClosed(c) && (c | blocked_rows) == 31) return false;
  return true;
}

int ClosedCount(const ColumnCodes& codes) {
  int n = 0;
  for (uint8_t c : codes) n += CodeClosed(c);
  return n;
}

int FreeCellCount(const ColumnCodes& codes, uint32_t blocked_rows) {
  int n = 0;
  for (uint8_t c : codes)
    if (!CodeClosed(c)) n += kRows - std::popcount(static_cast<uint32_t>(c) | blocked_rows);
  return n;
}

int64_t StateIndex(const ColumnCodes& s) {
  if (!CodeClosed(s[4]))
    return kRank.term[0][s[0]] + kRank.term[1][s[1]] + kRank.term[2][s[2]] +
           kRank.term[3][s[3]] + kRank.term[4][s[4]];
  return kStatesAllOpen + (s[4] - kClosedBase) * kStatesPerClosedMask + kRank.term[0][s[0]] +
         kRank.term[1][s[1]] + kRank.term[2][s[2]] + kRank.term[3][s[3]];
}

ColumnCodes StateOfIndex(int64_t index) {
  ColumnCodes codes{};
  int open = kColumns;
  if (index >= kStatesAllOpen) {
    index -= kStatesAllOpen;
    codes[4] = static_cast<uint8_t>(kClosedBase + index / kStatesPerClosedMask);
    index %= kStatesPerClosedMask;
    open = 4;
  }
  // Colex unranking: the largest element first.
  for (int i = open - 1; i >= 0; --i) {
    int a = kOpenCodes - 1;
    while (kRank.term[i][a] > index) --a;
    codes[i] = static_cast<uint8_t>(a);
    index -= kRank.term[i][a];
  }
  return codes;
}

PositionIndex::PositionIndex(uint32_t blocked_rows) : blocked_rows_(blocked_rows & 31) {
  std::fill(std::begin(dense_), std::end(dense_), uint8_t{255});
  for (int c = 0; c < kOpenCodes; ++c)
    if ((static_cast<uint32_t>(c) | blocked_rows_) != 31) {
      dense_[c] = static_cast<uint8_t>(open_);
      code_[open_++] = static_cast<uint8_t>(c);
    }
  // C(open + 4, 5) multisets of five open codes, C(open + 3, 4) of four.
  all_open_ = kRank.term[4][open_];
  per_closed_ = kRank.term[3][open_];
}

int64_t PositionIndex::Of(const ColumnCodes& s) const {
  if (!CodeClosed(s[4]))
    return kRank.term[0][dense_[s[0]]] + kRank.term[1][dense_[s[1]]] +
           kRank.term[2][dense_[s[2]]] + kRank.term[3][dense_[s[3]]] +
           kRank.term[4][dense_[s[4]]];
  return all_open_ + (s[4] - kClosedBase) * per_closed_ + kRank.term[0][dense_[s[0]]] +
         kRank.term[1][dense_[s[1]]] + kRank.term[2][dense_[s[2]]] + kRank.term[3][dense_[s[3]]];
}

ColumnCodes PositionIndex::CodesOf(int64_t index) const {
  ColumnCodes codes{};
  int open = kColumns;
  if (index >= all_open_) {
    index -= all_open_;
    codes[4] = static_cast<uint8_t>(kClosedBase + index / per_closed_);
    index %= per_closed_;
    open = 4;
  }
  for (int i = open - 1; i >= 0; --i) {  // colex, as StateOfIndex
    int a = open_ - 1;
    while (kRank.term[i][a] > index) --a;
    codes[i] = code_[a];
    index -= kRank.term[i][a];
  }
  return codes;
}

absl::StatusOr<SolitairePosition> PositionOfSheet(const Sheet& sheet) {
  // Which sheets a game can reach is a rule of the engine (engine/position_check.h).
  absl::StatusOr<uint32_t> blocked = RowsCrossedByPenk(sheet);
  if (!blocked.ok()) return blocked.status();
  SolitairePosition p;
  p.blocked_rows = *blocked;
  for (int v = 1; v <= kColumns; ++v) {
    const uint32_t rows = ColumnRows(sheet.circled, v);
    p.codes[v - 1] = static_cast<uint8_t>(sheet.ColumnClosed(v) ? kClosedBase + rows : rows);
  }
  SortCodes(p.codes);
  return p;
}

absl::StatusOr<ColumnCodes> SolitaireCodes(const Sheet& sheet) {
  absl::StatusOr<SolitairePosition> p = PositionOfSheet(sheet);
  if (!p.ok()) return p.status();
  if (p->blocked_rows != 0)
    return absl::InvalidArgumentError(absl::StrCat(
        "sheet ", FormatSheet(sheet), " is not a solitaire position: it has cells crossed in a "
        "column that is not closed (in solitaire only a failure crosses, R3.5, and it crosses "
        "the whole column)"));
  return p->codes;
}

}  // namespace penk
