// The whole-game DP of solitaire PENK: the optimal expected final score of
// every live position, by backward induction (R5.2: solitaire ends after the
// turn that leaves two closed columns).
//
// Every turn removes free cells (a marking circles some, a failure crosses
// some), so positions are solved in layers of increasing free-cell count;
// within a layer they are independent and shared among OpenMP threads. Each
// position's widget is the turn solver with "value of the position after the
// marking" as its leaf.
#ifndef PENK_SOLVER_SOLITAIRE_DP_H_
#define PENK_SOLVER_SOLITAIRE_DP_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/objective.h"
#include "solver/solitaire_state.h"

namespace penk {

class SolitaireTable {
 public:
  SolitaireTable() = default;
  // `values` has PositionIndex(blocked_rows).size() entries, in its order
  // (kNumSolitaireStates without blocked rows); positions with more than
  // `max_free` free cells were not solved (NaN).
  SolitaireTable(const Rules& rules, int max_free, std::vector<double> values,
                 uint32_t blocked_rows = 0, Objective objective = {})
      : rules_(rules), max_free_(max_free), blocked_rows_(blocked_rows),
        objective_(objective), index_(blocked_rows), values_(std::move(values)) {}

  const Rules& rules() const { return rules_; }
  int max_free() const { return max_free_; }
  // Rows crossed by opponents' PENKs (bit k-1 = row k); 0 for solitaire.
  uint32_t blocked_rows() const { return blocked_rows_; }
  // What the values are: expected final scores (the default) or, for a target
  // objective, probabilities of reaching the target.
  const Objective& objective() const { return objective_; }
  const std::vector<double>& values() const { return values_; }
  // Where a position's value is in values() (its blocked rows' live positions only).
  const PositionIndex& index() const { return index_; }

  // Optimal value from the start of a turn on a solitaire sheet (with this
  // table's blocked rows): the expected final score, or P(score >= target);
  // a finished sheet's value is objective().Leaf(its score).
  absl::StatusOr<double> Value(const Sheet& sheet) const;
  // The same for sorted column codes (live or finished); the hot path.
  double ValueOfCodes(ColumnCodes sorted) const;

 private:
  Rules rules_;
  int max_free_ = 0;
  uint32_t blocked_rows_ = 0;
  Objective objective_;
  PositionIndex index_;
  std::vector<double> values_;
};

// Called now and then with the number of positions solved so far.
using BuildProgress = std::function<void(int64_t done, int64_t total)>;

// Solves every live position with at most `max_free` free cells (25: all),
// in the game where `blocked_rows` are crossed (0: solitaire), for the
// objective (the leaf value of a finished position; the induction is the same).
SolitaireTable BuildSolitaireTable(const Rules& rules, int max_free = 25,
                                   const BuildProgress& progress = nullptr,
                                   uint32_t blocked_rows = 0, Objective objective = {});

// BuildSolitaireTable in steps, for a builder that shares the work out
// itself: the static site's two Web Workers, which share no memory, each
// solve half of every layer and hand their values to the other before the
// next layer (wasm/module.cc). Layers are the positions of one free-cell
// count, solved in order (every successor has fewer free cells); a position's
// value depends only on the layers before, so any split gives the table
// BuildSolitaireTable gives, bit for bit.
class TableBuild {
 public:
  TableBuild(const Rules& rules, int max_free, uint32_t blocked_rows, Objective objective);
  int layer_count() const { return static_cast<int>(layers_.size()); }
  size_t layer_size(int layer) const { return layers_[layer].size(); }
  int64_t positions() const { return total_; }
  // Solves positions [begin, end) of `layer` (OpenMP threads share them);
  // every layer before must be solved or set. `progress` gets the positions
  // of the whole build done so far, `done_before` of them before this call.
  void Solve(int layer, size_t begin, size_t end, const BuildProgress& progress = nullptr,
             int64_t done_before = 0);
  // The values of positions [begin, end) of `layer`, to `out`; and the
  // reverse, values solved elsewhere.
  void Values(int layer, size_t begin, size_t end, double* out) const;
  void Set(int layer, size_t begin, size_t end, const double* values);
  const SolitaireTable& table() const { return table_; }
  SolitaireTable Finish() && { return std::move(table_); }

 private:
  SolitaireTable table_;
  std::vector<std::vector<int32_t>> layers_;
  int64_t total_ = 0;
};

// FinalRollValues on `sheet` valued by the table (each marking's successor
// by ValueOfCodes, a failure's likewise), the same values bit for bit, with
// the table lookups prefetched and the code dispatched (engine/dispatch.h):
// the turn solver's input for the advisor. `codes` are the sheet's, sorted
// or in place (CodesInPlace); the sheet has the table's blocked rows.
void TableFinalRollValues(const SolitaireTable& table, const ColumnCodes& codes,
                          const Sheet& sheet, double* out);

// Score of the sheet of unsorted codes (R6); fast path for finished positions.
int ScoreOfCodes(const ColumnCodes& codes, const Rules& rules);

}  // namespace penk

#endif  // PENK_SOLVER_SOLITAIRE_DP_H_
