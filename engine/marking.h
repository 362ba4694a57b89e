// Markings: the groups a player forms from the final dice (R3, R7.4, R7.5).
//
// A marking is identified by the cells it circles (R7.4), so it is a 25-bit
// cell mask with 1 to 3 bits. Whether a roll can form a set of cells does not
// depend on the sheet, so the catalog below lists, once, every marking of
// every roll as if the sheet were empty; a sheet then only filters it (every
// circled cell must be free). Hot loops use the catalog's dense marking ids.
#ifndef PENK_ENGINE_MARKING_H_
#define PENK_ENGINE_MARKING_H_

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/sheet.h"

namespace penk {

inline constexpr int kMaxGroups = 3;  // R3.3

// One group of R3.1: face v (1..5), size k (1..5) and whether it uses a J.
struct Group {
  int face = 0;
  int size = 0;
  enum Jolly { kAny, kWithout, kWith } jolly = kAny;
};

// True if `dice` can form all of `groups` from disjoint dice (R3.1, R3.3).
// A group whose jolly is kAny may take a J or not, whichever works.
bool CanForm(const Dice& dice, const Group* groups, int count);

// Canonical R7.4 text of a marking given by its cells: groups by face, then size.
std::string FormatMarking(uint32_t cells);

// Parses "3:4+5:2" or "3:4J+5:2" into groups; checks syntax and ranges only.
// Spaces anywhere are ignored (R7.1): "3 : 4 + 5:2" is "3:4+5:2".
absl::StatusOr<std::vector<Group>> ParseGroups(absl::string_view text);

// A set of catalog marking ids: bit id % 64 of word id / 64.
inline constexpr int kMaxCatalogMarkings = 1024;  // the catalog has 550
using MarkingSet = std::array<uint64_t, kMaxCatalogMarkings / 64>;

// Calls f(id) for every id of `set`, in increasing order (the catalog's
// canonical order, which the solvers' ties depend on).
template <class F>
inline void ForEachMarking(const MarkingSet& set, F&& f) {
  for (int w = 0; w < static_cast<int>(set.size()); ++w)
    for (uint64_t bits = set[w]; bits; bits &= bits - 1)
      f(w * 64 + std::countr_zero(bits));
}
inline bool Contains(const MarkingSet& set, int id) { return set[id >> 6] >> (id & 63) & 1; }

class MarkingCatalog {
 public:
  static const MarkingCatalog& Get();

  // Every distinct cell set that some roll can circle on an empty sheet.
  int size() const { return static_cast<int>(cells_.size()); }
  uint32_t cells(int id) const { return cells_[id]; }
  // Marking ids of roll r (DiceSpace roll index), in canonical order.
  const std::vector<uint16_t>& ForRoll(int r) const { return by_roll_[r]; }
  // The rolls (DiceSpace roll indexes) that can form marking `id`.
  const std::vector<uint16_t>& RollsOf(int id) const { return rolls_of_[id]; }

  // The markings that circle none of the cells `taken` (a sheet's circled and
  // crossed cells): the legal ones of the sheet whatever the roll (R3.2).
  // The union of the taken cells' marking sets, complemented: a few word
  // operations per taken cell, where testing each of the 550 markings was a
  // branch the predictor could not learn (15% of a blocked-row table build's
  // batch, perf). Inline for the dispatched hot loops.
  MarkingSet Avoiding(uint32_t taken) const {
    MarkingSet hit{};
    for (uint32_t bits = taken & kAllCells; bits; bits &= bits - 1) {
      const MarkingSet& with = with_cell_[std::countr_zero(bits)];
      for (int w = 0; w < kWords; ++w) hit[w] |= with[w];
    }
    MarkingSet out{};
    for (int w = 0; w < kWords; ++w) out[w] = all_[w] & ~hit[w];
    return out;
  }

 private:
  MarkingCatalog();
  // Words of a MarkingSet the catalog fills: 9 for 550 markings (checked).
  static constexpr int kWords = 9;
  std::vector<uint32_t> cells_;
  std::array<MarkingSet, 25> with_cell_{};  // the markings that circle each cell
  MarkingSet all_{};
  std::vector<std::vector<uint16_t>> by_roll_;
  std::vector<std::vector<uint16_t>> rolls_of_;
};

// The legal markings of `roll` on `sheet` (R3.2-R3.4), canonical order.
std::vector<uint32_t> LegalMarkings(const Sheet& sheet, const Dice& roll);

// The columns (faces 1..5) a failure may cross (R3.5): those with a free cell.
std::vector<int> FailureColumns(const Sheet& sheet);

// Parses a marking of `roll` on `sheet` and checks it is legal; returns its cells.
absl::StatusOr<uint32_t> ParseMarking(absl::string_view text, const Sheet& sheet, const Dice& roll);

}  // namespace penk

#endif  // PENK_ENGINE_MARKING_H_
