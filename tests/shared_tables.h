// Endgame tables that many test processes need, built once per ctest run.
//
// ctest runs every test of a binary as a process of its own, so a suite's
// SetUpTestSuite that builds a table builds it once per test: solver_test
// built its max-free 10 table eleven times, and under AddressSanitizer each
// build takes a minute. Under ctest the test `shared_tables_clean` (a ctest
// fixture every test requires) empties the folder $PENK_SHARED_TABLES first;
// the first process that needs a table builds it and writes it there (the
// table file's atomic write: a reader never sees half a file, and two
// processes building it at once both write whole files), the others read it,
// checked on load (a damaged or mismatched file is built again). Each run
// starts from an empty folder, so a table read here was built by this
// build's code. Run by hand (no PENK_SHARED_TABLES), a binary builds its own.
#ifndef PENK_TESTS_SHARED_TABLES_H_
#define PENK_TESTS_SHARED_TABLES_H_

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/rules.h"
#include "gtest/gtest.h"
#include "solver/objective.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"

namespace penk::testing_support {

// The shared folder (made if missing), or "" when not under ctest.
inline std::string SharedTableFolder() {
  const char* dir = std::getenv("PENK_SHARED_TABLES");
  if (dir == nullptr || *dir == '\0') return "";
  std::error_code ec;  // a folder that cannot be made fails the write, which says why
  std::filesystem::create_directories(dir, ec);
  return dir;
}

// The shared folder's file for a default-rules table, or "" when not under ctest.
inline std::string SharedTablePath(int max_free, Objective objective) {
  const std::string dir = SharedTableFolder();
  if (dir.empty()) return "";
  return absl::StrCat(dir, "/free", max_free,
                      objective.is_target() ? absl::StrCat("_target", objective.target) : "", ".penktable");
}

// The default rules' solitaire table of positions with at most `max_free`
// free cells: BuildSolitaireTable(Rules{}, max_free, nullptr, 0, objective).
inline SolitaireTable SharedTable(int max_free, Objective objective = {}) {
  const std::string path = SharedTablePath(max_free, objective);
  if (!path.empty()) {
    absl::StatusOr<SolitaireTable> read = ReadTable(path, Rules{}, 0, objective);
    if (read.ok() && read->max_free() == max_free) return *std::move(read);
  }
  SolitaireTable table = BuildSolitaireTable(Rules{}, max_free, nullptr, 0, objective);
  if (!path.empty()) {
    absl::Status written = WriteTable(table, path);
    EXPECT_TRUE(written.ok()) << written;
  }
  return table;
}

// The spread table of SharedTable(max_free, objective) (`values`), shared the same way.
inline SpreadTable SharedSpreadTable(const SolitaireTable& values, Objective objective = {}) {
  const std::string path = SharedTablePath(values.max_free(), objective);
  const std::string spread = path.empty() ? "" : SpreadPathFor(path);
  const std::string mean = path.empty() || !objective.is_target() ? "" : MeanPathFor(path);
  if (!path.empty()) {
    absl::StatusOr<SpreadTable> read = ReadSpreadTable(spread, Rules{}, 0, objective, mean);
    if (read.ok()) return *std::move(read);
  }
  SpreadTable spreads = BuildSpreadTable(values);
  if (!path.empty()) {
    absl::Status written = WriteSpreadTable(spreads, spread, mean);
    EXPECT_TRUE(written.ok()) << written;
  }
  return spreads;
}

}  // namespace penk::testing_support

#endif  // PENK_TESTS_SHARED_TABLES_H_
