// Where spread tables (solver/score_spread.h) live and how a command gets one.
//
// A spread table sits beside its value table: the same name with
// `.penkspread` for `.penktable` (any other name: `.spread` appended), the
// same file layout with its own magic (tables/table_file.h). `penk tables
// build` writes both; a command that needs a missing spread table builds it
// from the value table (one more pass, seconds) and saves it if the value
// table is the table folder's, as value tables are built on first use.
//
// A target table's policy (issue 13, item 3) has a spread table too, and a
// mean table (`.penkmean`, magic kMeanMagic: the expected final score under
// that policy), both named after the target table (so `_target=X` is in their
// names) and with the objective in their headers: a file of another
// objective, rules or blocked rows is refused at load, never used.
#ifndef PENK_TABLES_SPREAD_STORE_H_
#define PENK_TABLES_SPREAD_STORE_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"
#include "solver/table_cache.h"
#include "tables/build_policy.h"

namespace penk {

// The spread table's file beside the value table at `value_path`.
std::string SpreadPathFor(const std::string& value_path);
// A target policy's mean table beside its value table: `.penkmean` (any
// other name: `.mean` appended).
std::string MeanPathFor(const std::string& value_path);

// The variances to `path`; for a target objective the means to `mean_path`
// too (required then; the expected-score objective has no mean table).
absl::Status WriteSpreadTable(const SpreadTable& spreads, const std::string& path,
                              const std::string& mean_path = "");
// Errors as ReadTable's; a value table is refused ("not a PENK spread table"),
// so is a file of another objective. A target objective reads its means from
// `mean_path` too.
absl::StatusOr<SpreadTable> ReadSpreadTable(const std::string& path, const Rules& rules,
                                            uint32_t blocked_rows, Objective objective = {},
                                            const std::string& mean_path = "");

// Builds the spread table of `values` with a progress bar on stderr when
// `show_progress`.
SpreadTable BuildSpreadWithProgress(const SolitaireTable& values, bool show_progress);

// The spread table of `values` (of its objective: for a target, with the
// means), whose file is `value_path` (empty: the table folder's). Read beside it; if missing (or of another format version), built,
// saying so on stderr, and saved only beside a table of the table folder (a
// file named by the user is never joined by one we make: then it is built
// for this command only, and the message says how to make it once).
absl::StatusOr<SpreadTable> LoadOrBuildSpreadTable(const SolitaireTable& values,
                                                   const std::string& value_path);

// Where the spread table of a value table is and what may be done when it is
// missing (the engine: its own table folder, and building may be off).
struct SpreadSource {
  std::string value_path;   // the value table's file; the spread table is beside it
  bool ours = true;         // a table folder's file: a spread table built is saved
  bool allow_build = true;  // false: a missing spread table is NotFound, not built
  // When set (and allow_build), asked before a missing table is built: an
  // error is the reason it is not (NotFound with that message).
  std::function<absl::Status()> may_build;
};
absl::StatusOr<SpreadTable> LoadOrBuildSpreadTable(const SolitaireTable& values,
                                                   const SpreadSource& source);

// A TableCache spread loader over files, as FileTableLoader is for values: a
// key naming a file reads the spread table beside it (built in memory when
// missing, never saved there); the others are the table folder `dir`'s
// (empty: DefaultTableDir()), built and saved when `policy` allows.
SpreadLoader FileSpreadLoader(const std::string& dir, BuildPolicy policy);

}  // namespace penk

#endif  // PENK_TABLES_SPREAD_STORE_H_
