#include "tables/value_check.h"

#include <array>
#include <bit>
#include <cmath>

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
  absl::Status bad = absl::OkStatus();
  auto check = [&](const ColumnCodes& codes) {
    int free = 0;
    bool valid = true;
    for (uint8_t c : codes) {
      valid = valid && free_of[c] >= 0;
      free += free_of[c];
    }
    const bool solved = valid && free <= max_free;
    const double v = values[StateIndex(codes)];
    const bool ok = solved ? std::isfinite(v) && v >= b.lo - slack && v <= b.hi + slack
                           : std::isnan(v);
    if (ok) return true;
    bad = absl::InvalidArgumentError(
        solved ? absl::StrCat("the value ", v, " of sheet ", FormatSheet(SheetOfCodes(codes, blocked_rows)),
                              " is not ", b.what, " (a finite number in ", b.lo, "..", b.hi, ")")
               : absl::StrCat("entry ", StateIndex(codes), " holds ", v,
                              " where a build leaves no value (NaN): a position the table "
                              "does not solve"));
    return false;
  };
  // Sorted codes, as StateIndex ranks them: every open column (a0 <= ... <=
  // a4), then one closed column last (codes at or above kClosedBase).
  ColumnCodes s{};
  for (int a4 = 0; a4 < kOpenCodes; ++a4)
    for (int a3 = 0; a3 <= a4; ++a3)
      for (int a2 = 0; a2 <= a3; ++a2)
        for (int a1 = 0; a1 <= a2; ++a1)
          for (int a0 = 0; a0 <= a1; ++a0) {
            s = {static_cast<uint8_t>(a0), static_cast<uint8_t>(a1), static_cast<uint8_t>(a2),
                 static_cast<uint8_t>(a3), static_cast<uint8_t>(a4)};
            if (!check(s)) return bad;
          }
  for (int closed = kClosedBase; closed < kClosedBase + 32; ++closed)
    for (int a3 = 0; a3 < kOpenCodes; ++a3)
      for (int a2 = 0; a2 <= a3; ++a2)
        for (int a1 = 0; a1 <= a2; ++a1)
          for (int a0 = 0; a0 <= a1; ++a0) {
            s = {static_cast<uint8_t>(a0), static_cast<uint8_t>(a1), static_cast<uint8_t>(a2),
                 static_cast<uint8_t>(a3), static_cast<uint8_t>(closed)};
            if (!check(s)) return bad;
          }
  return absl::OkStatus();
}

}  // namespace penk
