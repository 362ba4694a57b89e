// Dice, rolls, keeps and the keep/roll lattice (R1.1, R2.2, R7.1, R7.2).
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "engine/dice.h"
#include "engine/dice_space.h"
#include "gtest/gtest.h"

namespace penk {
namespace {

// Dice from counts written out by hand: c[0] ones ... c[4] fives, c[5] jollies.
Dice Make(std::array<int, kFaces> c) {
  Dice d;
  for (int f = 0; f < kFaces; ++f) d.count[f] = static_cast<uint8_t>(c[f]);
  return d;
}

int64_t Binomial(int n, int k) {
  int64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// R2.2: every multiset of 0..6 dice over 6 faces is a keep; the six-dice ones are rolls.
TEST(DiceSpaceTest, CountsOfKeepsAndRolls) {
  // Multisets of size <= 6 over 6 faces: C(6+6, 6); of size exactly 6: C(6+5, 5).
  EXPECT_EQ(Binomial(12, 6), 924);
  EXPECT_EQ(Binomial(11, 5), 462);
  EXPECT_EQ(kNumKeeps, 924);
  EXPECT_EQ(kNumRolls, 462);
  const DiceSpace& space = DiceSpace::Get();
  std::set<std::array<uint8_t, kFaces>> seen;
  std::array<int, kDice + 1> by_size{};
  for (int k = 0; k < kNumKeeps; ++k) {
    const Dice& d = space.keep(k);
    ASSERT_LE(d.size(), kDice);
    ++by_size[d.size()];
    seen.insert(d.count);
    EXPECT_EQ(space.KeepIndex(d), k);
  }
  EXPECT_EQ(seen.size(), 924u) << "keeps must be distinct";
  for (int s = 0; s <= kDice; ++s) EXPECT_EQ(by_size[s], Binomial(s + 5, 5)) << "size " << s;
}

TEST(DiceSpaceTest, KeepsOrderedBySizeAndRollsAreTheLast462) {
  const DiceSpace& space = DiceSpace::Get();
  for (int k = 1; k < kNumKeeps; ++k)
    EXPECT_LE(space.keep(k - 1).size(), space.keep(k).size()) << "keep " << k;
  for (int k = 0; k < kNumKeepsBelowSix; ++k) EXPECT_LT(space.keep(k).size(), kDice);
  for (int r = 0; r < kNumRolls; ++r) {
    const Dice& roll = space.roll(r);
    EXPECT_EQ(roll.size(), kDice);
    EXPECT_EQ(roll, space.keep(r + kNumKeepsBelowSix));
    EXPECT_EQ(space.RollIndex(roll), r);
  }
  EXPECT_EQ(space.keep(0).size(), 0);
  EXPECT_EQ(FormatDice(space.keep(0)), "-");
}

TEST(DiceSpaceTest, AddAndRemoveAreConsistent) {
  const DiceSpace& space = DiceSpace::Get();
  for (int k = 0; k < kNumKeeps; ++k) {
    const Dice& d = space.keep(k);
    for (int f = 0; f < kFaces; ++f) {
      int16_t up = space.Add(k, f);
      if (d.size() == kDice) {
        EXPECT_EQ(up, kNoKeep);
      } else {
        ASSERT_GE(up, 0);
        ASSERT_LT(up, kNumKeeps);
        Dice expect = d;
        ++expect.count[f];
        EXPECT_EQ(space.keep(up), expect);
        EXPECT_EQ(space.Remove(up, f), k);
      }
      int16_t down = space.Remove(k, f);
      if (d.count[f] == 0) {
        EXPECT_EQ(down, kNoKeep);
      } else {
        ASSERT_GE(down, 0);
        ASSERT_LT(down, kNumKeeps);
        Dice expect = d;
        --expect.count[f];
        EXPECT_EQ(space.keep(down), expect);
        EXPECT_EQ(space.Add(down, f), k);
      }
    }
  }
}

TEST(DiceSpaceTest, SubKeepsAreEveryDistinctSubMultiset) {
  const DiceSpace& space = DiceSpace::Get();
  for (int r = 0; r < kNumRolls; ++r) {
    const Dice& roll = space.roll(r);
    int expected = 1;
    for (int f = 0; f < kFaces; ++f) expected *= roll.count[f] + 1;
    const std::vector<int16_t>& subs = space.SubKeeps(r);
    EXPECT_EQ(static_cast<int>(subs.size()), expected) << FormatDice(roll);
    std::set<int16_t> distinct(subs.begin(), subs.end());
    EXPECT_EQ(distinct.size(), subs.size());
    for (int16_t k : subs) EXPECT_TRUE(roll.Contains(space.keep(k)));
  }
}

// R1.1: each face 1/6. Counts of every roll over all 6^6 ordered outcomes.
TEST(DiceSpaceTest, RollProbabilitiesMatchBruteForceAndSumToOne) {
  const DiceSpace& space = DiceSpace::Get();
  std::vector<int> hits(kNumRolls, 0);
  for (int code = 0; code < 46656; ++code) {
    Dice d;
    for (int i = 0, c = code; i < kDice; ++i, c /= 6) ++d.count[c % 6];
    ++hits[space.RollIndex(d)];
  }
  double sum = 0;
  for (int r = 0; r < kNumRolls; ++r) {
    sum += space.RollProbability(r);
    EXPECT_NEAR(space.RollProbability(r), hits[r] / 46656.0, 1e-15) << FormatDice(space.roll(r));
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  // Hand-checked values: 111111 is 1/6^6, 12345J is 6!/6^6.
  EXPECT_NEAR(space.RollProbability(space.RollIndex(Make({6, 0, 0, 0, 0, 0}))), 1.0 / 46656, 1e-18);
  EXPECT_NEAR(space.RollProbability(space.RollIndex(Make({1, 1, 1, 1, 1, 1}))), 720.0 / 46656,
              1e-15);
}

TEST(DiceSpaceTest, TransitionsFromEveryKeepSumToOne) {
  const DiceSpace& space = DiceSpace::Get();
  for (int k = 0; k < kNumKeeps; ++k) {
    double sum = 0;
    for (int r = 0; r < kNumRolls; ++r) {
      double p = space.Transition(k, r);
      EXPECT_GE(p, 0.0);
      if (!space.roll(r).Contains(space.keep(k))) {
        EXPECT_EQ(p, 0.0);
      }
      sum += p;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12) << "keep " << FormatDice(space.keep(k));
  }
}

// R2.2: keep K, reroll the other 6-|K| dice. Enumerate the 6^(6-|K|) ordered
// outcomes of the rerolled dice for every keep and compare.
TEST(DiceSpaceTest, TransitionsMatchBruteForceEnumeration) {
  const DiceSpace& space = DiceSpace::Get();
  int64_t enumerated = 0;
  for (int k = 0; k < kNumKeeps; ++k) {
    const Dice& kept = space.keep(k);
    const int m = kDice - kept.size();
    int outcomes = 1;
    for (int i = 0; i < m; ++i) outcomes *= 6;
    std::vector<int> hits(kNumRolls, 0);
    for (int code = 0; code < outcomes; ++code) {
      Dice d = kept;
      for (int i = 0, c = code; i < m; ++i, c /= 6) ++d.count[c % 6];
      // Independent index lookup: linear search for the roll.
      int found = -1;
      for (int r = 0; r < kNumRolls && found < 0; ++r)
        if (space.roll(r) == d) found = r;
      ASSERT_GE(found, 0);
      ++hits[found];
      ++enumerated;
    }
    for (int r = 0; r < kNumRolls; ++r)
      ASSERT_NEAR(space.Transition(k, r), static_cast<double>(hits[r]) / outcomes, 1e-12)
          << "keep " << FormatDice(kept) << " roll " << FormatDice(space.roll(r));
  }
  // sum over sizes s of C(s+5,5) * 6^(6-s): every keep was enumerated.
  EXPECT_EQ(enumerated, 139134);
}

// A few transitions worked out by hand.
TEST(DiceSpaceTest, TransitionHandChecked) {
  const DiceSpace& space = DiceSpace::Get();
  int keep_3335J = space.KeepIndex(Make({0, 0, 3, 0, 1, 1}));
  // Reroll one die: each face 1/6.
  EXPECT_NEAR(space.Transition(keep_3335J, space.RollIndex(Make({0, 0, 3, 0, 1, 2}))), 1.0 / 6,
              1e-15);
  EXPECT_NEAR(space.Transition(keep_3335J, space.RollIndex(Make({0, 0, 4, 0, 1, 1}))), 1.0 / 6,
              1e-15);
  EXPECT_EQ(space.Transition(keep_3335J, space.RollIndex(Make({6, 0, 0, 0, 0, 0}))), 0.0);
  // Keep 1111, reroll two dice: 11 + {2,3} has probability 2/36.
  int keep_1111 = space.KeepIndex(Make({4, 0, 0, 0, 0, 0}));
  EXPECT_NEAR(space.Transition(keep_1111, space.RollIndex(Make({4, 1, 1, 0, 0, 0}))), 2.0 / 36,
              1e-15);
  EXPECT_NEAR(space.Transition(keep_1111, space.RollIndex(Make({4, 0, 2, 0, 0, 0}))), 1.0 / 36,
              1e-15);
  // Keeping all six dice: the roll stays.
  int six = space.KeepIndex(Make({1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(space.Transition(six, space.RollIndex(Make({1, 1, 1, 1, 1, 1}))), 1.0);
}

// ---- Text forms (R7.1, R7.2, R1.1) ----

TEST(DiceTextTest, RollCanonicalFormIsSortedWithJollyLast) {
  absl::StatusOr<Dice> d = ParseRoll("1133J5");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(*d, Make({2, 0, 2, 0, 1, 1}));
  EXPECT_EQ(FormatDice(*d), "11335J");
  d = ParseRoll("J54321");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(FormatDice(*d), "12345J");
  d = ParseRoll("JJJJJ2");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(FormatDice(*d), "2JJJJJ");
}

TEST(DiceTextTest, JollySpellings) {
  // R1.1: J, j, ! and 6 all mean the jolly.
  for (const char* text : {"3335JJ", "3335jj", "3335!!", "333566", "3335J!", "j3!353"}) {
    absl::StatusOr<Dice> d = ParseRoll(text);
    ASSERT_TRUE(d.ok()) << text << ": " << d.status();
    EXPECT_EQ(*d, Make({0, 0, 3, 0, 1, 2})) << text;
    EXPECT_EQ(FormatDice(*d), "3335JJ") << text;
  }
  absl::StatusOr<Dice> d = ParseDice("j!6J");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, Make({0, 0, 0, 0, 0, 4}));
}

TEST(DiceTextTest, SeparatorsIgnored) {
  // R7.1: spaces and commas are ignored.
  for (const char* text : {"1 1 3 3 5 J", "1,1,3,3,5,J", " 1133, 5J ", "1, 1, 3, 3, 5, J"}) {
    absl::StatusOr<Dice> d = ParseRoll(text);
    ASSERT_TRUE(d.ok()) << "\"" << text << "\": " << d.status();
    EXPECT_EQ(FormatDice(*d), "11335J") << text;
  }
  Dice roll = *ParseRoll("11335J");
  absl::StatusOr<Dice> k = ParseKeep("1, 3 J", roll);
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_EQ(*k, Make({1, 0, 1, 0, 0, 1}));
}

TEST(DiceTextTest, EmptyKeepIsDash) {
  Dice roll = *ParseRoll("11335J");
  absl::StatusOr<Dice> k = ParseKeep("-", roll);
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_EQ(k->size(), 0);
  EXPECT_EQ(FormatDice(*k), "-");
  EXPECT_EQ(FormatDice(Dice{}), "-");
  // The whole roll is a keep too (R2.2: same as stopping).
  k = ParseKeep("J53311", roll);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(*k, roll);
}

TEST(DiceTextTest, KeepMustBePartOfTheRoll) {
  Dice roll = *ParseRoll("11335J");
  for (const char* ok : {"1", "11", "335", "J", "113", "11335J", "5J"}) {
    absl::StatusOr<Dice> k = ParseKeep(ok, roll);
    EXPECT_TRUE(k.ok()) << ok << ": " << k.status();
  }
  for (const char* bad : {"111", "2", "JJ", "44", "333"}) {
    absl::StatusOr<Dice> k = ParseKeep(bad, roll);
    ASSERT_FALSE(k.ok()) << bad;
    std::string msg(k.status().message());
    EXPECT_NE(msg.find(bad), std::string::npos) << msg;
    EXPECT_NE(msg.find("roll"), std::string::npos) << msg;
  }
}

TEST(DiceTextTest, MalformedRollsAreRefusedWithAClearMessage) {
  for (const char* bad : {"1137", "11335", "1111111", "11335JJ", "", "-", "11a35J", "113357",
                          "11335J-", "0113 35"}) {
    absl::StatusOr<Dice> d = ParseRoll(bad);
    ASSERT_FALSE(d.ok()) << "\"" << bad << "\" was accepted as " << FormatDice(*d);
    std::string msg(d.status().message());
    // Says what was expected and what it got.
    EXPECT_NE(msg.find("6 dice"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1-5"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::string("\"") + bad + "\""), std::string::npos) << msg;
  }
}

TEST(DiceTextTest, MalformedKeepsAndDiceAreRefused) {
  Dice roll = *ParseRoll("11335J");
  for (const char* bad : {"1x", "1-", "-1", "7", "0", "1111111", "1.3"}) {
    absl::StatusOr<Dice> k = ParseKeep(bad, roll);
    ASSERT_FALSE(k.ok()) << bad;
    std::string msg(k.status().message());
    EXPECT_NE(msg.find(bad), std::string::npos) << msg;
    EXPECT_NE(msg.find("1-5"), std::string::npos) << msg;
  }
  for (const char* bad : {"8", "J1234J5", "abc", "3-3"}) {
    absl::StatusOr<Dice> d = ParseDice(bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_NE(std::string(d.status().message()).find(bad), std::string::npos)
        << d.status().message();
  }
  // ParseDice accepts 0..6 dice.
  for (const char* ok : {"", "-", "1", "12345J", "JJJJJJ"}) EXPECT_TRUE(ParseDice(ok).ok()) << ok;
}

TEST(DiceTextTest, FormatParseRoundTripForEveryKeep) {
  const DiceSpace& space = DiceSpace::Get();
  for (int k = 0; k < kNumKeeps; ++k) {
    const Dice& d = space.keep(k);
    std::string text = FormatDice(d);
    // Canonical: nondecreasing in the order 1 2 3 4 5 J.
    const std::string order = "12345J";
    for (size_t i = 1; i < text.size(); ++i)
      EXPECT_LE(order.find(text[i - 1]), order.find(text[i])) << text;
    absl::StatusOr<Dice> back = ParseDice(text);
    ASSERT_TRUE(back.ok()) << text;
    EXPECT_EQ(*back, d) << text;
  }
}

}  // namespace
}  // namespace penk
