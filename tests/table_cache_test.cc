// The TableCache (solver/table_cache.h): one load per key, least recently
// used tables evicted past the memory cap while tables in use stay valid,
// failed loads reported and retried, and nothing shared between caches.
#include "solver/table_cache.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "solver/solitaire_dp.h"

namespace penk {
namespace {

constexpr size_t kTableBytes = sizeof(double) * kNumSolitaireStates;

// A loader of tables that solve nothing (cheap), counting its calls.
TableLoader CountingLoader(std::atomic<int>* loads) {
  return [loads](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    ++*loads;
    return SolitaireTable(key.rules, 0, std::vector<double>(kNumSolitaireStates, std::nan("")),
                          key.blocked_rows);
  };
}

TableKey Blocked(uint32_t rows) { return TableKey{Rules{}, rows, "", {}}; }

TEST(TableCache, LoadsEachKeyOnce) {
  std::atomic<int> loads{0};
  TableCache cache(CountingLoader(&loads));
  auto a = cache.Get(Blocked(0));
  ASSERT_TRUE(a.ok());
  auto b = cache.Get(Blocked(0));
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(loads, 1);
  Rules columns;
  columns.penk_rows = false;
  ASSERT_TRUE(cache.Get(TableKey{columns, 0, "", {}}).ok());  // another variant, another table
  ASSERT_TRUE(cache.Get(TableKey{Rules{}, 0, "/some/file", {}}).ok());  // a named file too
  EXPECT_EQ(loads, 3);
  EXPECT_EQ(cache.bytes(), 3 * kTableBytes);
}

TEST(TableCache, EvictsTheLeastRecentlyUsedPastTheCap) {
  std::atomic<int> loads{0};
  TableCache cache(CountingLoader(&loads), 2 * kTableBytes + kTableBytes / 2);  // room for 2
  std::shared_ptr<const SolitaireTable> held = *cache.Get(Blocked(1));
  ASSERT_TRUE(cache.Get(Blocked(2)).ok());
  ASSERT_TRUE(cache.Get(Blocked(1)).ok());  // 1 is now more recent than 2
  ASSERT_TRUE(cache.Get(Blocked(3)).ok());  // evicts 2
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_LE(cache.bytes(), 2 * kTableBytes);
  EXPECT_TRUE(cache.Contains(Blocked(1)));
  EXPECT_FALSE(cache.Contains(Blocked(2)));
  EXPECT_TRUE(cache.Contains(Blocked(3)));
  ASSERT_TRUE(cache.Get(Blocked(4)).ok());  // evicts 1, which is still held here
  EXPECT_FALSE(cache.Contains(Blocked(1)));
  EXPECT_EQ(held->blocked_rows(), 1u);  // an evicted table stays valid while used
  EXPECT_EQ(held->values().size(), static_cast<size_t>(kNumSolitaireStates));
  EXPECT_EQ(loads, 4);
  ASSERT_TRUE(cache.Get(Blocked(2)).ok());  // evicted: loaded again
  EXPECT_EQ(loads, 5);
  // A cap below one table still serves one table at a time.
  cache.SetCap(1);
  EXPECT_EQ(cache.size(), 0u);
  ASSERT_TRUE(cache.Get(Blocked(5)).ok());
  EXPECT_EQ(cache.size(), 1u);
}

TEST(TableCache, FailedLoadsAreReportedAndRetried) {
  int calls = 0;
  TableCache cache([&calls](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    if (++calls == 1) return absl::NotFoundError("no table at x");
    return SolitaireTable(key.rules, 0, std::vector<double>(kNumSolitaireStates, 0.0),
                          key.blocked_rows);
  });
  auto first = cache.Get(Blocked(0));
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().message(), "no table at x");
  EXPECT_EQ(cache.size(), 0u);
  try {
    cache.GetOrThrow(Rules{}, 7);
  } catch (const TableUnavailable&) {
    ADD_FAILURE() << "the second load succeeds";
  }
  EXPECT_TRUE(cache.Get(Blocked(0)).ok());
  // A loader that throws is an error too, and does not leave waiters behind.
  TableCache throwing([](const TableKey&) -> absl::StatusOr<SolitaireTable> {
    throw std::bad_alloc();
  });
  EXPECT_THROW(throwing.GetOrThrow(Rules{}, 0), TableUnavailable);
  EXPECT_THROW(throwing.GetOrThrow(Rules{}, 0), TableUnavailable);
}

TEST(TableCache, ConcurrentRequestsShareOneLoad) {
  std::atomic<int> loads{0};
  TableCache cache(CountingLoader(&loads));
  std::vector<std::thread> threads;
  std::vector<const SolitaireTable*> got(8);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] { got[i] = cache.GetOrThrow(Rules{}, i % 2).get(); });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(loads, 2);
  for (int i = 2; i < 8; ++i) EXPECT_EQ(got[i], got[i % 2]);
}

TEST(TableCache, CachesShareNothing) {
  std::atomic<int> a_loads{0}, b_loads{0};
  TableCache a(CountingLoader(&a_loads)), b(CountingLoader(&b_loads));
  ASSERT_TRUE(a.Get(Blocked(0)).ok());
  ASSERT_TRUE(b.Get(Blocked(0)).ok());
  EXPECT_EQ(a_loads, 1);
  EXPECT_EQ(b_loads, 1);
}

}  // namespace
}  // namespace penk

namespace penk {
namespace {

// Spread tables of no positions (cheap), counting the loader's calls.
SpreadLoader CountingSpreadLoader(std::atomic<int>* loads) {
  return [loads](const TableKey& key, const SolitaireTable& values) -> absl::StatusOr<SpreadTable> {
    ++*loads;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let waiters pile up
    return SpreadTable(key.rules, values.max_free(), key.blocked_rows,
                       std::vector<double>(kNumSolitaireStates, std::nan("")), key.objective);
  };
}

// Issue 20, item 5: spread tables are in the cache (one build for every
// waiter, under the one cap), not kept by each session beside it.
TEST(TableCacheSpreads, OneLoadForEveryWaiter) {
  std::atomic<int> loads{0}, spread_loads{0};
  TableCache cache(CountingLoader(&loads), TableCache::kDefaultCapMegabytes << 20,
                   CountingSpreadLoader(&spread_loads));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      absl::StatusOr<TableCache::Spreads> s = cache.GetSpread(Blocked(3));
      if (s.ok() && s->values && s->spreads && s->spreads->blocked_rows() == 3) ++ok;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok, 8);
  EXPECT_EQ(loads, 1);
  EXPECT_EQ(spread_loads, 1);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.spread_count(), 1u);
  EXPECT_EQ(cache.bytes(), 2 * kTableBytes);
}

TEST(TableCacheSpreads, OneCapForBothKindsLeastRecentlyUsedFirst) {
  std::atomic<int> loads{0}, spread_loads{0};
  TableCache cache(CountingLoader(&loads), 2 * kTableBytes + kTableBytes / 2,
                   CountingSpreadLoader(&spread_loads));
  ASSERT_TRUE(cache.GetSpread(Blocked(1)).ok());  // values 1, then spreads 1
  ASSERT_TRUE(cache.Get(Blocked(2)).ok());        // over the cap: values 1 go
  EXPECT_LE(cache.bytes(), cache.cap_bytes());
  EXPECT_FALSE(cache.Contains(Blocked(1)));
  EXPECT_TRUE(cache.ContainsSpread(Blocked(1)));
  EXPECT_TRUE(cache.Contains(Blocked(2)));
  ASSERT_TRUE(cache.Get(Blocked(4)).ok());  // then spreads 1, the oldest now
  EXPECT_FALSE(cache.ContainsSpread(Blocked(1)));
  EXPECT_EQ(cache.spread_count(), 0u);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(TableCacheSpreads, FailuresAreReturnedAndNotKept) {
  std::atomic<int> loads{0};
  TableCache no_loader(CountingLoader(&loads));
  absl::StatusOr<TableCache::Spreads> s = no_loader.GetSpread(Blocked(0));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition) << s.status();
  int calls = 0;
  TableCache failing(CountingLoader(&loads), TableCache::kDefaultCapMegabytes << 20,
                     [&](const TableKey&, const SolitaireTable&) -> absl::StatusOr<SpreadTable> {
                       ++calls;
                       return absl::NotFoundError("no spread table");
                     });
  EXPECT_EQ(failing.GetSpread(Blocked(0)).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(failing.GetSpread(Blocked(0)).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(calls, 2);  // tried again, as value tables are
  EXPECT_EQ(failing.spread_count(), 0u);
}

}  // namespace
}  // namespace penk
