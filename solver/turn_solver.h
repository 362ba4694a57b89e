// Expectimax over one turn (R2, R3) on the multiset space of dice.
//
// Input: the value of every final roll (after the last roll, the best marking
// or failure under some valuation of the resulting position). Output: the
// value of every decision point of the turn. The valuation is the caller's:
// expected final score, a win probability, a heuristic -- the turn is the same.
//
// Keeps are evaluated once per stage on the keep lattice (DiceSpace): the
// value of keeping K before a reroll is the mean over one more die of the
// value of K + die, down from six dice; the best keep of a roll is a running
// maximum over the lattice from small keeps up. Both are O(924 * 6) per stage
// instead of O(462 rolls * subsets * outcomes).
#ifndef PENK_SOLVER_TURN_SOLVER_H_
#define PENK_SOLVER_TURN_SOLVER_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/sheet.h"

namespace penk {

inline constexpr int kRerolls = 2;  // R2.2
inline constexpr double kIllegal = -std::numeric_limits<double>::infinity();

struct TurnValues {
  // roll[n][r]: value of holding roll r with n rerolls left, playing on optimally.
  // roll[0] is the caller's input: the value of each final roll.
  std::array<std::array<double, kNumRolls>, kRerolls + 1> roll;
  // keep[n-1][k]: value of keeping keep k (fewer than six dice) and rerolling
  // the others when n rerolls are left (n = 1, 2).
  std::array<std::array<double, kNumKeepsBelowSix>, kRerolls> keep;
  // Value before the first roll of the turn.
  double start = 0;

  // Value of choosing keep k from roll r with n >= 1 rerolls left: keeping
  // all six dice is stopping (R2.2), anything else rerolls.
  double KeepValue(int n, int roll_index, int k) const {
    return k >= kNumKeepsBelowSix ? roll[0][roll_index] : keep[n - 1][k];
  }
  // The keep to play from roll r with n >= 1 rerolls left: the best value
  // (exactly roll[n][r]); among equal values, stopping (R2.2), then the keep
  // that rerolls the fewest dice, then lower faces (canonical keep order):
  // what a player asking for advice expects.
  // The one keep rule: the advisor (RankActions), the exact score
  // distributions (BestKeeps), greedy and the solitaire player choose by it,
  // so `optimal` plays exactly the policy whose distribution `penk
  // distribution --policy optimal` gives. Values are compared exactly: a
  // tolerance would make the scan disagree with BestKeeps' vector selects.
  int BestKeep(int n, int roll_index) const;
};

// Fills t.roll[1..2], t.keep and t.start from t.roll[0].
void SolveTurn(TurnValues& t);

// out[r] = t.BestKeep(n, r) for every roll r, in one pass: the same order
// (value, then more dice kept, then canonical keep order) is a total order,
// so the best sub-keep of a keep is the best of itself and of the best
// sub-keeps of the keeps one die smaller -- a running best over the lattice,
// O(924 * 6), instead of a scan of every roll's sub-keeps (the exact score
// distributions and spreads decide every roll of every position this way).
void BestKeeps(const TurnValues& t, int n, int16_t* out);

// The same computation keeping nothing but the start value, for up to
// kTurnBatch turns at once (one per SIMD lane: every turn walks the same
// lattice, so lanes share every index): the whole-game DP's hot path.
inline constexpr int kTurnBatch = 4;
void TurnStartValues(const double* const* final_roll_values, int count, double* start);
// The same in place, the final-roll values already interleaved as the lanes
// hold them: `lattice` is kNumKeeps vectors of kTurnBatch doubles, 32-byte
// aligned, with roll r's value in turn j at lattice[(kNumKeepsBelowSix + r) *
// kTurnBatch + j], every lane filled (an idle lane may repeat another); the
// rest is scratch, and all of it is overwritten. start[j] for j < count.
void TurnStartValuesInPlace(double* lattice, int count, double* start);

// SolveTurn and BestKeeps for up to kTurnBatch turns at once, one per SIMD
// lane as TurnStartValues (the exact score distributions and spreads decide
// every position this way): from turns[j]->roll[0], fills the rest of
// turns[j] and keeps[j][n-1][r] = turns[j]->BestKeep(n, r). The same values
// and choices as the one-turn functions, bit for bit, but `start`, equal to
// rounding (its sum may be fused differently; tested).
void SolveTurnsWithKeeps(TurnValues* const* turns, int count,
                         std::array<std::array<int16_t, kNumRolls>, kRerolls>* const* keeps);
// The keeps alone (the exact distributions need no values), from final-roll
// values interleaved as TurnStartValuesInPlace takes them, stored as 32-byte
// aligned vectors of kTurnBatch doubles: the same keeps.
void TurnKeepsOfLanes(const double* lanes, int count,
                      std::array<std::array<int16_t, kNumRolls>, kRerolls>* const* keeps);

// The final rolls of `out` no marking reached (still kIllegal): no group is
// legal (R3.5), so the best failure under fail_value(face), a column crossed.
template <class FailValue>
[[gnu::always_inline]] inline void FillFailures(const Sheet& sheet, FailValue&& fail_value,
                                                double* out) {
  double failure = kIllegal;
  bool failure_known = false;
  for (int r = 0; r < kNumRolls; ++r) {
    if (out[r] != kIllegal) continue;
    if (!failure_known) {  // computed once, for the first roll that needs it
      for (int v = 1; v <= kColumns; ++v)
        if (!sheet.ColumnClosed(v)) {
          const double x = fail_value(v);
          failure = x > failure ? x : failure;
        }
      failure_known = true;
    }
    out[r] = failure;
  }
}

// The value of each final roll on `sheet`: the best legal marking under
// mark_value(cells), or, when no group is legal (R3.5), the best failure under
// fail_value(face).
template <class MarkValue, class FailValue>
void FinalRollValues(const Sheet& sheet, MarkValue&& mark_value, FailValue&& fail_value,
                     double* out) {
  // Scatter from the legal markings to the rolls that form them: late in a
  // game few markings are legal, and only those are visited.
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  std::fill(out, out + kNumRolls, kIllegal);
  ForEachMarking(catalog.Avoiding(~sheet.free()), [&](int id) {
    const double v = mark_value(catalog.cells(id));
    for (uint16_t r : catalog.RollsOf(id)) out[r] = v > out[r] ? v : out[r];
  });
  FillFailures(sheet, fail_value, out);
}

}  // namespace penk

#endif  // PENK_SOLVER_TURN_SOLVER_H_
