#include "solver/turn_solver.h"

#include <algorithm>

#include "engine/dispatch.h"

namespace penk {
namespace {

// The lattice's links with kNoKeep replaced by a sentinel slot holding -inf,
// so the inner loops have no branches.
struct Links {
  static constexpr int kSentinel = kNumKeeps;
  int16_t add[kNumKeepsBelowSix][kFaces];
  int16_t remove[kNumKeeps][kFaces];
  double roll_probability[kNumRolls];

  Links() {
    const DiceSpace& s = DiceSpace::Get();
    for (int k = 0; k < kNumKeeps; ++k)
      for (int f = 0; f < kFaces; ++f) {
        if (k < kNumKeepsBelowSix) add[k][f] = s.Add(k, f);
        remove[k][f] = s.Remove(k, f) == kNoKeep ? kSentinel : s.Remove(k, f);
      }
    for (int r = 0; r < kNumRolls; ++r) roll_probability[r] = s.RollProbability(r);
  }
  static const Links& Get() {
    static const Links* const links = new Links();
    return *links;
  }
};

// kTurnBatch doubles, one turn per lane (GCC vector extension: one AVX2
// register in the x86-64-v3 and v4 clones, SSE pairs in the baseline).
typedef double Lanes __attribute__((vector_size(kTurnBatch * sizeof(double))));

// One reroll stage, for one turn (V = double) or kTurnBatch turns (V = Lanes).
// lattice[462..923] holds the values of the rolls with one reroll fewer; on
// return lattice[0..461] holds keep values (before the reroll) and
// best[462..923] the value of each roll with this reroll left: the best of
// stopping (final[r], R2.2) and of every smaller keep, found as a running
// maximum from the empty keep up.
//
// Always inlined, and the maximum written out rather than a function: so it is
// compiled inside each dispatched clone of its callers (AVX2 registers in
// v3), and a 32-byte vector never crosses a call, whose ABI would depend on
// the clone (GCC's -Wpsabi warning in the baseline).
template <class V>
[[gnu::always_inline]] inline void Stage(const Links& l, const V* final, V* lattice, V* best) {
  const V sixth = V{} + 1.0 / 6.0;  // a scalar broadcasts to every lane
  for (int k = kNumKeepsBelowSix - 1; k >= 0; --k) {
    const int16_t* a = l.add[k];
    lattice[k] = (lattice[a[0]] + lattice[a[1]] + lattice[a[2]] + lattice[a[3]] + lattice[a[4]] +
                  lattice[a[5]]) *
                 sixth;
  }
  best[Links::kSentinel] = V{} + kIllegal;
  for (int k = 0; k < kNumKeeps; ++k) {
    const int16_t* r = l.remove[k];
    V m = k < kNumKeepsBelowSix ? lattice[k] : final[k - kNumKeepsBelowSix];
    for (int f = 0; f < kFaces; ++f) m = m > best[r[f]] ? m : best[r[f]];
    best[k] = m;
  }
}

}  // namespace

int TurnValues::BestKeep(int n, int roll_index) const {
  const DiceSpace& space = DiceSpace::Get();
  int best = -1, best_size = -1;
  double best_value = kIllegal;
  for (int16_t k : space.SubKeeps(roll_index)) {  // ascending: lower faces first in a size
    const double v = KeepValue(n, roll_index, k);
    const int size = space.keep(k).size();
    if (best < 0 || v > best_value || (v == best_value && size > best_size))
      best = k, best_size = size, best_value = v;
  }
  return best;
}

PENK_HOT void SolveTurn(TurnValues& t) {
  const Links& l = Links::Get();
  double lattice[kNumKeeps + 1], best[kNumKeeps + 1];
  for (int n = 1; n <= kRerolls; ++n) {
    std::copy(t.roll[n - 1].begin(), t.roll[n - 1].end(), lattice + kNumKeepsBelowSix);
    Stage(l, t.roll[0].data(), lattice, best);
    std::copy(lattice, lattice + kNumKeepsBelowSix, t.keep[n - 1].begin());
    std::copy(best + kNumKeepsBelowSix, best + kNumKeeps, t.roll[n].begin());
  }
  double start = 0;
  for (int r = 0; r < kNumRolls; ++r) start += l.roll_probability[r] * t.roll[kRerolls][r];
  t.start = start;
}

PENK_HOT void TurnStartValues(const double* const* final_roll_values, int count, double* start) {
  static_assert(kTurnBatch == 4, "Lanes initialisers assume 4 lanes");
  const Links& l = Links::Get();
  alignas(64) Lanes final[kNumRolls], lattice[kNumKeeps + 1], best[kNumKeeps + 1];
  for (int r = 0; r < kNumRolls; ++r)
    for (int j = 0; j < kTurnBatch; ++j)  // idle lanes repeat lane 0
      final[r][j] = final_roll_values[j < count ? j : 0][r];
  std::copy(final, final + kNumRolls, lattice + kNumKeepsBelowSix);
  for (int n = 1; n <= kRerolls; ++n) {
    Stage(l, final, lattice, best);
    std::copy(best + kNumKeepsBelowSix, best + kNumKeeps, lattice + kNumKeepsBelowSix);
  }
  Lanes sum = {0, 0, 0, 0};
  for (int r = 0; r < kNumRolls; ++r) sum += l.roll_probability[r] * lattice[kNumKeepsBelowSix + r];
  for (int j = 0; j < count; ++j) start[j] = sum[j];
}

}  // namespace penk
