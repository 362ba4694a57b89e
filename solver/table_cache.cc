#include "solver/table_cache.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/score.h"
#include "solver/solitaire_state.h"

namespace penk {

TableLoader InMemoryTableLoader() {
  return [](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    return BuildSolitaireTable(key.rules, kRows * kColumns, nullptr, key.blocked_rows,
                               key.objective);
  };
}

TableCache::TableCache(TableLoader loader, size_t cap_bytes)
    : loader_(std::move(loader)), cap_bytes_(cap_bytes) {}

absl::StatusOr<std::shared_ptr<const SolitaireTable>> TableCache::Get(const TableKey& key) {
  TableLoader loader;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      auto it = entries_.find(key);
      if (it == entries_.end()) break;
      if (it->second.table) {
        it->second.last_use = ++clock_;
        return it->second.table;
      }
      loaded_.wait(lock);  // another thread loads it; look again when it is done
    }
    entries_[key];  // a placeholder: others wait for this load
    loader = loader_;
  }
  absl::StatusOr<SolitaireTable> loaded = absl::FailedPreconditionError("no table loader");
  try {  // the placeholder must go whatever happens, or waiters would wait forever
    if (loader) loaded = loader(key);
  } catch (const std::exception& e) {
    loaded = absl::ResourceExhaustedError(absl::StrCat("loading a table failed: ", e.what()));
  }
  if (loaded.ok() && (!(loaded->rules() == key.rules) || loaded->blocked_rows() != key.blocked_rows))
    loaded = absl::InternalError("the table loader returned a table of other rules or rows");
  std::shared_ptr<const SolitaireTable> table;
  if (loaded.ok()) table = std::make_shared<const SolitaireTable>(*std::move(loaded));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!table) {
      entries_.erase(key);
    } else {
      Entry& e = entries_[key];
      e.table = table;
      e.last_use = ++clock_;
      e.bytes = table->values().size() * sizeof(double);
      bytes_ += e.bytes;
      EvictLocked(&key);
    }
  }
  loaded_.notify_all();
  if (!table) return loaded.status();
  return table;
}

std::shared_ptr<const SolitaireTable> TableCache::GetOrThrow(const Rules& rules,
                                                             uint32_t blocked_rows) {
  absl::StatusOr<std::shared_ptr<const SolitaireTable>> t = Get(TableKey{rules, blocked_rows, "", {}});
  if (!t.ok()) throw TableUnavailable(t.status());
  return *std::move(t);
}

void TableCache::EvictLocked(const TableKey* keep) {
  // Least recently used first; the table just asked for always stays, so a
  // cap below one table still serves one table at a time.
  while (bytes_ > cap_bytes_) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (!it->second.table || (keep && !(it->first < *keep || *keep < it->first))) continue;
      if (victim == entries_.end() || it->second.last_use < victim->second.last_use) victim = it;
    }
    if (victim == entries_.end()) return;
    bytes_ -= victim->second.bytes;
    entries_.erase(victim);
  }
}

void TableCache::SetLoader(TableLoader loader) {
  std::lock_guard<std::mutex> lock(mutex_);
  loader_ = std::move(loader);
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

size_t TableCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

bool TableCache::Contains(const TableKey& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  return it != entries_.end() && it->second.table;
}

double SolitaireValueOfSheet(TableCache& tables, const Sheet& sheet, const Rules& rules) {
  const int score = Score(sheet, rules);
  if (sheet.ClosedColumns() >= 2) return score;  // R5.2: over
  absl::StatusOr<SolitairePosition> p = PositionOfSheet(sheet);
  if (!p.ok()) return score;
  const double v = tables.GetOrThrow(rules, p->blocked_rows)->ValueOfCodes(p->codes);
  return std::isnan(v) ? score : v;
}

}  // namespace penk
