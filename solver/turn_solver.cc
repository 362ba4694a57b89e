#include "solver/turn_solver.h"

#include <algorithm>
#include <limits>

#include "engine/dispatch.h"
#include "solver/lanes.h"
#include "solver/smaller_keeps.h"

namespace penk {
namespace {

// The lattice's links with kNoKeep replaced by a sentinel slot holding -inf,
// so the inner loops have no branches.
struct Links {
  static constexpr int kSentinel = kNumKeeps;
  int16_t add[kNumKeepsBelowSix][kFaces];
  int16_t remove[kNumKeeps][kFaces];
  double roll_probability[kNumRolls];
  // BestKeep's preference among keeps of equal value: smaller first.
  int16_t rank[kNumKeeps];

  Links() {
    const DiceSpace& s = DiceSpace::Get();
    for (int k = 0; k < kNumKeeps; ++k)
      rank[k] = static_cast<int16_t>((kDice - s.keep(k).size()) * kNumKeeps + k);
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

// The keep values of a reroll stage: keep k (fewer than six dice) is the
// mean of its six outcomes, one more die each, from lattice[462..923] (the
// rolls' values with one reroll fewer) down; one turn (V = double) or
// kTurnBatch turns (V = Lanes). The one sum every turn solve uses, in one
// order, so that all give the same values bit for bit.
template <class V>
[[gnu::always_inline]] inline void KeepValues(const Links& l, V* lattice) {
  const V sixth = V{} + 1.0 / 6.0;  // a scalar broadcasts to every lane
  for (int k = kNumKeepsBelowSix - 1; k >= 0; --k) {
    const int16_t* a = l.add[k];
    lattice[k] = (lattice[a[0]] + lattice[a[1]] + lattice[a[2]] + lattice[a[3]] + lattice[a[4]] +
                  lattice[a[5]]) *
                 sixth;
  }
}

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
  KeepValues(l, lattice);
  best[Links::kSentinel] = V{} + kIllegal;
  for (int k = 0; k < kNumKeeps; ++k) {
    const int16_t* r = l.remove[k];
    V m = k < kNumKeepsBelowSix ? lattice[k] : final[k - kNumKeepsBelowSix];
    for (int f = 0; f < kFaces; ++f) m = m > best[r[f]] ? m : best[r[f]];
    best[k] = m;
  }
}

// Stage with the running best written over the lattice, for values alone
// (the DP): each slot is read (keep values by the first loop, then its own
// value by the second) before the second loop overwrites it, and the
// sub-keeps a slot reads are already its best. A roll's own value is its
// value with one reroll fewer, lattice[k] as it stands, not its final value
// (stopping): the same maximum. Stopping is an option with one reroll fewer
// too, so that value is max(final, best keep then), and each keep is worth
// at least as much with one more reroll (each outcome's value is, and
// rounding is monotone: exactly so in floating point). So the maximum of
// stopping and every keep now is the maximum of that value and every keep
// now. (Not for the choice: where stopping and a keep tie, that value does
// not say which; SolveLanesWithKeeps keeps the final values.) Without the
// final values the turn's working set is the lattice alone, 29.6 KB for
// four lanes: within a 32 KiB L1d (Zen 3), where lattice and final values,
// 44 KB, were not.
//
// The running best walks the compact downward links (SmallerKeeps, in runs
// of a fixed trip count) rather than six links a keep with sentinels: 3.5
// maxima a keep instead of 6 (a maximum with the sentinel's -inf changed
// nothing), and 8 KB of links instead of 11.
[[gnu::always_inline]] inline void StageInPlace(const Links& l, const SmallerKeeps& smaller,
                                                Lanes* lattice) {
  KeepValues(l, lattice);
  ForEachRun(smaller, [&](auto links, const SmallerKeeps::Run& run) [[gnu::always_inline]] {
    for (int i = run.begin; i < run.end; ++i) {
      const int k = smaller.by_count[i];
      const int16_t* const from = smaller.keep + smaller.begin[k];
      Lanes m = lattice[k];
      for (int f = 0; f < decltype(links)::value; ++f)
        SetLaneMax(m, m, lattice[from[f]]);
      lattice[k] = m;
    }
  });
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

PENK_HOT void BestKeeps(const TurnValues& t, int n, int16_t* out) {
  // Preference among equal values: more dice kept, then the lower keep index
  // (keeps are numbered by size, canonical order within a size). Each keep
  // is compared with its smaller keeps only (SmallerKeeps: no sentinels).
  const Links& l = Links::Get();
  const SmallerKeeps& smaller = SmallerKeeps::Get();
  // Each keep carries its best sub-keep's value and rank (the rank names the
  // keep: rank % kNumKeeps). Selects, not branches: ties are common and
  // unpredictable, and mispredictions were most of this loop's time.
  double value[kNumKeeps];
  int32_t rank[kNumKeeps];
  for (int k = 0; k < kNumKeeps; ++k) {
    double v = k < kNumKeepsBelowSix ? t.keep[n - 1][k] : t.roll[0][k - kNumKeepsBelowSix];
    int32_t a = l.rank[k];
    for (int i = smaller.begin[k]; i < smaller.begin[k + 1]; ++i) {
      const int j = smaller.keep[i];
      const double vj = value[j];
      const int32_t aj = rank[j];
      const bool better = (vj > v) | ((vj == v) & (aj < a));
      v = better ? vj : v;
      a = better ? aj : a;
    }
    value[k] = v;
    rank[k] = a;
  }
  for (int r = 0; r < kNumRolls; ++r)
    out[r] = static_cast<int16_t>(rank[kNumKeepsBelowSix + r] % kNumKeeps);
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

// TurnStartValues from the lanes' final values in `lattice` (rolls, at
// kNumKeepsBelowSix..): both entry points inline it into their own clones.
[[gnu::always_inline]] inline void StartValuesOfLattice(Lanes* lattice, int count,
                                                        double* start) {
  const Links& l = Links::Get();
  const SmallerKeeps& smaller = SmallerKeeps::Get();
  for (int n = 1; n <= kRerolls; ++n) StageInPlace(l, smaller, lattice);
  Lanes sum = {0, 0, 0, 0};
  for (int r = 0; r < kNumRolls; ++r) sum += l.roll_probability[r] * lattice[kNumKeepsBelowSix + r];
  for (int j = 0; j < count; ++j) start[j] = sum[j];
}

PENK_HOT void TurnStartValues(const double* const* final_roll_values, int count, double* start) {
  static_assert(kTurnBatch == 4, "Lanes initialisers assume 4 lanes");
  alignas(64) Lanes lattice[kNumKeeps];
  for (int r = 0; r < kNumRolls; ++r)
    for (int j = 0; j < kTurnBatch; ++j)  // idle lanes repeat lane 0
      lattice[kNumKeepsBelowSix + r][j] = final_roll_values[j < count ? j : 0][r];
  StartValuesOfLattice(lattice, count, start);
}

PENK_HOT void TurnStartValuesInPlace(double* lattice, int count, double* start) {
  static_assert(kTurnBatch == 4, "Lanes initialisers assume 4 lanes");
  // The caller's buffer is Lanes objects (SolveBatch's scratch), used in
  // place: a copy of the final values was 15 KB more per batch to stream
  // through the L1d.
  StartValuesOfLattice(reinterpret_cast<Lanes*>(lattice), count, start);
}

namespace {

// SolveTurnsWithKeeps, and with kValues false TurnKeepsOfLanes: writing the
// turns' keep and roll values out of the lanes (scalar stores, lane by lane)
// was a third of the time when only the keeps are wanted
// (BM_SolveTurnsWithKeeps).
// `final` holds the final-roll values in lanes; `turns` (kValues only) get
// the values.
//
// The running best is BestKeeps' (value, then rank), found in two steps per
// keep: the best value m, a maximum as in StageInPlace, then the least rank
// among the keeps that reach m -- the keep itself if its own value is m, and
// each smaller keep's best rank where that keep's best is m (a smaller keep's
// best never exceeds m, and its rank is already the least among its own keeps
// that reach its best). The same choice as comparing (value, rank) pairs link
// by link, in 4 vector operations a link instead of 7, and with the best
// written over the lattice (StageInPlace) two arrays of lanes instead of
// three: 59 KB, not 89 KB, per batch.
template <bool kValues>
[[gnu::always_inline]] inline void SolveLanesWithKeeps(
    const Lanes* final, TurnValues* const* turns, int count,
    std::array<std::array<int16_t, kNumRolls>, kRerolls>* const* keeps) {
  static_assert(kTurnBatch == 4, "Lanes initialisers assume 4 lanes");
  const Links& l = Links::Get();
  const SmallerKeeps& smaller = SmallerKeeps::Get();
  alignas(64) Lanes lattice[kNumKeeps], rank[kNumKeeps];
  std::copy(final, final + kNumRolls, lattice + kNumKeepsBelowSix);
  const Lanes no_rank = Lanes{} + std::numeric_limits<double>::infinity();
  rank[0] = Lanes{} + static_cast<double>(l.rank[0]);  // the empty keep: itself alone
  for (int n = 1; n <= kRerolls; ++n) {
    KeepValues(l, lattice);
    if (kValues)
      for (int j = 0; j < count; ++j)
        for (int k = 0; k < kNumKeepsBelowSix; ++k) turns[j]->keep[n - 1][k] = lattice[k][j];
    // The running best over the lattice, keeps by size (ranks are small
    // integers, exact as doubles).
    ForEachRun(smaller, [&](auto links, const SmallerKeeps::Run& run) [[gnu::always_inline]] {
      for (int i = run.begin; i < run.end; ++i) {
        const int k = smaller.by_count[i];
        const int16_t* const from = smaller.keep + smaller.begin[k];
        const Lanes own = k < kNumKeepsBelowSix ? lattice[k] : final[k - kNumKeepsBelowSix];
        Lanes m = own;
        for (int f = 0; f < decltype(links)::value; ++f)
          SetLaneMax(m, m, lattice[from[f]]);
        Lanes a = own == m ? Lanes{} + static_cast<double>(l.rank[k]) : no_rank;
        for (int f = 0; f < decltype(links)::value; ++f) {
          const Lanes r = lattice[from[f]] == m ? rank[from[f]] : no_rank;
          a = r < a ? r : a;
        }
        lattice[k] = m;
        rank[k] = a;
      }
    });
    for (int j = 0; j < count; ++j) {
      if (kValues)
        for (int r = 0; r < kNumRolls; ++r) turns[j]->roll[n][r] = lattice[kNumKeepsBelowSix + r][j];
      for (int r = 0; r < kNumRolls; ++r) {
        (*keeps[j])[n - 1][r] =
            static_cast<int16_t>(static_cast<int>(rank[kNumKeepsBelowSix + r][j]) % kNumKeeps);
      }
    }
  }
  if (!kValues) return;
  Lanes sum = {0, 0, 0, 0};
  for (int r = 0; r < kNumRolls; ++r) sum += l.roll_probability[r] * lattice[kNumKeepsBelowSix + r];
  for (int j = 0; j < count; ++j) turns[j]->start = sum[j];
}

}  // namespace

PENK_HOT void SolveTurnsWithKeeps(
    TurnValues* const* turns, int count,
    std::array<std::array<int16_t, kNumRolls>, kRerolls>* const* keeps) {
  alignas(64) Lanes final[kNumRolls];
  for (int r = 0; r < kNumRolls; ++r)
    for (int j = 0; j < kTurnBatch; ++j)  // idle lanes repeat lane 0
      final[r][j] = turns[j < count ? j : 0]->roll[0][r];
  SolveLanesWithKeeps<true>(final, turns, count, keeps);
}

PENK_HOT void TurnKeepsOfLanes(const double* lanes, int count,
                               std::array<std::array<int16_t, kNumRolls>, kRerolls>* const* keeps) {
  // The caller's lanes are Lanes objects (DecideFinalRolls' scratch), read
  // in place: a copy was 15 KB per batch.
  SolveLanesWithKeeps<false>(reinterpret_cast<const Lanes*>(lanes), nullptr, count, keeps);
}

}  // namespace penk
