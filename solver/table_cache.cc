#include "solver/table_cache.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/rules.h"
#include "solver/objective.h"
#include "engine/score.h"
#include "solver/solitaire_state.h"
#include "solver/work_progress.h"

namespace penk {

TableLoader InMemoryTableLoader() {
  return [](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    return BuildSolitaireTable(key.rules, kRows * kColumns, nullptr, key.blocked_rows,
                               key.objective);
  };
}

SpreadLoader InMemorySpreadLoader() {
  return [](const TableKey&, const SolitaireTable& values) -> absl::StatusOr<SpreadTable> {
    return BuildSpreadTable(values, {});
  };
}

std::string BlockedRowsDigits(uint32_t blocked_rows) {
  std::string digits;
  for (int k = 1; k <= kRows; ++k)
    if (blocked_rows >> (k - 1) & 1) absl::StrAppend(&digits, k);
  return digits;
}

std::string DescribeTableKey(const TableKey& key) {
  const std::string rows = BlockedRowsDigits(key.blocked_rows);
  return absl::StrCat(FormatRules(key.rules), rows.empty() ? "" : absl::StrCat(" blocked=", rows),
                      key.objective.is_target() ? absl::StrCat(" ", FormatObjective(key.objective))
                                                : "");
}

TableCache::TableCache(TableLoader loader, size_t cap_bytes, SpreadLoader spread_loader)
    : loader_(std::move(loader)), spread_loader_(std::move(spread_loader)), cap_bytes_(cap_bytes) {}

namespace {

size_t BytesOf(const SolitaireTable& t) { return t.values().size() * sizeof(double); }
size_t BytesOf(const SpreadTable& t) {
  return (t.variances().size() + t.means().size()) * sizeof(double);
}

// What a loader must give for `key`: a table of another key would be served
// for this one.
template <class T>
absl::Status MatchesKey(const T& t, const TableKey& key) {
  if (!(t.rules() == key.rules) || t.blocked_rows() != key.blocked_rows ||
      !(t.objective() == key.objective))
    return absl::InternalError("the table loader returned a table of other rules, rows or objective");
  return absl::OkStatus();
}

}  // namespace

template <class T, class Load>
absl::StatusOr<std::shared_ptr<const T>> TableCache::GetOrLoad(Entries<T>& entries,
                                                               const TableKey& key, Load load) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      auto it = entries.find(key);
      if (it == entries.end()) break;
      if (it->second.table) {
        it->second.last_use = ++clock_;
        return it->second.table;
      }
      // Another thread loads it (for another request, maybe another
      // client's): the watcher of this one learns what it waits for.
      WorkStage waiting(CurrentWorkProgress(),
                        absl::StrCat("waiting for table ", DescribeTableKey(key),
                                     ", which another request is loading"));
      loaded_.wait(lock);  // look again when it is done
    }
    entries[key];  // a placeholder: others wait for this load
  }
  WorkStage loading(CurrentWorkProgress(), absl::StrCat("loading table ", DescribeTableKey(key)));
  absl::StatusOr<T> loaded = absl::UnknownError("not loaded");
  try {  // the placeholder must go whatever happens, or waiters would wait forever
    loaded = load();
  } catch (const std::exception& e) {
    loaded = absl::ResourceExhaustedError(absl::StrCat("loading a table failed: ", e.what()));
  }
  if (loaded.ok())
    if (absl::Status match = MatchesKey(*loaded, key); !match.ok()) loaded = match;
  std::shared_ptr<const T> table;
  if (loaded.ok()) {
    try {
      table = std::make_shared<const T>(*std::move(loaded));
    } catch (const std::bad_alloc&) {
      loaded = absl::ResourceExhaustedError("out of memory for a table");
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries.find(key);
    if (!table) {
      entries.erase(it);
    } else {
      Entry<T>& e = it->second;
      e.table = table;
      e.last_use = ++clock_;
      e.bytes = BytesOf(*table);
      bytes_ += e.bytes;
      EvictLocked(&e);
    }
  }
  loaded_.notify_all();
  if (!table) return loaded.status();
  return table;
}

absl::StatusOr<std::shared_ptr<const SolitaireTable>> TableCache::Get(const TableKey& key) {
  return GetOrLoad(entries_, key, [&]() -> absl::StatusOr<SolitaireTable> {
    TableLoader loader;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      loader = loader_;
    }
    if (!loader) return absl::FailedPreconditionError("no table loader");
    return loader(key);
  });
}

std::shared_ptr<const SolitaireTable> TableCache::GetOrThrow(const Rules& rules,
                                                             uint32_t blocked_rows) {
  absl::StatusOr<std::shared_ptr<const SolitaireTable>> t = Get(TableKey{rules, blocked_rows, "", {}});
  if (!t.ok()) throw TableUnavailable(t.status());
  return *std::move(t);
}

absl::StatusOr<TableCache::Spreads> TableCache::GetSpread(const TableKey& key) {
  absl::StatusOr<std::shared_ptr<const SolitaireTable>> values = Get(key);
  if (!values.ok()) return values.status();
  const SolitaireTable& v = **values;
  absl::StatusOr<std::shared_ptr<const SpreadTable>> spreads =
      GetOrLoad(spreads_, key, [&]() -> absl::StatusOr<SpreadTable> {
        SpreadLoader loader;
        {
          std::lock_guard<std::mutex> lock(mutex_);
          loader = spread_loader_;
        }
        if (!loader) return absl::FailedPreconditionError("no spread table loader");
        absl::StatusOr<SpreadTable> s = loader(key, v);
        if (s.ok() && s->max_free() != v.max_free())
          return absl::InternalError("the spread table loader returned a table of another size");
        return s;
      });
  if (!spreads.ok()) return spreads.status();
  return Spreads{*std::move(values), *std::move(spreads)};
}

void TableCache::EvictLocked(const void* keep) {
  // Least recently used first, of either kind; the table just loaded always
  // stays, so a cap below one table still serves one table at a time.
  while (bytes_ > cap_bytes_) {
    const Entry<SolitaireTable>* value_victim = nullptr;
    const Entry<SpreadTable>* spread_victim = nullptr;
    TableKey victim_key;
    uint64_t oldest = UINT64_MAX;
    for (const auto& [k, e] : entries_)
      if (e.table && &e != keep && e.last_use < oldest) {
        oldest = e.last_use, value_victim = &e, spread_victim = nullptr, victim_key = k;
      }
    for (const auto& [k, e] : spreads_)
      if (e.table && &e != keep && e.last_use < oldest) {
        oldest = e.last_use, spread_victim = &e, value_victim = nullptr, victim_key = k;
      }
    if (value_victim) {
      bytes_ -= value_victim->bytes;
      entries_.erase(victim_key);
    } else if (spread_victim) {
      bytes_ -= spread_victim->bytes;
      spreads_.erase(victim_key);
    } else {
      return;
    }
  }
}

void TableCache::SetLoader(TableLoader loader) {
  std::lock_guard<std::mutex> lock(mutex_);
  loader_ = std::move(loader);
}

void TableCache::SetLoaders(TableLoader loader, SpreadLoader spread_loader) {
  std::lock_guard<std::mutex> lock(mutex_);
  loader_ = std::move(loader);
  spread_loader_ = std::move(spread_loader);
}

void TableCache::SetCap(size_t cap_bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  cap_bytes_ = cap_bytes;
  EvictLocked(nullptr);
}

size_t TableCache::cap_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cap_bytes_;
}

size_t TableCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [key, e] : entries_) n += e.table != nullptr;
  return n;
}

size_t TableCache::spread_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [key, e] : spreads_) n += e.table != nullptr;
  return n;
}

size_t TableCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

bool TableCache::Contains(const TableKey& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  return it != entries_.end() && it->second.table;
}

bool TableCache::ContainsSpread(const TableKey& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = spreads_.find(key);
  return it != spreads_.end() && it->second.table;
}

double SolitaireValueOfSheet(TableCache& tables, const Sheet& sheet, const Rules& rules) {
  const int score = Score(sheet, rules);
  if (sheet.ClosedColumns() >= 2) return score;  // R5.2: over
  absl::StatusOr<SolitairePosition> p = PositionOfSheet(sheet);
  if (!p.ok()) return score;
  return ValueOrThrow(*tables.GetOrThrow(rules, p->blocked_rows), p->codes);
}

double ValueOrThrow(const SolitaireTable& table, ColumnCodes codes) {
  const double v = table.ValueOfCodes(codes);
  if (!std::isnan(v)) return v;
  std::string rows;
  for (int k = 1; k <= kRows; ++k)
    if (table.blocked_rows() >> (k - 1) & 1) rows += static_cast<char>('0' + k);
  const int free = FreeCellCount(codes, table.blocked_rows());
  throw TableUnavailable(absl::FailedPreconditionError(absl::StrCat(
      "the table for rules ", FormatRules(table.rules()), ", blocked rows ",
      rows.empty() ? "none" : rows, ", objective ", FormatObjective(table.objective()),
      table.max_free() < kRows * kColumns
          ? absl::StrCat(" is partial (positions with at most ", table.max_free(),
                         " free cells) and has no value for this position (", free,
                         " free cells)")
          : " has no value for this position (it is not one of the table's positions)")));
}

}  // namespace penk
