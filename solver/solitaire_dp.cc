#include "solver/solitaire_dp.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/dispatch.h"
#include "engine/marking.h"
#include "engine/score.h"
#include "solver/marking_lanes.h"
#include "solver/turn_solver.h"

namespace penk {
namespace {

// FinalRollValues with ValueOfCodes as the valuation, with the table
// lookups taken out of the scatter: first every legal marking's successor
// (FindPositionMarkings: its table index, prefetched, or the leaf value of
// a marking that ends the game), then the values scattered to the rolls.
// Interleaved, each lookup (a likely cache miss in a 14.5 MB table) was
// followed by the marking's scatter, dozens of loads and stores that filled
// the out-of-order window before the next lookup could start; now the
// lookups' misses overlap (a smaller window, Zen 3's, gains the more). The
// same values, maxima and order: bit for bit the same results. Inlined into
// its dispatched callers.
[[gnu::always_inline]] inline void PositionFinalRollValues(const SolitaireTable& table,
                                                           const ColumnCodes& codes,
                                                           const Sheet& sheet,
                                                           PositionMarkings& legal, double* out) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const double* const values = table.values().data();
  FindPositionMarkings(table, codes, sheet, legal);
  std::fill(out, out + kNumRolls, kIllegal);
  for (int i = 0; i < legal.count; ++i) {
    const double v = legal.Value(values, i);
    for (uint16_t r : catalog.RollsOf(legal.marking[i])) out[r] = v > out[r] ? v : out[r];
  }
  FillFailures(  // R3.5
      sheet, [&](int v) { return table.ValueOfCodes(CodesAfterFailure(codes, v)); }, out);
}

// SolveBatch's buffers, one per thread.
struct BatchScratch {
  MarkingLanes lanes;
  // The turn solver's lattice: the final rolls' values are scattered to its
  // rolls, and the turn is solved in place (TurnStartValuesInPlace).
  alignas(64) Lanes lattice[kNumKeeps];
};

// The start values of up to kTurnBatch positions of one layer (one SIMD lane
// each in the turn solver), from the table's values of the positions after
// them. All of the DP's inner work, in one function so that the dispatched
// clones (PENK_HOT) cover it: the OpenMP region calling it is a function of
// its own, compiled for the baseline.
//
// The final-roll values of the positions (FinalRollValues with ValueOfCodes,
// as PositionFinalRollValues) are found for the lanes together: each marking
// legal in some lane is scattered once, as a vector with kIllegal in the
// lanes where it is not legal, to the rolls that form it. The scatter, a
// load, a maximum and a store per (marking, roll), was a fifth of the
// build's CPU time with one position at a time (perf; the final-roll values
// as a whole two thirds); a vector store does the work of up to four,
// and the result is already in the turn solver's lanes. Per lane the same
// values and maxima in the same order, so the same table bit for bit; the
// successors' table lookups are prefetched first, as PositionFinalRollValues.
PENK_HOT void SolveBatch(const SolitaireTable& table, const int32_t* states, int count,
                         BatchScratch& scratch, double* start) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  ColumnCodes codes[kTurnBatch];
  for (int j = 0; j < count; ++j) codes[j] = table.index().CodesOf(states[j]);
  MarkingLanes& lanes = scratch.lanes;
  FindMarkingLanes(table, codes, count, lanes);
  Lanes* const out = scratch.lattice + kNumKeepsBelowSix;
  std::fill(out, out + kNumRolls, Lanes{} + kIllegal);
  for (int i = 0; i < lanes.markings; ++i) {
    const Lanes v = lanes.value[i];
    for (uint16_t r : catalog.RollsOf(lanes.marking[i])) SetLaneMax(out[r], v, out[r]);
  }
  // R3.5: a roll that forms no legal group takes the best failure. Which
  // lanes have such a roll, by vector comparisons (a scan of each lane's
  // rolls was a fifth of this function, perf), then the failures of those
  // lanes only, blended in.
  Lanes failure;
  LaneInts face;
  if (BestFailures(table, codes, count, lanes, out, failure, face))
    for (int r = 0; r < kNumRolls; ++r) out[r] = out[r] == kIllegal ? failure : out[r];
  TurnStartValuesInPlace(reinterpret_cast<double*>(scratch.lattice), count, start);
}

}  // namespace

PENK_HOT void TableFinalRollValues(const SolitaireTable& table, const ColumnCodes& codes,
                                   const Sheet& sheet, double* out) {
  thread_local PositionMarkings legal;
  PositionFinalRollValues(table, codes, sheet, legal, out);
}

// Per circled-rows mask: its rows as 3-bit counters (row k at bit 3(k-1)),
// so that five columns' masks add up to the row counts (at most 5 each), and
// the sum of its rows' points.
struct RowTables {
  uint32_t counters[32];
  int points[32];
  constexpr RowTables() : counters(), points() {
    for (uint32_t rows = 0; rows < 32; ++rows)
      for (int k = 0; k < kRows; ++k)
        if (rows >> k & 1) {
          counters[rows] += 1u << (3 * k);
          points[rows] += kRowPoints[k];
        }
  }
};
inline constexpr RowTables kRowTables;

// PENK_HOT: the popcounts (every marking that ends the game lands here).
PENK_HOT int ScoreOfCodes(const ColumnCodes& codes, const Rules& rules) {
  int total = 0;
  uint32_t row_counts = 0;
  for (uint8_t code : codes) {
    const uint32_t rows = CodeRows(code);
    row_counts += kRowTables.counters[rows];
    if (std::popcount(rows) >= rules.line_min) total += kRowTables.points[rows];  // R6.2
  }
  for (int k = 0; k < kRows; ++k) {
    const int count = row_counts >> (3 * k) & 7;
    if (count >= rules.line_min) total += count * kRowPoints[k];  // R6.1
  }
  return total;
}

double SolitaireTable::ValueOfCodes(ColumnCodes c) const {
  SortCodes(c);
  // Two closed columns: over (R5.2).
  if (CodeClosed(c[3])) return objective_.Leaf(ScoreOfCodes(c, rules_));
  return values_[index_.Of(c)];
}

absl::StatusOr<double> SolitaireTable::Value(const Sheet& sheet) const {
  absl::StatusOr<SolitairePosition> position = PositionOfSheet(sheet);
  if (!position.ok()) return position.status();
  if (sheet.ClosedColumns() >= 2)  // R5.2
    return objective_.Leaf(ScoreOfCodes(position->codes, rules_));
  // A row can count as blocked when it has no free cell anyway.
  uint32_t free_rows = 0;
  for (int k = 1; k <= kRows; ++k)
    if (sheet.free() & RowMask(k)) free_rows |= 1u << (k - 1);
  if ((position->blocked_rows & ~blocked_rows_) || (blocked_rows_ & free_rows)) {
    if (blocked_rows_ == 0)
      return absl::InvalidArgumentError(absl::StrCat(
          "sheet ", FormatSheet(sheet), " is not a solitaire position: it has cells crossed in "
          "a column that is not closed (in solitaire only a failure crosses, R3.5, and it "
          "crosses the whole column)"));
    return absl::InvalidArgumentError(
        absl::StrCat("sheet ", FormatSheet(sheet), " has blocked rows ", position->blocked_rows,
                     "; this table is for blocked rows ", blocked_rows_));
  }
  double v = ValueOfCodes(position->codes);
  if (std::isnan(v))
    return absl::FailedPreconditionError(
        absl::StrCat("the table solves positions with at most ", max_free_,
                     " free cells; this sheet has ", sheet.FreeCount()));
  return v;
}

TableBuild::TableBuild(const Rules& rules, int max_free, uint32_t blocked_rows, Objective objective)
    : table_(rules, max_free,
             std::vector<double>(PositionIndex(blocked_rows).size(), std::nan("")), blocked_rows,
             objective),
      layers_(kRows * kColumns + 1) {
  // Layers by free cells: every successor has fewer, so is solved before.
  const PositionIndex& index = table_.index();
  for (int64_t i = 0; i < index.size(); ++i) {
    const ColumnCodes codes = index.CodesOf(i);
    int f = FreeCellCount(codes, blocked_rows);
    if (f <= max_free) {
      layers_[f].push_back(static_cast<int32_t>(i));
      ++total_;
    }
  }
}

void TableBuild::Solve(int layer_number, size_t begin, size_t end, const BuildProgress& progress,
                       int64_t done_before) {
  const std::vector<int32_t>& layer = layers_[layer_number];
  std::vector<double>& v = const_cast<std::vector<double>&>(table_.values());
  end = std::min(end, layer.size());
#pragma omp parallel
  {
    // On the heap: 48 KB, too much for the stack of a caller's thread.
    const std::unique_ptr<BatchScratch> scratch = std::make_unique<BatchScratch>();
    double start[kTurnBatch];
#pragma omp for schedule(dynamic, 16)
    for (size_t base = begin; base < end; base += kTurnBatch) {
      const int count = static_cast<int>(std::min<size_t>(kTurnBatch, end - base));
      SolveBatch(table_, &layer[base], count, *scratch, start);
      for (int j = 0; j < count; ++j) v[layer[base + j]] = start[j];
      if (progress && omp_get_thread_num() == 0 && ((base - begin) & 1023) == 0)
        progress(done_before + static_cast<int64_t>(base - begin), total_);
    }
  }
}

void TableBuild::Values(int layer, size_t begin, size_t end, double* out) const {
  const std::vector<int32_t>& l = layers_[layer];
  for (size_t i = begin; i < end && i < l.size(); ++i) out[i - begin] = table_.values()[l[i]];
}

void TableBuild::Set(int layer, size_t begin, size_t end, const double* values) {
  const std::vector<int32_t>& l = layers_[layer];
  std::vector<double>& v = const_cast<std::vector<double>&>(table_.values());
  for (size_t i = begin; i < end && i < l.size(); ++i) v[l[i]] = values[i - begin];
}

SolitaireTable BuildSolitaireTable(const Rules& rules, int max_free,
                                   const BuildProgress& progress, uint32_t blocked_rows,
                                   Objective objective) {
  TableBuild build(rules, max_free, blocked_rows, objective);
  int64_t done = 0;
  for (int layer = 0; layer < build.layer_count(); ++layer) {
    build.Solve(layer, 0, build.layer_size(layer), progress, done);
    done += static_cast<int64_t>(build.layer_size(layer));
    if (progress) progress(done, build.positions());
  }
  return std::move(build).Finish();
}

}  // namespace penk
