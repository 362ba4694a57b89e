// Where tables live and how a command gets one.
//
// Tables are build outputs: by default they sit in `tables/` beside the penk
// binary (build/tables/), one file per rule variant and set of blocked rows;
// PENK_TABLE_DIR overrides the folder. Only that folder (and `penk tables
// build --out`) is ever written: a table named by the user (`--table X`, the
// engine's "table") is only read, never created nor replaced.
#ifndef PENK_TABLES_TABLE_STORE_H_
#define PENK_TABLES_TABLE_STORE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "solver/solitaire_dp.h"
#include "solver/table_cache.h"
#include "tables/build_policy.h"

namespace penk {

std::string DefaultTableDir();
// e.g. <dir>/solitaire_line-min=3_penk-lines=all.penktable; with blocked rows
// a suffix names them: ..._blocked=13.penktable for rows 1 and 3; a target
// objective too: ..._target=150.penktable.
std::string TablePathIn(const std::string& dir, const Rules& rules, uint32_t blocked_rows = 0,
                        Objective objective = {});
// TablePathIn(DefaultTableDir(), ...).
std::string DefaultTablePath(const Rules& rules, uint32_t blocked_rows = 0,
                             Objective objective = {});

// A progress bar with an ETA on stderr for a build of positions, each line
// starting with `label` (e.g. "spread table "): redrawn in place on a
// terminal, one line per 10% in a log.
BuildProgress ProgressBar(const std::string& label);

// ProgressBar(label) when `show_progress`, and in any case the progress of
// the calling thread's watcher (solver/work_progress.h), if any, as `what`.
BuildProgress WatchedProgress(const std::string& what, bool show_progress,
                              const std::string& label);

// Builds the table (positions with at most `max_free` free cells; 25: all),
// drawing a progress bar with an ETA on stderr.
SolitaireTable BuildTableWithProgress(const Rules& rules, int max_free, bool show_progress,
                                      uint32_t blocked_rows = 0, Objective objective = {});

// The table of the table folder `dir` (empty: DefaultTableDir()). A missing
// file (or one an older penk wrote) is built and saved there when
// `allow_build`, saying so on stderr; otherwise it is a NotFound error naming
// the file and how to make it. A file that exists but is refused is an error:
// it is never overwritten silently. A partial table there (max_free < 25,
// `tables build --max-free N --out F`) is refused so (FailedPrecondition
// naming the file, saying it is partial and what to do): its gaps would be
// errors in the middle of a game.
// A folder we cannot write (read-only, or a path that cannot be a folder) is
// said before a build, which is then used for this process only.
absl::StatusOr<SolitaireTable> LoadOrBuildDefaultTable(const Rules& rules, const std::string& dir,
                                                       uint32_t blocked_rows, bool allow_build,
                                                       Objective objective = {});
// The same with a build policy: a missing table it does not allow is a
// NotFound error saying why and how to make it.
absl::StatusOr<SolitaireTable> LoadOrBuildDefaultTable(const Rules& rules, const std::string& dir,
                                                       uint32_t blocked_rows,
                                                       const BuildPolicy& policy,
                                                       Objective objective = {});
// OK if files can be created in `dir` (made if missing), else why not.
absl::Status FolderWritable(const std::string& dir);
// `penk tables build --all --rules R [--objective O] --table-dir DIR`.
std::string TableBuildCommand(const Rules& rules, Objective objective, const std::string& dir);

// `path` empty: LoadOrBuildDefaultTable in the default folder, building if
// missing. Otherwise the file at `path`, only read (ReadTable).
absl::StatusOr<SolitaireTable> LoadOrBuildTable(const Rules& rules, const std::string& path,
                                                 uint32_t blocked_rows = 0,
                                                 Objective objective = {});

// A TableCache loader over files: a key naming a file reads that file only;
// the others come from the table folder `dir` (empty: DefaultTableDir()),
// built there when missing if `allow_build`.
TableLoader FileTableLoader(const std::string& dir, bool allow_build);
TableLoader FileTableLoader(const std::string& dir, BuildPolicy policy);

// Every set of blocked rows a game under `rules` can produce: all 32 subsets
// of the five rows when rows block (R4.2), only none under penk-lines=columns
// (R4.3).
std::vector<uint32_t> BlockedRowSets(const Rules& rules);

}  // namespace penk

#endif  // PENK_TABLES_TABLE_STORE_H_
