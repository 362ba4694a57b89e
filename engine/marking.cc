#include "engine/marking.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "engine/dice_space.h"
#include "engine/quoted_input.h"

namespace penk {
namespace {

// The groups of a cell set in canonical order (face, then size).
int GroupsOf(uint32_t cells, Group* out) {
  int n = 0;
  for (int v = 1; v <= kColumns; ++v)
    for (int k = 1; k <= kRows; ++k)
      if (cells & CellBit(v, k)) out[n++] = Group{v, k, Group::kAny};
  return n;
}

// Key that orders markings canonically: groups compared in turn, fewer first.
std::vector<int> SortKey(uint32_t cells) {
  Group g[kRows * kColumns];
  int n = GroupsOf(cells, g);
  std::vector<int> key;
  for (int i = 0; i < n; ++i) key.push_back(g[i].face * 10 + g[i].size);
  return key;
}

}  // namespace

bool CanForm(const Dice& dice, const Group* groups, int count) {
  // Try every way of giving J to the groups that may take one (at most 2^3).
  for (int jmask = 0; jmask < (1 << count); ++jmask) {
    int need[kFaces] = {};
    bool ok = true;
    for (int i = 0; i < count && ok; ++i) {
      bool j = jmask >> i & 1;
      const Group& g = groups[i];
      if ((j && g.jolly == Group::kWithout) || (!j && g.jolly == Group::kWith)) ok = false;
      int n = g.size - j;  // dice of the face itself (R3.1: n >= 1)
      if (n < 1) ok = false;
      need[g.face - 1] += n;
      need[kJolly] += j;
    }
    if (!ok) continue;
    for (int f = 0; f < kFaces && ok; ++f) ok = need[f] <= dice.count[f];
    if (ok) return true;
  }
  return false;
}

std::string FormatMarking(uint32_t cells) {
  Group g[kRows * kColumns];
  int n = GroupsOf(cells, g);
  std::vector<std::string> parts;
  for (int i = 0; i < n; ++i) parts.push_back(absl::StrCat(g[i].face, ":", g[i].size));
  return absl::StrJoin(parts, "+");
}

absl::StatusOr<std::vector<Group>> ParseGroups(absl::string_view text) {
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "marking must be 1-3 groups face:size joined by '+' (face 1-5, size 1-5, optional J "
        "suffix), e.g. 3:4+5:2 or fail:v; got ",
        QuotedInput(text)));
  };
  // R7.1: separators are ignored on input, so "2 : 4 + 5:2" is "2:4+5:2".
  std::string compact;
  for (char c : text)
    if (!absl::ascii_isspace(static_cast<unsigned char>(c))) compact += c;
  std::vector<Group> groups;
  for (absl::string_view part : absl::StrSplit(compact, '+')) {
    if (part.size() < 3 || part.size() > 4 || part[1] != ':') return bad();
    Group g;
    if (part[0] < '1' || part[0] > '5' || part[2] < '1' || part[2] > '5') return bad();
    g.face = part[0] - '0';
    g.size = part[2] - '0';
    if (part.size() == 4) {
      if (part[3] != 'J' && part[3] != 'j' && part[3] != '!') return bad();
      g.jolly = Group::kWith;
    }
    groups.push_back(g);
  }
  if (groups.empty() || groups.size() > kMaxGroups) return bad();
  return groups;
}

const MarkingCatalog& MarkingCatalog::Get() {
  static const MarkingCatalog* const catalog = new MarkingCatalog();
  return *catalog;
}

MarkingCatalog::MarkingCatalog() : by_roll_(kNumRolls) {
  const DiceSpace& space = DiceSpace::Get();
  // All cell sets of 1..3 cells whose sizes add up to at most six dice.
  std::vector<uint32_t> candidates;
  for (int a = 0; a < 25; ++a) {
    candidates.push_back(1u << a);
    for (int b = a + 1; b < 25; ++b) {
      if (CellSize(a) + CellSize(b) > kDice) continue;
      candidates.push_back(1u << a | 1u << b);
      for (int c = b + 1; c < 25; ++c)
        if (CellSize(a) + CellSize(b) + CellSize(c) <= kDice)
          candidates.push_back(1u << a | 1u << b | 1u << c);
    }
  }
  std::vector<std::vector<uint32_t>> per_roll(kNumRolls);
  std::vector<uint32_t> used;
  for (int r = 0; r < kNumRolls; ++r) {
    for (uint32_t cells : candidates) {
      Group g[kMaxGroups];
      int n = GroupsOf(cells, g);
      if (CanForm(space.roll(r), g, n)) per_roll[r].push_back(cells);
    }
    used.insert(used.end(), per_roll[r].begin(), per_roll[r].end());
  }
  // Canonical order by each marking's key, computed once per marking.
  std::vector<std::pair<std::vector<int>, uint32_t>> keyed;
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (uint32_t cells : used) keyed.emplace_back(SortKey(cells), cells);
  std::sort(keyed.begin(), keyed.end());
  absl::flat_hash_map<uint32_t, uint16_t> id_of;
  for (const auto& [key, cells] : keyed) {
    id_of[cells] = static_cast<uint16_t>(cells_.size());
    cells_.push_back(cells);
  }
  for (int r = 0; r < kNumRolls; ++r) {
    for (uint32_t cells : per_roll[r]) by_roll_[r].push_back(id_of[cells]);
    std::sort(by_roll_[r].begin(), by_roll_[r].end());
  }
  rolls_of_.resize(cells_.size());
  for (int r = 0; r < kNumRolls; ++r)
    for (uint16_t id : by_roll_[r]) rolls_of_[id].push_back(static_cast<uint16_t>(r));
  // A fixed bound keeps Avoiding's loops short and unrolled.
  if (cells_.size() > kWords * 64) std::abort();
  for (int id = 0; id < size(); ++id) {
    all_[id >> 6] |= uint64_t{1} << (id & 63);
    for (int c = 0; c < 25; ++c)
      if (cells_[id] >> c & 1) with_cell_[c][id >> 6] |= uint64_t{1} << (id & 63);
  }
}

std::vector<uint32_t> LegalMarkings(const Sheet& sheet, const Dice& roll) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  uint32_t blocked = ~sheet.free();
  std::vector<uint32_t> out;
  for (uint16_t id : catalog.ForRoll(DiceSpace::Get().RollIndex(roll)))
    if ((catalog.cells(id) & blocked) == 0) out.push_back(catalog.cells(id));
  return out;
}

std::vector<int> FailureColumns(const Sheet& sheet) {
  std::vector<int> out;
  for (int v = 1; v <= kColumns; ++v)
    if (!sheet.ColumnClosed(v)) out.push_back(v);
  return out;
}

absl::StatusOr<uint32_t> ParseMarking(absl::string_view text, const Sheet& sheet,
                                      const Dice& roll) {
  absl::StatusOr<std::vector<Group>> groups = ParseGroups(text);
  if (!groups.ok()) return groups.status();
  uint32_t cells = 0;
  for (const Group& g : *groups) {
    uint32_t bit = CellBit(g.face, g.size);
    if (cells & bit)
      return absl::InvalidArgumentError(
          absl::StrCat("marking ", QuotedInput(text), " circles cell ", g.face, ":", g.size,
                       " twice; the cells of a marking must be distinct (R3.3)"));
    if (!(sheet.free() & bit))
      return absl::InvalidArgumentError(absl::StrCat("marking ", QuotedInput(text), ": cell ", g.face, ":",
                                                     g.size, " is not free (R3.2)"));
    cells |= bit;
  }
  if (!CanForm(roll, groups->data(), static_cast<int>(groups->size())))
    return absl::InvalidArgumentError(
        absl::StrCat("marking ", QuotedInput(text), " cannot be formed from the dice ", FormatDice(roll),
                     " (R3.1: n dice of the face plus at most one J, disjoint dice)"));
  return cells;
}

}  // namespace penk
