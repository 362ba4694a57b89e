#include "tables/value_check.h"

#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "engine/sheet.h"
#include "solver/solitaire_state.h"

namespace penk {
namespace {

// Rounding in the builds' sums may leave a bound by a few ulps of the range.
constexpr double kSlack = 1e-9;

}  // namespace

absl::Status CheckTableValues(const std::vector<double>& values, int max_free,
                              uint32_t blocked_rows, const ValueBounds& b) {
  const PositionIndex index_of(blocked_rows);
  if (values.size() != static_cast<size_t>(index_of.size()))
    return absl::InvalidArgumentError(
        absl::StrCat(values.size(), " values, expected ", index_of.size()));
  // The open codes these blocked rows allow, in order (PositionIndex's
  // numbers), and the free cells of each.
  std::vector<uint8_t> open;
  std::array<int, kNumColumnCodes> free_of{};
  for (int c = 0; c < kNumColumnCodes; ++c) {
    const uint32_t rows = static_cast<uint32_t>(c);
    if (CodeClosed(static_cast<uint8_t>(c))) continue;  // no free cell: 0
    if ((rows | blocked_rows) == 31) continue;          // cannot occur (a closed column)
    open.push_back(static_cast<uint8_t>(c));
    free_of[c] = kRows - std::popcount(rows | blocked_rows);
  }
  const int n = static_cast<int>(open.size());
  const double slack = kSlack * (b.hi - b.lo);
  const double lo = b.lo - slack, hi = b.hi + slack;
  // The entries in index order: sorted codes as PositionIndex ranks them
  // (colex: the largest code varies slowest), every column open, then one
  // closed column last (codes at or above kClosedBase). An entry is solved
  // when its free cells are at most max_free; the first failure is
  // described from its codes.
  int64_t index = 0;
  auto fail = [&](const ColumnCodes& codes, bool solved, double v) {
    if (solved)
      return absl::InvalidArgumentError(absl::StrCat(
          "the value ", v, " of sheet ", FormatSheet(SheetOfCodes(codes, blocked_rows)),
          " is not ", b.what, " (a finite number in ", b.lo, "..", b.hi, ")"));
    return absl::InvalidArgumentError(
        absl::StrCat("entry ", index, " holds ", v,
                     " where a build leaves no value (NaN): a position the table does not solve"));
  };
  auto ok = [&](bool solved, double v) {
    return solved ? (v >= lo && v <= hi) : std::isnan(v);  // NaN and inf fail the bounds
  };
  // The four smallest codes' numbers a0 <= a1 <= a2 <= a3 <= a3_max, below a
  // fifth code `last` whose free cells are `f_last` (open: the fifth column;
  // a closed column: 0); the first entry that fails is described.
  std::optional<absl::Status> bad;
  auto four = [&](int a3_max, int f_last, int last) {
    for (int a3 = 0; a3 <= a3_max; ++a3) {
      const int f3 = f_last + free_of[open[a3]];
      for (int a2 = 0; a2 <= a3; ++a2) {
        const int f2 = f3 + free_of[open[a2]];
        for (int a1 = 0; a1 <= a2; ++a1) {
          const int f1 = f2 + free_of[open[a1]];
          for (int a0 = 0; a0 <= a1; ++a0, ++index) {
            const bool s0 = f1 + free_of[open[a0]] <= max_free;
            if (ok(s0, values[index])) continue;
            bad = fail({open[a0], open[a1], open[a2], open[a3], static_cast<uint8_t>(last)}, s0,
                       values[index]);
            return false;
          }
        }
      }
    }
    return true;
  };
  for (int a4 = 0; a4 < n; ++a4)
    if (!four(a4, free_of[open[a4]], open[a4])) return *bad;
  if (n > 0)
    for (int closed = kClosedBase; closed < kClosedBase + 32; ++closed)
      if (!four(n - 1, 0, closed)) return *bad;
  if (index != index_of.size())  // the loops are the index's enumeration
    return absl::InternalError(absl::StrCat("enumerated ", index, " positions"));
  return absl::OkStatus();
}

}  // namespace penk
