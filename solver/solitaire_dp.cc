#include "solver/solitaire_dp.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/dispatch.h"
#include "engine/marking.h"
#include "engine/score.h"
#include "solver/turn_solver.h"

namespace penk {
namespace {

// The start values of up to kTurnBatch positions of one layer (one SIMD lane
// each in the turn solver), from the table's values of the positions after
// them. All of the DP's inner work, in one function so that the dispatched
// clones (PENK_HOT) cover it: the OpenMP region calling it is a function of
// its own, compiled for the baseline.
PENK_HOT void SolveBatch(const SolitaireTable& table, const int32_t* states, int count,
                         uint32_t blocked_rows, double* final_rolls, double* start) {
  const double* finals[kTurnBatch];
  for (int j = 0; j < count; ++j) {
    const ColumnCodes codes = StateOfIndex(states[j]);
    const Sheet sheet = SheetOfCodes(codes, blocked_rows);
    FinalRollValues(
        sheet,
        [&](uint32_t cells) {
          return table.ValueOfCodes(CodesAfterMarking(codes, cells, blocked_rows));
        },
        [&](int face) { return table.ValueOfCodes(CodesAfterFailure(codes, face)); },
        &final_rolls[j * kNumRolls]);
    finals[j] = &final_rolls[j * kNumRolls];
  }
  TurnStartValues(finals, count, start);
}

}  // namespace

// PENK_HOT: the popcounts (every marking that ends the game lands here).
PENK_HOT int ScoreOfCodes(const ColumnCodes& codes, const Rules& rules) {
  int total = 0;
  int row_count[kRows] = {};
  for (uint8_t code : codes) {
    uint32_t rows = CodeRows(code);
    int n = std::popcount(rows);
    for (int k = 0; k < kRows; ++k) row_count[k] += rows >> k & 1;
    if (n >= rules.line_min)  // R6.2
      for (int k = 0; k < kRows; ++k)
        if (rows >> k & 1) total += kRowPoints[k];
  }
  for (int k = 0; k < kRows; ++k)
    if (row_count[k] >= rules.line_min) total += row_count[k] * kRowPoints[k];  // R6.1
  return total;
}

double SolitaireTable::ValueOfCodes(ColumnCodes c) const {
  SortCodes(c);
  // Two closed columns: over (R5.2).
  if (CodeClosed(c[3])) return objective_.Leaf(ScoreOfCodes(c, rules_));
  return values_[StateIndex(c)];
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

SolitaireTable BuildSolitaireTable(const Rules& rules, int max_free,
                                   const BuildProgress& progress, uint32_t blocked_rows,
                                   Objective objective) {
  std::vector<double> values(kNumSolitaireStates, std::nan(""));
  // Layers by free cells: every successor has fewer, so is solved before.
  std::vector<std::vector<int32_t>> layers(kRows * kColumns + 1);
  int64_t total = 0;
  for (int64_t i = 0; i < kNumSolitaireStates; ++i) {
    const ColumnCodes codes = StateOfIndex(i);
    if (!CodesValid(codes, blocked_rows)) continue;
    int f = FreeCellCount(codes, blocked_rows);
    if (f <= max_free) {
      layers[f].push_back(static_cast<int32_t>(i));
      ++total;
    }
  }
  SolitaireTable table(rules, max_free, std::move(values), blocked_rows, objective);
  std::vector<double>& v = const_cast<std::vector<double>&>(table.values());
  std::atomic<int64_t> done{0};

  for (const std::vector<int32_t>& layer : layers) {
#pragma omp parallel
    {
      std::vector<double> final_rolls(kTurnBatch * kNumRolls);
      double start[kTurnBatch];
#pragma omp for schedule(dynamic, 16)
      for (size_t base = 0; base < layer.size(); base += kTurnBatch) {
        const int count = static_cast<int>(std::min<size_t>(kTurnBatch, layer.size() - base));
        SolveBatch(table, &layer[base], count, blocked_rows, final_rolls.data(), start);
        for (int j = 0; j < count; ++j) v[layer[base + j]] = start[j];
        if (progress && omp_get_thread_num() == 0 && (base & 1023) == 0)
          progress(done + base, total);
      }
    }
    done += layer.size();
    if (progress) progress(done, total);
  }
  return table;
}

}  // namespace penk
