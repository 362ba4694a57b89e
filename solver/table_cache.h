// Exact solitaire tables shared by the AI players, one per (rules, blocked
// rows): a sheet whose rows were crossed by opponents' PENKs (R4.2) is a
// solitaire game with those rows blocked (solver/solitaire_state.h), valued by
// the table built for exactly that set.
//
// The cache is process-wide, thread-safe and lazy: the first request for a key
// loads (or builds) the table, concurrent requests for the same key wait for
// it, requests for other keys proceed. Tables are never evicted: each holds
// 1,808,664 doubles (14.5 MB); a long multiplayer tournament with the default
// rules touches up to 32 of them (~460 MB). How a missing table is obtained is
// the loader's business: by default it is built in memory
// (BuildSolitaireTable, about 10 s on one core; the calling thread builds it),
// and the `penk` tools install a loader that reads and writes table files
// (tables/table_store.h, ~0.1 s to load a saved table).
#ifndef PENK_SOLVER_TABLE_CACHE_H_
#define PENK_SOLVER_TABLE_CACHE_H_

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/solitaire_dp.h"

namespace penk {

using TableLoader =
    std::function<absl::StatusOr<SolitaireTable>(const Rules& rules, uint32_t blocked_rows)>;

// Replaces the loader used for tables not yet cached (nullptr: the default,
// a full in-memory build). Already cached tables stay.
void SetTableLoader(TableLoader loader);

// Drops every cached table (tests that switch loaders). Not safe while other
// threads use tables.
void ClearTableCache();

// The table for `rules` and `blocked_rows` (bit k-1 = row k), loaded on first
// use. If the loader fails the table is built in memory instead (and the
// reason printed on stderr once). The reference stays valid until
// ClearTableCache.
const SolitaireTable& CachedTable(const Rules& rules, uint32_t blocked_rows);

// Expected final score of `sheet` under optimal solitaire play from the start
// of a turn, in the table of its blocked rows; a sheet with two closed
// columns (R5.2), a sheet the table did not solve (partial tables: NaN) or a
// sheet that cannot arise in a game is worth its score.
double SolitaireValueOfSheet(const Sheet& sheet, const Rules& rules);

}  // namespace penk

#endif  // PENK_SOLVER_TABLE_CACHE_H_
