#include "solver/table_cache.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/score.h"
#include "solver/solitaire_state.h"

namespace penk {
namespace {

struct Entry {
  std::once_flag once;
  SolitaireTable table;
};

struct Cache {
  std::mutex mutex;
  TableLoader loader;
  std::map<uint32_t, std::unique_ptr<Entry>> entries;
};

Cache& TheCache() {
  static Cache* cache = new Cache;  // never destroyed: threads may outlive main's statics
  return *cache;
}

uint32_t Key(const Rules& rules, uint32_t blocked_rows) {
  return (static_cast<uint32_t>(rules.line_min) << 8) | (rules.penk_rows ? 1u << 7 : 0u) |
         (blocked_rows & 31u);
}

}  // namespace

void SetTableLoader(TableLoader loader) {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.loader = std::move(loader);
}

void ClearTableCache() {
  Cache& c = TheCache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.entries.clear();
}

const SolitaireTable& CachedTable(const Rules& rules, uint32_t blocked_rows) {
  Cache& c = TheCache();
  Entry* entry;
  TableLoader loader;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    std::unique_ptr<Entry>& slot = c.entries[Key(rules, blocked_rows)];
    if (!slot) slot = std::make_unique<Entry>();
    entry = slot.get();
    loader = c.loader;
  }
  std::call_once(entry->once, [&] {
    if (loader) {
      absl::StatusOr<SolitaireTable> t = loader(rules, blocked_rows);
      if (t.ok() && t->rules() == rules && t->blocked_rows() == blocked_rows) {
        entry->table = *std::move(t);
        return;
      }
      std::fprintf(stderr, "penk: table for %s, blocked rows %u not loaded (%s); building it\n",
                   FormatRules(rules).c_str(), blocked_rows,
                   t.ok() ? "wrong table" : std::string(t.status().message()).c_str());
    }
    entry->table = BuildSolitaireTable(rules, kRows * kColumns, nullptr, blocked_rows);
  });
  return entry->table;
}

double SolitaireValueOfSheet(const Sheet& sheet, const Rules& rules) {
  const int score = Score(sheet, rules);
  if (sheet.ClosedColumns() >= 2) return score;  // R5.2: over
  absl::StatusOr<SolitairePosition> p = PositionOfSheet(sheet);
  if (!p.ok()) return score;
  const double v = CachedTable(rules, p->blocked_rows).ValueOfCodes(p->codes);
  return std::isnan(v) ? score : v;
}

}  // namespace penk
