// What a table folder's loaders may build when a table is missing (issue 20,
// item 7).
//
// A missing default table is built (seconds, 14.5 MB on disk, twice with its
// spread table) and saved. For one user at a terminal that is the easy path;
// for `penk serve` it lets any web client fill the disk and the CPU: about
// 31,000 (objective, rules, blocked rows) combinations are reachable. A
// policy says which tables may be built (all, none, or those of the rules
// and objectives the operator names: every set of blocked rows of them, as a
// game reaches them) and how much the folder may hold; a table outside it
// must already be in the folder (`penk tables build`), else the request gets
// table_error naming the file and the command that makes it. Builds of one
// table are never run twice at once: the TableCache shares one load among
// every waiter.
#ifndef PENK_TABLES_BUILD_POLICY_H_
#define PENK_TABLES_BUILD_POLICY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/rules.h"
#include "solver/objective.h"
#include "solver/table_cache.h"

namespace penk {

struct BuildPolicy {
  bool allow = true;  // false: nothing is built
  // When not empty, only tables of these rules are built (any blocked rows);
  // likewise objectives. Empty: any.
  std::vector<Rules> rules;
  std::vector<Objective> objectives;
  // When not 0, no build starts once the folder's files take this many bytes
  // (nor a fetch).
  uint64_t disk_budget_bytes = 0;
  // false: spread tables are read, never built (a missing one is NotFound):
  // the static site's engine leaves them to a second worker, so that its
  // first hint waits for the value table only (docs/WEB.md).
  bool spreads = true;
  // When set, asked for a default table file (value, spread or mean table)
  // that is missing, before it is built: true if it made the file at that
  // path (the static site downloads it from a tables/ folder beside the
  // page). A file it made that is refused is removed and built instead.
  std::function<bool(const std::string& path)> fetch;
  // When set, the bytes the folder `dir` holds as its host keeps it, for the
  // budget of builds: the static site keeps its tables in IndexedDB and
  // holds in the module's folder only those a request reads (FolderBytes
  // of that folder would count almost nothing). Unset: FolderBytes.
  std::function<uint64_t(const std::string& dir)> folder_bytes;

  // Everything, or nothing (the plain on/off of `--no-build`).
  static BuildPolicy All(bool allow) {
    BuildPolicy p;
    p.allow = allow;
    return p;
  }

  // Whether the table of `key` (a default table of folder `dir`) may be
  // built now: OK, or FailedPrecondition saying why not and, with `make`
  // (the command that makes the missing file), what the operator can do.
  absl::Status MayBuild(const TableKey& key, const std::string& dir,
                        const std::string& make) const;

  // Whether `fetch` made the missing file at `path` of folder `dir` (never
  // once the folder is over its budget).
  bool Fetched(const std::string& dir, const std::string& path) const;
};

// "line-min=3,penk-lines=all and objective mean" style description of what a
// policy builds (penk serve's start-up line, error messages).
std::string DescribeBuildPolicy(const BuildPolicy& policy);

// The bytes of the regular files in `dir` (0 if it does not exist).
uint64_t FolderBytes(const std::string& dir);

}  // namespace penk

#endif  // PENK_TABLES_BUILD_POLICY_H_
