// The legal markings of up to kTurnBatch positions and their successors'
// values, one position per SIMD lane: the first half of the DP's batches
// (solver/solitaire_dp.cc, SolveBatch) and of the distributions' decisions
// (solver/distribution.cc, DecideFinalRolls), which then scatter the values
// to the rolls that form each marking, the DP keeping the maxima, the
// decisions the maxima and the markings.
#ifndef PENK_SOLVER_MARKING_LANES_H_
#define PENK_SOLVER_MARKING_LANES_H_

#include <cstdint>

#include "engine/marking.h"
#include "engine/sheet.h"
#include "solver/lanes.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "solver/turn_solver.h"

namespace penk {

// One position's legal markings, in catalog order, and what follows each:
// its successor's table index, or -1 and the leaf value when the marking
// ends the game (R5.2). About 14 KB: a thread's or a decider's buffer,
// written whole by FindPositionMarkings before it is read (no initialiser:
// a thread_local one is then free of the guard a constructor needs).
struct PositionMarkings {
  int count;
  uint16_t marking[kMaxCatalogMarkings];
  int32_t successor[kMaxCatalogMarkings];
  double leaf[kMaxCatalogMarkings];

  // The value after the i-th legal marking: the table's, or the leaf.
  double Value(const double* values, int i) const {
    return successor[i] >= 0 ? values[successor[i]] : leaf[i];
  }
};

// The position after a marking (its `cells`) from the live position of
// `codes`, valued by `table` (`rows` its blocked rows, `values` its values):
// its table index, its entry prefetched (the caller reads it after finding
// every marking's, so the cache misses overlap), or -1 with the finished
// game's value in `leaf` (two closed columns: over, R5.2, as ValueOfCodes).
// The one successor step of both finders below. `rows` and `values` are
// read by the caller once, outside its loop: read here, from `table`, the
// compiler must read them again after every store of an int32_t successor
// (it may alias the table's uint32_t rows): the table build measured 3%
// slower so (3 rounds), and as fast as before this way.
[[gnu::always_inline]] inline int32_t MarkingSuccessor(const SolitaireTable& table, uint32_t rows,
                                                       const double* values, const ColumnCodes& codes,
                                                       uint32_t cells, double& leaf) {
  ColumnCodes c = CodesAfterMarking(codes, cells, rows);
  SortCodes(c);
  if (CodeClosed(c[3])) {
    leaf = table.objective().Leaf(ScoreOfCodes(c, table.rules()));
    return -1;
  }
  const int32_t successor = static_cast<int32_t>(table.index().Of(c));
  __builtin_prefetch(&values[successor]);
  return successor;
}

// Fills `out` for the live position of `codes` (`sheet` its sheet, with the
// table's blocked rows). Every successor's table entry is prefetched before
// any is read (the caller reads them after): the lookups' cache misses (a
// 14.5 MB table) overlap instead of each waiting for the one before. The
// same values as ValueOfCodes, bit for bit. Always inlined, as
// FindMarkingLanes below: it runs inside its callers' dispatched clones.
[[gnu::always_inline]] inline void FindPositionMarkings(const SolitaireTable& table,
                                                        const ColumnCodes& codes,
                                                        const Sheet& sheet,
                                                        PositionMarkings& out) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const uint32_t rows = table.blocked_rows();
  const double* const values = table.values().data();
  int n = 0;
  ForEachMarking(catalog.Avoiding(~sheet.free()), [&](int id) {
    out.marking[n] = static_cast<uint16_t>(id);
    out.successor[n] = MarkingSuccessor(table, rows, values, codes, catalog.cells(id), out.leaf[n]);
    ++n;
  });
  out.count = n;
}

// FindMarkingLanes' result and buffers, one per thread (about 80 KB: on the
// heap). Arrays, not std::vector<Lanes>: a vector type as a template argument
// loses its alignment (GCC ignores its attributes there), and aligned vector
// stores then fault.
struct MarkingLanes {
  // The sheets of the lanes (their codes' sheets, with the table's blocked rows).
  Sheet sheets[kTurnBatch];
  // The markings legal in some lane, in catalog order, and their values per
  // lane: the table's value of the position after the marking, a finished
  // game's leaf, or kIllegal in a lane where the marking is not legal.
  int markings = 0;
  uint16_t marking[kMaxCatalogMarkings];
  alignas(64) Lanes value[kMaxCatalogMarkings];
  // successor[id * kTurnBatch + j]: the table index of the position after
  // catalog marking id in lane j, or -1 (the game ends: its value is
  // leaf[...]); written for the markings legal in lane j only.
  int32_t successor[kMaxCatalogMarkings * kTurnBatch];
  double leaf[kMaxCatalogMarkings * kTurnBatch];
};

// Fills `out` for the positions codes[0 .. count) (live, valued by `table`;
// idle lanes repeat lane 0). Every legal marking's successor is found and its
// table entry prefetched before any is read: the lookups' cache misses (a
// 14.5 MB table) overlap. The same values as ValueOfCodes, bit for bit.
// Always inlined: it runs inside its callers' dispatched clones.
[[gnu::always_inline]] inline void FindMarkingLanes(const SolitaireTable& table,
                                                    const ColumnCodes* codes, int count,
                                                    MarkingLanes& out) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const uint32_t rows = table.blocked_rows();
  const double* const values = table.values().data();
  MarkingSet legal[kTurnBatch];
  MarkingSet any{};
  for (int j = 0; j < count; ++j) {
    out.sheets[j] = SheetOfCodes(codes[j], rows);
    legal[j] = catalog.Avoiding(~out.sheets[j].free());
    for (size_t w = 0; w < any.size(); ++w) any[w] |= legal[j][w];
    ForEachMarking(legal[j], [&](int id) {
      const int i = id * kTurnBatch + j;
      out.successor[i] = MarkingSuccessor(table, rows, values, codes[j], catalog.cells(id), out.leaf[i]);
    });
  }
  int n = 0;
  ForEachMarking(any, [&](int id) {
    Lanes v;
    for (int j = 0; j < kTurnBatch; ++j) {
      const int p = j < count ? j : 0;  // idle lanes repeat lane 0
      const int i = id * kTurnBatch + p;
      if (!Contains(legal[p], id)) v[j] = kIllegal;
      else if (out.successor[i] >= 0) v[j] = values[out.successor[i]];
      else v[j] = out.leaf[i];
    }
    out.marking[n] = static_cast<uint16_t>(id);
    out.value[n++] = v;
  });
  out.markings = n;
}

// A lane mask of vector comparisons of Lanes (all ones where true), and
// integers per lane: the same width.
typedef int64_t LaneInts __attribute__((vector_size(kTurnBatch * sizeof(int64_t))));

// R3.5 for the lanes where some final roll of `final` (scattered from
// `lanes`' markings) is still kIllegal, no group being legal: the first best
// failure column by face (FailureColumns) into face[j], its value into
// value[j]; in the other lanes kIllegal and face 0. Returns whether some
// lane fails (a bool, not the lanes' mask: a vector returned by a function
// compiled outside the clones would change the ABI, -Wpsabi).
[[gnu::always_inline]] inline bool BestFailures(const SolitaireTable& table,
                                                const ColumnCodes* codes, int count,
                                                const MarkingLanes& lanes, const Lanes* final,
                                                Lanes& value, LaneInts& face) {
  LaneInts failing{};
  for (int r = 0; r < kNumRolls; ++r) failing |= final[r] == kIllegal;
  value = Lanes{} + kIllegal;
  face = LaneInts{};
  for (int j = 0; j < kTurnBatch; ++j) {
    if (!failing[j]) continue;
    const int p = j < count ? j : 0;  // idle lanes repeat lane 0
    for (int v = 1; v <= kColumns; ++v) {
      if (lanes.sheets[p].ColumnClosed(v)) continue;
      const double x = table.ValueOfCodes(CodesAfterFailure(codes[p], v));
      if (face[j] == 0 || x > value[j]) {
        face[j] = v;
        value[j] = x;
      }
    }
  }
  bool any = false;
  for (int j = 0; j < kTurnBatch; ++j) any |= failing[j] != 0;
  return any;
}

}  // namespace penk

#endif  // PENK_SOLVER_MARKING_LANES_H_
