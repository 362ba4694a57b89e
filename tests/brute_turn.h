// One turn solved by brute force, for tests that check a policy's keeps and a
// ranking's values from first principles (issue 24, item 1).
//
// Independent of what it checks: no DiceSpace keep lattice, no SolveTurn or
// TurnValues, no canonical roll indices. A keep is any sub-multiset of the
// roll (enumerated by counts); the dice thrown again are enumerated die by
// die (6^m equally likely sequences); stopping with rerolls left is keeping
// all six dice (R2.2). Values are memoised by the dice counts. The value of a
// final roll (after the last throw) is the caller's `leaf`.
#ifndef PENK_TESTS_BRUTE_TURN_H_
#define PENK_TESTS_BRUTE_TURN_H_

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/dice.h"
#include "engine/marking.h"
#include "engine/score.h"
#include "engine/sheet.h"

namespace penk::testing_support {

class BruteTurn {
 public:
  explicit BruteTurn(std::function<double(const Dice&)> leaf) : leaf_(std::move(leaf)) {}

  // The value of keeping `keep` (a sub-multiset of the roll) with `rerolls`
  // (1 or 2) rerolls left: all six dice = stop, the final roll is `keep`.
  double KeepValue(const Dice& keep, int rerolls) {
    if (keep.size() == kDice) return Best(keep, 0);
    const int key = Code(keep) * 4 + rerolls;
    if (auto it = keep_memo_.find(key); it != keep_memo_.end()) return it->second;
    const int m = kDice - keep.size();
    int outcomes = 1;
    for (int i = 0; i < m; ++i) outcomes *= 6;
    double sum = 0;
    for (int seq = 0; seq < outcomes; ++seq) {
      Dice d = keep;
      for (int i = 0, s = seq; i < m; ++i, s /= 6) ++d.count[s % 6];
      sum += Best(d, rerolls - 1);
    }
    return keep_memo_[key] = sum / outcomes;
  }

  // The best value of the six dice `roll` with `rerolls` (0..2) left.
  double Best(const Dice& roll, int rerolls) {
    if (rerolls == 0) {
      const int key = Code(roll);
      if (auto it = leaf_memo_.find(key); it != leaf_memo_.end()) return it->second;
      return leaf_memo_[key] = leaf_(roll);
    }
    double best = -std::numeric_limits<double>::infinity();
    for (const Dice& keep : SubMultisets(roll)) best = std::max(best, KeepValue(keep, rerolls));
    return best;
  }

  // Every sub-multiset of `dice` (the empty one and `dice` itself included).
  static std::vector<Dice> SubMultisets(const Dice& dice) {
    std::vector<Dice> out = {Dice{}};
    for (int f = 0; f < kFaces; ++f) {
      const size_t n = out.size();
      for (size_t i = 0; i < n; ++i)
        for (int c = 1; c <= dice.count[f]; ++c) {
          Dice d = out[i];
          d.count[f] = static_cast<uint8_t>(c);
          out.push_back(d);
        }
    }
    return out;
  }

  // 6! / prod(count!) / 6^6: the chance of throwing `roll` with six dice.
  static double RollProbability(const Dice& roll) {
    double p = 720.0 / 46656.0;
    for (int c : roll.count)
      for (int i = 2; i <= c; ++i) p /= i;
    return p;
  }

 private:
  static int Code(const Dice& d) {
    int code = 0;
    for (int f = 0; f < kFaces; ++f) code = code * 7 + d.count[f];
    return code;
  }

  std::function<double(const Dice&)> leaf_;
  std::unordered_map<int, double> leaf_memo_, keep_memo_;
};

// The columns a failure may cross (R3.5): those with a free cell.
inline std::vector<int> ColumnsWithAFreeCell(const Sheet& sheet) {
  std::vector<int> out;
  for (int v = 1; v <= kColumns; ++v)
    if (sheet.free() & ColumnMask(v)) out.push_back(v);
  return out;
}

// `sheet` after a failure on column `v`: its free cells crossed (R3.5).
inline Sheet AfterFailure(const Sheet& sheet, int v) {
  Sheet s = sheet;
  s.crossed |= s.free() & ColumnMask(v);
  return s;
}

// `sheet` after circling `cells` (R3.2).
inline Sheet AfterMarking(const Sheet& sheet, uint32_t cells) {
  Sheet s = sheet;
  s.circled |= cells;
  return s;
}

// The leaf of a solitaire turn valued by `value` (the expected final score
// of a sheet at the start of its next turn): the best legal marking (R3.4),
// or when there is none the best failure (R3.5); a sheet with no free cell
// keeps its value (R3.6).
inline std::function<double(const Dice&)> SolitaireLeaf(const Sheet& sheet,
                                                        std::function<double(const Sheet&)> value) {
  return [sheet, value](const Dice& roll) {
    double best = -std::numeric_limits<double>::infinity();
    for (uint32_t cells : LegalMarkings(sheet, roll)) best = std::max(best, value(AfterMarking(sheet, cells)));
    if (best > -std::numeric_limits<double>::infinity()) return best;
    for (int v : ColumnsWithAFreeCell(sheet)) best = std::max(best, value(AfterFailure(sheet, v)));
    if (best > -std::numeric_limits<double>::infinity()) return best;
    return value(sheet);
  };
}

}  // namespace penk::testing_support

#endif  // PENK_TESTS_BRUTE_TURN_H_
