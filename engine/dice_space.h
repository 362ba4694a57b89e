// The space of keeps and rolls with dense indexes (R2).
//
// Every multiset of 0..6 dice is a keep: 924 of them. They are numbered by
// size, so keeps 0..461 have fewer than six dice and keeps 462..923 are the
// 462 rolls (roll index = keep index - kNumKeepsBelowSix). The turn solver
// walks this lattice: adding one die to a keep or taking one away is a table
// lookup, which is why the layout is arrays of small integers.
#ifndef PENK_ENGINE_DICE_SPACE_H_
#define PENK_ENGINE_DICE_SPACE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "engine/dice.h"

namespace penk {

inline constexpr int kNumKeeps = 924;
inline constexpr int kNumRolls = 462;
inline constexpr int kNumKeepsBelowSix = kNumKeeps - kNumRolls;  // 462 as well
inline constexpr int16_t kNoKeep = -1;

class DiceSpace {
 public:
  // The one immutable instance, built on first use.
  static const DiceSpace& Get();

  const Dice& keep(int k) const { return keeps_[k]; }
  const Dice& roll(int r) const { return keeps_[r + kNumKeepsBelowSix]; }
  int KeepIndex(const Dice& d) const { return index_[Pack(d)]; }
  int RollIndex(const Dice& d) const { return index_[Pack(d)] - kNumKeepsBelowSix; }

  // Keep with one more die of `face` (kNoKeep for six-dice keeps).
  int16_t Add(int k, int face) const { return add_[k][face]; }
  // Keep with one die of `face` fewer (kNoKeep if the keep has none).
  int16_t Remove(int k, int face) const { return remove_[k][face]; }

  // Probability of rolling `r` with six fresh dice.
  double RollProbability(int r) const { return roll_probability_[r]; }
  // Probability that keeping keep `k` and rerolling the other dice gives roll `r`.
  double Transition(int k, int r) const;
  // Every distinct sub-multiset of roll `r` (keep indexes), including the
  // empty keep and the whole roll.
  const std::vector<int16_t>& SubKeeps(int r) const { return sub_keeps_[r]; }

 private:
  DiceSpace();
  static int Pack(const Dice& d) {
    int p = 0;
    for (int f = 0; f < kFaces; ++f) p = p * 7 + d.count[f];
    return p;
  }

  std::array<Dice, kNumKeeps> keeps_;
  std::vector<int16_t> index_;  // packed counts (base 7) -> keep index
  std::array<std::array<int16_t, kFaces>, kNumKeeps> add_;
  std::array<std::array<int16_t, kFaces>, kNumKeeps> remove_;
  std::array<double, kNumRolls> roll_probability_;
  std::array<std::vector<int16_t>, kNumRolls> sub_keeps_;
};

// Multinomial probability of seeing exactly the multiset `d` when rolling
// d.size() fair dice.
double MultisetProbability(const Dice& d);

}  // namespace penk

#endif  // PENK_ENGINE_DICE_SPACE_H_
