// The dense index of a blocked-row table's positions (PositionIndex, issue
// 23 item 1) against an independent enumeration: every sorted multiset of
// five column codes a game can reach with those blocked rows, found here by
// plain nested loops over the raw codes and the rules (a column whose free
// cells are all blocked is closed, R4.2/R5.1; a live position has at most
// one closed column, R5.2), must get one index each, in [0, size), in the
// order of the loops, and come back from it.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"

namespace penk {
namespace {

// The codes a column can have with these rows blocked: open codes whose
// circled rows leave some unblocked free cell, then every closed code.
std::vector<uint8_t> PossibleCodes(uint32_t blocked) {
  std::vector<uint8_t> codes;
  for (uint32_t rows = 0; rows < 31; ++rows)
    if ((rows | blocked) != 31) codes.push_back(static_cast<uint8_t>(rows));
  for (uint32_t rows = 0; rows < 32; ++rows) codes.push_back(static_cast<uint8_t>(31 + rows));
  return codes;
}

// Checks the index of `blocked` on every position; returns how many.
int64_t CheckEveryPosition(uint32_t blocked) {
  const PositionIndex index(blocked);
  const std::vector<uint8_t> codes = PossibleCodes(blocked);
  std::vector<char> seen(static_cast<size_t>(index.size()), 0);
  int64_t count = 0;
  const size_t n = codes.size();
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a; b < n; ++b)
      for (size_t c = b; c < n; ++c)
        for (size_t d = c; d < n; ++d)
          for (size_t e = d; e < n; ++e) {
            const ColumnCodes s = {codes[a], codes[b], codes[c], codes[d], codes[e]};
            if (CodeClosed(s[3])) continue;  // two closed columns: over (R5.2)
            ++count;
            const int64_t i = index.Of(s);
            if (i < 0 || i >= index.size()) {
              ADD_FAILURE() << "index " << i << " out of 0.." << index.size();
              return count;
            }
            if (seen[i]++) {
              ADD_FAILURE() << "index " << i << " given twice";
              return count;
            }
            if (index.CodesOf(i) != s) {
              ADD_FAILURE() << "index " << i << " does not come back";
              return count;
            }
          }
  return count;
}

TEST(PositionIndex, OneIndexPerReachablePositionAndBack) {
  // One row blocked, two, three, four, all five; the others share these
  // counts by symmetry and are checked by size below.
  for (uint32_t blocked : {0b00001u, 0b10100u, 0b01011u, 0b11110u, 0b11111u}) {
    SCOPED_TRACE(blocked);
    const int64_t count = CheckEveryPosition(blocked);
    EXPECT_EQ(count, PositionIndex(blocked).size());
  }
}

TEST(PositionIndex, SizesAreTheCountsOfDocsPerformance) {
  // docs/PERFORMANCE.md "Blocked-row tables": C(n+4,5) + 32 C(n+3,4) with
  // n = 32 - 2^k open codes, k rows blocked.
  const std::array<int64_t, 6> by_rows = {1808664, 1587696, 1208256, 659880, 139536, 0};
  int64_t all = 0;
  for (uint32_t blocked = 0; blocked < 32; ++blocked) {
    EXPECT_EQ(PositionIndex(blocked).size(), by_rows[std::popcount(blocked)]) << blocked;
    if (blocked) all += PositionIndex(blocked).size();
  }
  EXPECT_EQ(all, 27317520);  // the 31 blocked-row tables
}

TEST(PositionIndex, WithoutBlockedRowsItIsTheSolitaireIndex) {
  const PositionIndex index(0);
  ASSERT_EQ(index.size(), kNumSolitaireStates);
  for (int64_t i = 0; i < kNumSolitaireStates; i += 7) {
    const ColumnCodes codes = StateOfIndex(i);
    ASSERT_EQ(index.Of(codes), i);
    ASSERT_EQ(index.CodesOf(i), codes);
  }
}

TEST(PositionIndex, TablesHoldOnlyTheirPositions) {
  // A build of each kind writes an array of exactly its index's size, and
  // reads its values through it (SolitaireTable::Value, the sheet's way in).
  for (uint32_t blocked : {0u, 0b00100u, 0b11011u}) {
    SCOPED_TRACE(blocked);
    const SolitaireTable t = BuildSolitaireTable(Rules{}, 4, nullptr, blocked);
    ASSERT_EQ(static_cast<int64_t>(t.values().size()), PositionIndex(blocked).size());
    int64_t solved = 0;
    for (int64_t i = 0; i < t.index().size(); ++i) {
      const ColumnCodes codes = t.index().CodesOf(i);
      if (FreeCellCount(codes, blocked) > 4) {
        ASSERT_TRUE(std::isnan(t.values()[i])) << i;
        continue;
      }
      ++solved;
      const absl::StatusOr<double> v = t.Value(SheetOfCodes(codes, blocked));
      ASSERT_TRUE(v.ok()) << v.status();
      ASSERT_EQ(*v, t.values()[i]) << i;
    }
    EXPECT_GT(solved, 0);
  }
}

}  // namespace
}  // namespace penk
