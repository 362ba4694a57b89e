// Where spread tables (solver/score_spread.h) live and how a command gets one.
//
// A spread table sits beside its value table: the same name with
// `.penkspread` for `.penktable` (any other name: `.spread` appended), the
// same file layout with its own magic (tables/table_file.h). `penk tables
// build` writes both; a command that needs a missing spread table builds it
// from the value table (one more pass, seconds) and saves it if the value
// table is the table folder's, as value tables are built on first use.
#ifndef PENK_TABLES_SPREAD_STORE_H_
#define PENK_TABLES_SPREAD_STORE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"

namespace penk {

// The spread table's file beside the value table at `value_path`.
std::string SpreadPathFor(const std::string& value_path);

absl::Status WriteSpreadTable(const SpreadTable& spreads, const std::string& path);
// Errors as ReadTable's; a value table is refused ("not a PENK spread table").
absl::StatusOr<SpreadTable> ReadSpreadTable(const std::string& path, const Rules& rules,
                                            uint32_t blocked_rows);

// Builds the spread table of `values` with a progress bar on stderr when
// `show_progress`.
SpreadTable BuildSpreadWithProgress(const SolitaireTable& values, bool show_progress);

// The spread table of `values`, whose file is `value_path` (empty: the table
// folder's). Read beside it; if missing (or of another format version), built,
// saying so on stderr, and saved only beside a table of the table folder (a
// file named by the user is never joined by one we make: then it is built
// for this command only, and the message says how to make it once).
absl::StatusOr<SpreadTable> LoadOrBuildSpreadTable(const SolitaireTable& values,
                                                   const std::string& value_path);

}  // namespace penk

#endif  // PENK_TABLES_SPREAD_STORE_H_
