// The values of a table file checked against what any build writes (issue
// 20, item 12): a file whose checksum matches may still have been written
// by hand, or by a broken build, and NaN, infinite or out-of-range numbers
// would come out as "value": null, "sd": nan or a loss of -nan.
//
// A table holds the positions that can occur with its blocked rows
// (PositionIndex, solver/solitaire_state.h); a build solves those with at
// most max_free free cells and leaves every other entry NaN
// (solver/solitaire_dp.h). So each solved entry must be finite and
// within the bounds of what it is (an expected score 0..190, R6; a
// probability 0..1; a variance 0..95^2, the largest a score in 0..190 can
// have), and each other entry NaN.
#ifndef PENK_TABLES_VALUE_CHECK_H_
#define PENK_TABLES_VALUE_CHECK_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"

namespace penk {

struct ValueBounds {
  double lo = 0, hi = 0;
  const char* what = "";  // "an expected score", ...: said when refused
};

// OK, or InvalidArgument naming the first entry that breaks the rule above
// (its position as a sheet, its value, what was expected). One pass over the
// entries in index order (a few ms), no unranking.
absl::Status CheckTableValues(const std::vector<double>& values, int max_free,
                              uint32_t blocked_rows, const ValueBounds& bounds);

}  // namespace penk

#endif  // PENK_TABLES_VALUE_CHECK_H_
