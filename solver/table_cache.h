// Exact solitaire tables shared by the AI players and the advisor, one per
// (rules, blocked rows), with their spread tables (solver/score_spread.h): a sheet whose rows were crossed by opponents' PENKs (R4.2) is a
// solitaire game with those rows blocked (solver/solitaire_state.h), valued by
// the table built for exactly that set.
//
// A TableCache is an object owned by whoever serves games -- the CLI command,
// an engine session, a libpenk context -- and handed to the AI players
// (MakeBot): no process-wide state, so two owners never see each other's
// folder or build setting. It is thread-safe and lazy: the first request for
// a key asks the loader, concurrent requests for the same key wait for it,
// requests for other keys proceed. Each full table holds 1,808,664 doubles
// (14.5 MB), a spread table as many (twice for a target's means); the cache
// keeps at most `cap_bytes` of value and spread tables together and evicts
// the least recently used, so its cap is the owner's whole table memory
// (issue 20, item 5: a server's connections used to keep spread tables of
// their own beside the shared cache). Tables are handed out as shared_ptr, so an evicted table
// stays valid for whoever still uses it. How a missing table is obtained is
// the loader's business (tables/table_store.h: read a file, build and save it,
// or refuse); a failed load is an error for the caller, never a silent build.
#ifndef PENK_SOLVER_TABLE_CACHE_H_
#define PENK_SOLVER_TABLE_CACHE_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/objective.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"

namespace penk {

// Which table: the rule variant, the rows blocked by opponents (bit k-1 =
// row k), the file it must come from (empty: the loader's default), and what
// it optimises (the AI players use the default, the expected score).
struct TableKey {
  Rules rules;
  uint32_t blocked_rows = 0;
  std::string file;
  Objective objective;
  bool operator<(const TableKey& o) const {
    return std::tie(rules.line_min, rules.penk_rows, blocked_rows, file, objective.target) <
           std::tie(o.rules.line_min, o.rules.penk_rows, o.blocked_rows, o.file,
                    o.objective.target);
  }
};

// "13" for rows 1 and 3 (bit k-1 = row k); "" for none.
std::string BlockedRowsDigits(uint32_t blocked_rows);

// "line-min=3,penk-lines=all blocked=12" (and the objective when a target):
// what a table is, for messages and progress.
std::string DescribeTableKey(const TableKey& key);

using TableLoader = std::function<absl::StatusOr<SolitaireTable>(const TableKey& key)>;
// The spread table of `values`, the value table of `key` (from the cache).
using SpreadLoader =
    std::function<absl::StatusOr<SpreadTable>(const TableKey& key, const SolitaireTable& values)>;

// Builds every table in memory (about 10 s each on one core); ignores `file`.
// For library users and tests without a table folder.
TableLoader InMemoryTableLoader();
SpreadLoader InMemorySpreadLoader();

// Thrown by the AI players when a decision needs a table the cache cannot
// give (missing with building off, refused file). The entry points that run
// players (engine, C API, CLI, Simulate) turn it into their error reply.
class TableUnavailable : public std::runtime_error {
 public:
  explicit TableUnavailable(const absl::Status& status)
      : std::runtime_error(std::string(status.message())), status_(status) {}
  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_;
};

class TableCache {
 public:
  static constexpr size_t kDefaultCapMegabytes = 256;
  static constexpr size_t kMaxCapMegabytes = 1 << 20;  // 1 TiB: beyond any machine

  // Without a spread loader GetSpread fails (FailedPrecondition).
  explicit TableCache(TableLoader loader, size_t cap_bytes = kDefaultCapMegabytes << 20,
                      SpreadLoader spread_loader = {});
  TableCache(const TableCache&) = delete;
  TableCache& operator=(const TableCache&) = delete;

  // The table for `key`, loaded on first use. A failed load is returned (and
  // not cached: a later request tries again, e.g. after `penk tables build`).
  absl::StatusOr<std::shared_ptr<const SolitaireTable>> Get(const TableKey& key);
  // The same for the default file of (rules, blocked rows); throws
  // TableUnavailable on failure (for the AI players' Decide).
  std::shared_ptr<const SolitaireTable> GetOrThrow(const Rules& rules, uint32_t blocked_rows);
  // The value table of `key` (as Get) and its spread table, loaded on first
  // use by the spread loader, one load per key at a time shared by every
  // waiter, under the same cap.
  struct Spreads {
    std::shared_ptr<const SolitaireTable> values;
    std::shared_ptr<const SpreadTable> spreads;
  };
  absl::StatusOr<Spreads> GetSpread(const TableKey& key);

  // Replaces the loaders for tables not yet cached; cached tables stay.
  void SetLoader(TableLoader loader);
  void SetLoaders(TableLoader loader, SpreadLoader spread_loader);
  // Changes the cap; evicts at once if over it.
  void SetCap(size_t cap_bytes);
  size_t cap_bytes() const;
  // Value tables held now, spread tables held now, the bytes of both
  // (tests, diagnostics).
  size_t size() const;
  size_t spread_count() const;
  size_t bytes() const;
  bool Contains(const TableKey& key) const;
  bool ContainsSpread(const TableKey& key) const;

 private:
  template <class T>
  struct Entry {
    std::shared_ptr<const T> table;  // null while loading
    uint64_t last_use = 0;
    size_t bytes = 0;
  };
  template <class T>
  using Entries = std::map<TableKey, Entry<T>>;
  // The single-flight lookup both kinds share: the table of `key` in
  // `entries`, or `load()` run outside the lock while others wait for it.
  template <class T, class Load>
  absl::StatusOr<std::shared_ptr<const T>> GetOrLoad(Entries<T>& entries, const TableKey& key,
                                                     Load load);
  // Drops least recently used tables of either kind until under the cap,
  // never the entry `keep` (of entries_ or spreads_).
  void EvictLocked(const void* keep);

  mutable std::mutex mutex_;
  std::condition_variable loaded_;
  TableLoader loader_;
  SpreadLoader spread_loader_;
  size_t cap_bytes_;
  size_t bytes_ = 0;
  uint64_t clock_ = 0;
  Entries<SolitaireTable> entries_;
  Entries<SpreadTable> spreads_;
};

// table.ValueOfCodes(codes), or, where the table has no value (a partial
// table's gap: a position with more than max_free free cells), a
// TableUnavailable naming the table (rules, blocked rows, objective) and
// saying so: a missing value is an error, never quietly replaced.
double ValueOrThrow(const SolitaireTable& table, ColumnCodes codes);

// Expected final score of `sheet` under optimal solitaire play from the start
// of a turn, in the table of its blocked rows; a sheet with two closed
// columns (R5.2) or a sheet that cannot arise in a game is worth its score.
// Throws TableUnavailable when the table cannot be had or has no value for
// the sheet (ValueOrThrow).
double SolitaireValueOfSheet(TableCache& tables, const Sheet& sheet, const Rules& rules);

}  // namespace penk

#endif  // PENK_SOLVER_TABLE_CACHE_H_
