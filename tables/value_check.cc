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
  if (values.size() != static_cast<size_t>(kNumSolitaireStates))
    return absl::InvalidArgumentError(
        absl::StrCat(values.size(), " values, expected ", kNumSolitaireStates));
  // Free cells of each open code with these rows blocked; -1: no position
  // has it (every row circled or blocked is a closed column, R4.1).
  std::array<int, kNumColumnCodes> free_of{};
  for (int c = 0; c < kNumColumnCodes; ++c)
    free_of[c] = CodeClosed(static_cast<uint8_t>(c))
                     ? 0
                     : ((static_cast<uint32_t>(c) | blocked_rows) == 31
                            ? -1
                            : kRows - std::popcount(static_cast<uint32_t>(c) | blocked_rows));
  const double slack = kSlack * (b.hi - b.lo);
  const double lo = b.lo - slack, hi = b.hi + slack;
  // The entries in index order: sorted codes as StateIndex ranks them (colex:
  // the largest code varies slowest), every column open, then one closed
  // column last (codes at or above kClosedBase). An entry is solved when no
  // column's code is impossible (-1) and the free cells are at most
  // max_free; the first failure is described from its codes.
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
  auto solved = [&](int free_or_impossible) {
    return free_or_impossible >= 0 && free_or_impossible <= max_free;
  };
  // Free cells of a partial sum, or a large negative once a code is impossible.
  auto add = [&](int sum, int code) { return free_of[code] < 0 ? -1000 : sum + free_of[code]; };
  // The four smallest codes a0 <= a1 <= a2 <= a3 <= a3_max, below a fifth
  // code `last` whose free cells are `f_last` (open: the fifth column; a
  // closed column: 0); the first entry that fails is described.
  std::optional<absl::Status> bad;
  auto four = [&](int a3_max, int f_last, int last) {
    for (int a3 = 0; a3 <= a3_max; ++a3) {
      const int f3 = add(f_last, a3);
      for (int a2 = 0; a2 <= a3; ++a2) {
        const int f2 = add(f3, a2);
        for (int a1 = 0; a1 <= a2; ++a1) {
          const int f1 = add(f2, a1);
          for (int a0 = 0; a0 <= a1; ++a0, ++index) {
            const bool s0 = solved(add(f1, a0));
            if (ok(s0, values[index])) continue;
            bad = fail({static_cast<uint8_t>(a0), static_cast<uint8_t>(a1),
                        static_cast<uint8_t>(a2), static_cast<uint8_t>(a3),
                        static_cast<uint8_t>(last)},
                       s0, values[index]);
            return false;
          }
        }
      }
    }
    return true;
  };
  for (int a4 = 0; a4 < kOpenCodes; ++a4)
    if (!four(a4, add(0, a4), a4)) return *bad;
  for (int closed = kClosedBase; closed < kClosedBase + 32; ++closed)
    if (!four(kOpenCodes - 1, 0, closed)) return *bad;
  if (index != kNumSolitaireStates)  // the loops are the index's enumeration
    return absl::InternalError(absl::StrCat("enumerated ", index, " states"));
  return absl::OkStatus();
}

}  // namespace penk
