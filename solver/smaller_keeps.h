// The keep lattice's downward links, laid out for the hot loops that walk it
// from small keeps up: the turn solver's running best keep (BestKeeps,
// TurnKeepsOfLanes) and the distributions' reroll masses (FinalRollMasses).
//
// A keep's smaller keeps are the keeps one die smaller, one per distinct face
// it holds (3.5 on average, not 6: no sentinel links). Walking keeps by size
// visits every keep after its smaller keeps. Within a size the keeps are
// grouped by their number of smaller keeps, so that a loop over one group has
// a fixed trip count (ForEachRun): a loop exit per keep, taken after 1 to 6
// links at random, was mispredicted often enough to show (perf).
#ifndef PENK_SOLVER_SMALLER_KEEPS_H_
#define PENK_SOLVER_SMALLER_KEEPS_H_

#include <cstdint>
#include <type_traits>

#include "engine/dice.h"
#include "engine/dice_space.h"

namespace penk {

struct SmallerKeeps {
  // Keep k's smaller keeps: keep[begin[k] .. begin[k + 1]), by face.
  int16_t begin[kNumKeeps + 1];
  int16_t keep[kNumKeeps * kFaces];
  // A run of keeps of one size with `smaller` smaller keeps each: keep ids
  // by_count[begin .. end). Runs by size, then by count; the empty keep (no
  // smaller keep) is in none.
  struct Run {
    int smaller, begin, end;
  };
  int16_t by_count[kNumKeeps];
  Run runs[kDice * kFaces];
  int num_runs = 0;

  static const SmallerKeeps& Get() {
    static const SmallerKeeps* const links = new SmallerKeeps();
    return *links;
  }

 private:
  SmallerKeeps() {
    const DiceSpace& space = DiceSpace::Get();
    int n = 0;
    for (int k = 0; k < kNumKeeps; ++k) {
      begin[k] = static_cast<int16_t>(n);
      for (int f = 0; f < kFaces; ++f)
        if (space.Remove(k, f) != kNoKeep) keep[n++] = space.Remove(k, f);
    }
    begin[kNumKeeps] = static_cast<int16_t>(n);
    int placed = 0;
    for (int size = 1; size <= kDice; ++size)
      for (int count = 1; count <= kFaces; ++count) {
        const int first = placed;
        for (int k = 0; k < kNumKeeps; ++k)
          if (space.keep(k).size() == size && begin[k + 1] - begin[k] == count)
            by_count[placed++] = static_cast<int16_t>(k);
        if (placed > first) runs[num_runs++] = {count, first, placed};
      }
  }
};

// visit(std::integral_constant<int, N>{}, run) for every run in order, N =
// run.smaller: a compile-time trip count for the loop over a keep's smaller
// keeps. Always inlined, and the visitor should be too (a lambda marked
// [[gnu::always_inline]]), so that the loops compile inside the caller's
// dispatched clone (engine/dispatch.h).
template <class Visit>
[[gnu::always_inline]] inline void ForEachRun(const SmallerKeeps& s, Visit&& visit) {
  for (int i = 0; i < s.num_runs; ++i) {
    const SmallerKeeps::Run& run = s.runs[i];
    switch (run.smaller) {
      case 1: visit(std::integral_constant<int, 1>{}, run); break;
      case 2: visit(std::integral_constant<int, 2>{}, run); break;
      case 3: visit(std::integral_constant<int, 3>{}, run); break;
      case 4: visit(std::integral_constant<int, 4>{}, run); break;
      case 5: visit(std::integral_constant<int, 5>{}, run); break;
      default: visit(std::integral_constant<int, 6>{}, run); break;
    }
  }
}

}  // namespace penk

#endif  // PENK_SOLVER_SMALLER_KEEPS_H_
