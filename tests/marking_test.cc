// Groups and markings (R3, R7.4, R7.5), against an independent brute force.
#include <algorithm>
#include <bit>
#include <set>
#include <string>
#include <vector>

#include "engine/dice.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "engine/sheet.h"
#include "gtest/gtest.h"

namespace penk {
namespace {

// The cell layout documented in sheet.h (R7.3 order: row k, then face v).
uint32_t Bit(int v, int k) { return 1u << ((k - 1) * 5 + (v - 1)); }

Dice Roll(const char* text) {
  absl::StatusOr<Dice> d = ParseRoll(text);
  EXPECT_TRUE(d.ok()) << text;
  return d.ok() ? *d : Dice{};
}

Sheet MustParse(const char* text) {
  absl::StatusOr<Sheet> s = ParseSheet(text);
  EXPECT_TRUE(s.ok()) << text;
  return s.ok() ? *s : Sheet{};
}

// R3.1-R3.3 by brute force: each of the six dice is unused or goes to one of
// three groups (4^6 assignments). A non-empty group must be n >= 1 dice of
// one face 1..5 plus at most one J, size <= 5; it circles (face, size). The
// cells must be distinct and free. Returns the distinct cell sets.
std::set<uint32_t> BruteForceMarkings(const Sheet& sheet, const Dice& roll) {
  std::vector<int> dice;  // face index 0..4 for 1..5, 5 for J
  for (int f = 0; f < 6; ++f)
    for (int i = 0; i < roll.count[f]; ++i) dice.push_back(f);
  EXPECT_EQ(dice.size(), 6u);
  const uint32_t free = sheet.free();
  std::set<uint32_t> out;
  for (int a = 0; a < 4096; ++a) {
    int jollies[3] = {0, 0, 0}, numbers[3] = {0, 0, 0}, face[3] = {-1, -1, -1};
    bool ok = true;
    for (int i = 0; i < 6 && ok; ++i) {
      int g = (a >> (2 * i)) & 3;
      if (g == 0) continue;
      --g;
      if (dice[i] == 5) {
        ++jollies[g];
      } else {
        if (face[g] >= 0 && face[g] != dice[i]) ok = false;
        face[g] = dice[i];
        ++numbers[g];
      }
    }
    if (!ok) continue;
    uint32_t cells = 0;
    int groups = 0;
    for (int g = 0; g < 3 && ok; ++g) {
      if (numbers[g] + jollies[g] == 0) continue;
      if (numbers[g] < 1 || jollies[g] > 1) { ok = false; break; }
      int size = numbers[g] + jollies[g];
      if (size > 5) { ok = false; break; }
      uint32_t bit = Bit(face[g] + 1, size);
      if ((cells & bit) || !(free & bit)) { ok = false; break; }
      cells |= bit;
      ++groups;
    }
    if (ok && groups > 0) out.insert(cells);
  }
  return out;
}

Dice RandomRoll(Rng& rng) {
  Dice d;
  for (int i = 0; i < 6; ++i) ++d.count[rng.Die()];
  return d;
}

Sheet RandomSheet(Rng& rng) {
  // Vary the density so that empty, sparse and nearly full sheets all occur.
  int taken = static_cast<int>(rng.Below(101));
  Sheet s;
  for (int c = 0; c < 25; ++c) {
    if (static_cast<int>(rng.Below(100)) >= taken) continue;
    if (rng.Below(2)) s.circled |= 1u << c; else s.crossed |= 1u << c;
  }
  return s;
}

// Group list of a cell set, by hand: (face, size) in face-then-size order.
std::vector<std::pair<int, int>> GroupsOf(uint32_t cells) {
  std::vector<std::pair<int, int>> g;
  for (int v = 1; v <= 5; ++v)
    for (int k = 1; k <= 5; ++k)
      if (cells & Bit(v, k)) g.push_back({v, k});
  return g;
}

std::string Text(uint32_t cells) {
  std::string s;
  for (auto [v, k] : GroupsOf(cells)) {
    if (!s.empty()) s += '+';
    s += std::to_string(v) + ":" + std::to_string(k);
  }
  return s;
}

std::set<std::string> LegalTexts(const Sheet& sheet, const char* roll) {
  std::set<std::string> out;
  for (uint32_t m : LegalMarkings(sheet, Roll(roll))) out.insert(FormatMarking(m));
  return out;
}

// E1: 3335JJ on an empty sheet.
TEST(MarkingTest, ExampleE1) {
  std::vector<uint32_t> legal = LegalMarkings(Sheet{}, Roll("3335JJ"));
  std::set<uint32_t> singles;
  for (uint32_t m : legal)
    if (std::popcount(m) == 1) singles.insert(m);
  EXPECT_EQ(singles, (std::set<uint32_t>{Bit(3, 1), Bit(3, 2), Bit(3, 3), Bit(3, 4), Bit(5, 1),
                                          Bit(5, 2)}));
  auto has = [&](uint32_t cells) { return std::count(legal.begin(), legal.end(), cells) == 1; };
  EXPECT_TRUE(has(Bit(3, 4) | Bit(5, 2)));               // 3,3,3,J and 5,J
  EXPECT_TRUE(has(Bit(3, 1) | Bit(3, 2) | Bit(5, 2)));   // 3 / 3,3 / 5,J
  EXPECT_FALSE(has(Bit(3, 5)));                          // only three 3s and one J
  std::set<std::string> texts = LegalTexts(Sheet{}, "3335JJ");
  EXPECT_TRUE(texts.count("3:4+5:2"));
  EXPECT_TRUE(texts.count("3:1+3:2+5:2"));
  EXPECT_FALSE(texts.count("3:5"));
}

// E2: JJJJJ2 can only make 2:1 and 2:2.
TEST(MarkingTest, ExampleE2) {
  std::vector<uint32_t> legal = LegalMarkings(Sheet{}, Roll("JJJJJ2"));
  std::set<uint32_t> got(legal.begin(), legal.end());
  EXPECT_EQ(got, (std::set<uint32_t>{Bit(2, 1), Bit(2, 2)}));
  EXPECT_EQ(legal.size(), 2u);
}

// E2b: exact counts on an empty sheet.
TEST(MarkingTest, ExampleE2bCounts) {
  EXPECT_EQ(LegalMarkings(Sheet{}, Roll("3335JJ")).size(), 22u);
  EXPECT_EQ(LegalMarkings(Sheet{}, Roll("12345J")).size(), 80u);
  EXPECT_EQ(LegalMarkings(Sheet{}, Roll("333333")).size(), 12u);
  EXPECT_EQ(LegalMarkings(Sheet{}, Roll("11335J")).size(), 46u);
  // And the brute force agrees with the rule book.
  EXPECT_EQ(BruteForceMarkings(Sheet{}, Roll("3335JJ")).size(), 22u);
  EXPECT_EQ(BruteForceMarkings(Sheet{}, Roll("12345J")).size(), 80u);
  EXPECT_EQ(BruteForceMarkings(Sheet{}, Roll("333333")).size(), 12u);
  EXPECT_EQ(BruteForceMarkings(Sheet{}, Roll("11335J")).size(), 46u);
}

// R3.3 [house]: two groups may show the same face.
TEST(MarkingTest, TwoGroupsOfTheSameFace) {
  std::set<std::string> t = LegalTexts(Sheet{}, "333312");
  EXPECT_TRUE(t.count("3:1+3:3"));
  EXPECT_TRUE(t.count("3:1+3:2"));
  EXPECT_TRUE(t.count("1:1+3:1+3:3"));
  EXPECT_FALSE(t.count("3:2+3:3"));  // five 3s needed
  EXPECT_FALSE(t.count("3:5"));
  // A J alone or jollies only are not groups (R3.1).
  EXPECT_TRUE(LegalMarkings(Sheet{}, Roll("JJJJJJ")).empty());
}

TEST(MarkingTest, MatchesBruteForceOnEveryRollOfTheEmptySheet) {
  const DiceSpace& space = DiceSpace::Get();
  for (int r = 0; r < kNumRolls; ++r) {
    std::vector<uint32_t> legal = LegalMarkings(Sheet{}, space.roll(r));
    std::set<uint32_t> got(legal.begin(), legal.end());
    ASSERT_EQ(got.size(), legal.size()) << "duplicates for " << FormatDice(space.roll(r));
    ASSERT_EQ(got, BruteForceMarkings(Sheet{}, space.roll(r))) << FormatDice(space.roll(r));
  }
}

TEST(MarkingTest, MatchesBruteForceOnRandomSheetsAndRolls) {
  Rng rng(12345);
  int without_marking = 0;
  for (int t = 0; t < 4000; ++t) {
    Sheet sheet = RandomSheet(rng);
    Dice roll = RandomRoll(rng);
    std::vector<uint32_t> legal = LegalMarkings(sheet, roll);
    std::set<uint32_t> got(legal.begin(), legal.end());
    std::set<uint32_t> expect = BruteForceMarkings(sheet, roll);
    ASSERT_EQ(got.size(), legal.size()) << "duplicates";
    ASSERT_EQ(got, expect) << FormatSheet(sheet) << " " << FormatDice(roll);
    for (uint32_t m : legal) {
      ASSERT_GE(std::popcount(m), 1);
      ASSERT_LE(std::popcount(m), 3);
      ASSERT_EQ(m & ~sheet.free(), 0u);
    }
    // Canonical order of the list: group sequences compared lexicographically.
    for (size_t i = 1; i < legal.size(); ++i)
      ASSERT_LT(GroupsOf(legal[i - 1]), GroupsOf(legal[i]))
          << FormatSheet(sheet) << " " << FormatDice(roll);
    if (expect.empty()) {
      ++without_marking;
      // R3.5: the columns that still have a free cell, by hand.
      std::vector<int> columns;
      for (int v = 1; v <= 5; ++v) {
        bool any = false;
        for (int k = 1; k <= 5; ++k) any |= (sheet.free() & Bit(v, k)) != 0;
        if (any) columns.push_back(v);
      }
      ASSERT_EQ(FailureColumns(sheet), columns) << FormatSheet(sheet);
    }
  }
  EXPECT_GT(without_marking, 50) << "the random sheets should often leave no legal group";
}

// MarkingCatalog::Avoiding (unions of per-cell sets, what the solvers' hot
// loops iterate) against a test of every marking, on random sets of taken
// cells from none to all; ForEachMarking visits ids in increasing order.
TEST(MarkingTest, AvoidingIsEveryMarkingClearOfTheTakenCells) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  Rng rng(77);
  for (int t = 0; t < 2000; ++t) {
    uint32_t taken = 0;
    const int cells = t % 26;
    while (std::popcount(taken) < cells) taken |= 1u << rng.Below(25);
    std::vector<int> expect, got;
    for (int id = 0; id < catalog.size(); ++id)
      if ((catalog.cells(id) & taken) == 0) expect.push_back(id);
    const MarkingSet set = catalog.Avoiding(taken);
    ForEachMarking(set, [&](int id) { got.push_back(id); });
    ASSERT_EQ(got, expect) << "taken cells " << taken;
    for (int id = 0; id < kMaxCatalogMarkings; ++id)
      ASSERT_EQ(Contains(set, id), std::binary_search(expect.begin(), expect.end(), id));
  }
  int all = 0;
  ForEachMarking(catalog.Avoiding(0), [&](int) { ++all; });
  EXPECT_EQ(all, catalog.size());
  ForEachMarking(catalog.Avoiding(kAllCells), [&](int id) { ADD_FAILURE() << id; });
}

// R3.5: no legal group -> the failure choices are the columns with a free cell.
TEST(MarkingTest, FailureColumnsWhenNoMarkingExists) {
  // 111111 can only circle column 1, which is crossed out.
  Sheet s = MustParse("x..../x..../x..../x..../x....");
  EXPECT_TRUE(LegalMarkings(s, Roll("111111")).empty());
  EXPECT_EQ(FailureColumns(s), (std::vector<int>{2, 3, 4, 5}));
  // 11111J: column 1 fully circled.
  s = MustParse("o..../o..../o..../o..../o...x");
  EXPECT_TRUE(LegalMarkings(s, Roll("11111J")).empty());
  EXPECT_EQ(FailureColumns(s), (std::vector<int>{2, 3, 4, 5}));
  // 112233: rows 1 and 2 of columns 1-3 are taken; no column is closed.
  s = MustParse("xxo../oox../...../...../.....");
  EXPECT_TRUE(LegalMarkings(s, Roll("112233")).empty());
  EXPECT_EQ(FailureColumns(s), (std::vector<int>{1, 2, 3, 4, 5}));
  // Jollies only: no group on any sheet.
  EXPECT_TRUE(LegalMarkings(Sheet{}, Roll("JJJJJJ")).empty());
  EXPECT_EQ(FailureColumns(Sheet{}), (std::vector<int>{1, 2, 3, 4, 5}));
  // Columns 2 and 4 closed.
  s = MustParse("xo.x./xx.o./.x.x./.o.x./.x.o.");
  EXPECT_EQ(FailureColumns(s), (std::vector<int>{1, 3, 5}));
  // A full sheet has no failure column.
  EXPECT_TRUE(FailureColumns(MustParse("ooxxo/xxxxx/ooooo/xoxox/xxxxx")).empty());
}

TEST(MarkingTest, ParseMarkingAcceptsLegalMarkings) {
  Dice roll = Roll("3335JJ");
  struct Case {
    const char* text;
    uint32_t cells;
  } cases[] = {
      {"3:4+5:2", Bit(3, 4) | Bit(5, 2)},
      {"5:2+3:4", Bit(3, 4) | Bit(5, 2)},
      {"3:4J", Bit(3, 4)},
      {"3:4J+5:2J", Bit(3, 4) | Bit(5, 2)},
      {"3:1+3:2+5:2", Bit(3, 1) | Bit(3, 2) | Bit(5, 2)},
      {"3:2j+3:1", Bit(3, 1) | Bit(3, 2)},
      {"3:3!", Bit(3, 3)},
      {"5:1", Bit(5, 1)},
      {" 3:4 + 5:2 ", Bit(3, 4) | Bit(5, 2)},
  };
  for (const Case& c : cases) {
    absl::StatusOr<uint32_t> m = ParseMarking(c.text, Sheet{}, roll);
    ASSERT_TRUE(m.ok()) << c.text << ": " << m.status();
    EXPECT_EQ(*m, c.cells) << c.text;
  }
}

void ExpectRefused(const char* text, const Sheet& sheet, const Dice& roll, const char* word) {
  absl::StatusOr<uint32_t> m = ParseMarking(text, sheet, roll);
  ASSERT_FALSE(m.ok()) << "\"" << text << "\" accepted on " << FormatSheet(sheet) << " with "
                       << FormatDice(roll);
  std::string msg(m.status().message());
  EXPECT_NE(msg.find(text), std::string::npos) << msg;
  EXPECT_NE(msg.find(word), std::string::npos) << "expected \"" << word << "\" in: " << msg;
}

TEST(MarkingTest, ParseMarkingRefusesBadMarkings) {
  Dice roll = Roll("3335JJ");
  // Cannot be formed from the dice (R3.1, R3.3).
  ExpectRefused("3:5", Sheet{}, roll, "dice");
  ExpectRefused("4:1", Sheet{}, roll, "dice");
  ExpectRefused("3:1J", Sheet{}, roll, "dice");  // a J needs n >= 1 dice of the face
  ExpectRefused("3:4+5:2+3:1", Sheet{}, roll, "dice");
  ExpectRefused("3:4+5:3", Sheet{}, Roll("33355J"), "dice");  // one J only
  ExpectRefused("3:4J+5:2J", Sheet{}, Roll("33355J"), "dice");
  ExpectRefused("3:3J", Sheet{}, Roll("333512"), "dice");        // explicit J missing
  // Duplicate cells (R3.3).
  ExpectRefused("3:2+3:2", Sheet{}, roll, "distinct");
  ExpectRefused("3:1+3:1J", Sheet{}, roll, "distinct");
  // Cells not free (R3.2).
  Sheet taken = MustParse("...../...../...../..o../.x...");
  ExpectRefused("3:4+5:2", taken, roll, "free");
  ExpectRefused("2:5", taken, Roll("22222J"), "free");
  // Syntax and ranges (R7.4).
  for (const char* bad : {"", "3-4", "3:6", "6:1", "0:1", "3:0", "3:4+", "+3:4", "33:4", "3:4K",
                          "3:1+3:2+3:3+5:1", "fail:3", "3:", ":4", "3:4JJ"}) {
    ExpectRefused(bad, Sheet{}, roll, "");
    EXPECT_FALSE(ParseGroups(bad).ok()) << bad;
  }
}

TEST(MarkingTest, FormatMarkingCanonicalOrder) {
  EXPECT_EQ(FormatMarking(Bit(5, 2) | Bit(3, 4)), "3:4+5:2");
  EXPECT_EQ(FormatMarking(Bit(3, 2) | Bit(3, 1) | Bit(1, 5)), "1:5+3:1+3:2");
  EXPECT_EQ(FormatMarking(Bit(2, 1)), "2:1");
  EXPECT_EQ(FormatMarking(Bit(5, 5)), "5:5");
  // Every marking of every roll prints in face-then-size order and parses back.
  const DiceSpace& space = DiceSpace::Get();
  for (int r = 0; r < kNumRolls; ++r)
    for (uint32_t m : LegalMarkings(Sheet{}, space.roll(r))) {
      ASSERT_EQ(FormatMarking(m), Text(m));
      absl::StatusOr<uint32_t> back = ParseMarking(FormatMarking(m), Sheet{}, space.roll(r));
      ASSERT_TRUE(back.ok()) << FormatMarking(m) << " " << FormatDice(space.roll(r));
      ASSERT_EQ(*back, m);
    }
}

// A marking text is legal exactly when it is among LegalMarkings, on random
// positions: every single cell and pair of cells is tried.
TEST(MarkingTest, ParseMarkingAgreesWithBruteForce) {
  Rng rng(99);
  for (int t = 0; t < 300; ++t) {
    Sheet sheet = RandomSheet(rng);
    Dice roll = RandomRoll(rng);
    std::set<uint32_t> expect = BruteForceMarkings(sheet, roll);
    for (int a = 0; a < 25; ++a)
      for (int b = a; b < 25; ++b) {
        uint32_t cells = (1u << a) | (1u << b);
        std::string text = Text(1u << a);
        if (b != a) {
          text += '+';
          text += Text(1u << b);
        }
        absl::StatusOr<uint32_t> m = ParseMarking(text, sheet, roll);
        ASSERT_EQ(m.ok(), expect.count(cells) == 1)
            << text << " on " << FormatSheet(sheet) << " " << FormatDice(roll);
        if (m.ok()) {
          ASSERT_EQ(*m, cells);
        }
      }
  }
}

}  // namespace
}  // namespace penk
