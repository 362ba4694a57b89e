// Complete tables for tests that play whole games or need a table under the
// default file name, cheaply: the solver's values for positions with at most
// `exact_free` free cells (a small real build), a synthetic estimate beyond
// (score + 2 per free cell, capped at the maximum score). Such a table says
// max_free 25, so no player meets a gap (a partial table's gap is an error,
// solver/table_cache.h ValueOrThrow) and the default path accepts it
// (tables/table_store.h); beyond `exact_free` its values are NOT the solver's,
// so a test comparing numbers there must use a real table.
#ifndef PENK_TESTS_COMPLETED_TABLES_H_
#define PENK_TESTS_COMPLETED_TABLES_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/score.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"
#include "tables/table_file.h"
#include "tables/table_store.h"

namespace penk {

inline SolitaireTable CompletedTable(const Rules& rules, int exact_free, uint32_t blocked_rows = 0) {
  SolitaireTable exact = BuildSolitaireTable(rules, exact_free, nullptr, blocked_rows);
  std::vector<double> values = exact.values();
  for (int64_t i = 0; i < exact.index().size(); ++i) {  // its rows' positions (PositionIndex)
    const ColumnCodes codes = exact.index().CodesOf(i);
    if (std::isnan(values[i]))
      values[i] = std::min<double>(kMaxScore, ScoreOfCodes(codes, rules) +
                                                  2.0 * FreeCellCount(codes, blocked_rows));
  }
  return SolitaireTable(rules, kRows * kColumns, std::move(values), blocked_rows);
}

// A loader giving CompletedTable for every (rules, blocked rows) of the
// default objective; a target objective has no synthetic estimate.
inline TableLoader CompletedTableLoader(int exact_free) {
  return [exact_free](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    if (key.objective.is_target())
      return absl::NotFoundError("no completed test table for a target objective");
    return CompletedTable(key.rules, exact_free, key.blocked_rows);
  };
}

// A table folder `dir` holding CompletedTable(Rules{}, exact_free,
// blocked_rows) under its default file name, written each time (a file left
// there by an earlier run may be a partial table; the write is an atomic
// rename, so parallel tests are safe).
inline std::string CompletedTableDir(const std::string& dir, int exact_free,
                                     uint32_t blocked_rows = 0) {
  std::filesystem::create_directories(dir);
  (void)WriteTable(CompletedTable(Rules{}, exact_free, blocked_rows),
                   TablePathIn(dir, Rules{}, blocked_rows));
  return dir;
}

}  // namespace penk

#endif  // PENK_TESTS_COMPLETED_TABLES_H_
