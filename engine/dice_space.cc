#include "engine/dice_space.h"

#include <cmath>

namespace penk {
namespace {

double Factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

}  // namespace

double MultisetProbability(const Dice& d) {
  int n = d.size();
  double p = Factorial(n);
  for (uint8_t c : d.count) p /= Factorial(c);
  return p / std::pow(6.0, n);
}

const DiceSpace& DiceSpace::Get() {
  static const DiceSpace* const space = new DiceSpace();
  return *space;
}

DiceSpace::DiceSpace() : index_(7 * 7 * 7 * 7 * 7 * 7, kNoKeep) {
  int next = 0;
  for (int size = 0; size <= kDice; ++size) {
    // Lexicographic enumeration of the count vectors that sum to `size`.
    Dice d;
    auto rec = [&](auto&& self, int face, int left) -> void {
      if (face == kFaces - 1) {
        d.count[face] = left;
        keeps_[next] = d;
        index_[Pack(d)] = next++;
        return;
      }
      for (int c = left; c >= 0; --c) {
        d.count[face] = c;
        self(self, face + 1, left - c);
      }
    };
    rec(rec, 0, size);
  }
  for (int k = 0; k < kNumKeeps; ++k) {
    for (int f = 0; f < kFaces; ++f) {
      Dice up = keeps_[k];
      ++up.count[f];
      add_[k][f] = up.size() <= kDice ? index_[Pack(up)] : kNoKeep;
      Dice down = keeps_[k];
      remove_[k][f] = down.count[f] > 0 ? (--down.count[f], index_[Pack(down)]) : kNoKeep;
    }
  }
  for (int r = 0; r < kNumRolls; ++r) {
    const Dice& roll = keeps_[r + kNumKeepsBelowSix];
    roll_probability_[r] = MultisetProbability(roll);
    for (int k = 0; k < kNumKeeps; ++k)
      if (roll.Contains(keeps_[k])) sub_keeps_[r].push_back(k);
  }
}

double DiceSpace::Transition(int k, int r) const {
  const Dice& kept = keeps_[k];
  const Dice& rolled = roll(r);
  if (!rolled.Contains(kept)) return 0.0;
  return MultisetProbability(rolled.Minus(kept));
}

}  // namespace penk
