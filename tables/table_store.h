// Where tables live and how a command gets one.
//
// Tables are build outputs: by default they sit in `tables/` beside the penk
// binary (build/tables/), one file per rule variant; PENK_TABLE_DIR overrides
// the folder. A command that needs a table loads it, or builds and saves it
// first when it is absent, saying so on stderr.
#ifndef PENK_TABLES_TABLE_STORE_H_
#define PENK_TABLES_TABLE_STORE_H_

#include <string>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "solver/solitaire_dp.h"

namespace penk {

std::string DefaultTableDir();
// e.g. <dir>/solitaire_line-min=3_penk-lines=all.penktable; with blocked rows
// a suffix names them: ..._blocked=13.penktable for rows 1 and 3.
std::string DefaultTablePath(const Rules& rules, uint32_t blocked_rows = 0);

// Builds the table (positions with at most `max_free` free cells; 25: all),
// drawing a progress bar with an ETA on stderr.
SolitaireTable BuildTableWithProgress(const Rules& rules, int max_free, bool show_progress,
                                      uint32_t blocked_rows = 0);

// Loads the table at `path` (empty: the default path). If the file does not
// exist, builds it, saves it there and returns it. A file that exists but is
// refused is an error: it is never overwritten silently.
absl::StatusOr<SolitaireTable> LoadOrBuildTable(const Rules& rules, const std::string& path,
                                                 uint32_t blocked_rows = 0);

}  // namespace penk

#endif  // PENK_TABLES_TABLE_STORE_H_
