// Dice, rolls and keeps (R1.1, R2, R7.1, R7.2).
//
// A die shows a face 1..5 or the jolly J. Order never matters in PENK, so a
// handful of dice is a multiset: six counts, one per face. Faces are indexed
// 0..5 where index v-1 is face v and index 5 (kJolly) is J.
#ifndef PENK_ENGINE_DICE_H_
#define PENK_ENGINE_DICE_H_

#include <array>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace penk {

inline constexpr int kFaces = 6;       // 1..5 and J
inline constexpr int kNumberFaces = 5; // faces that form groups (R3.1)
inline constexpr int kJolly = 5;       // face index of J
inline constexpr int kDice = 6;        // dice in a roll (R1.1)

// A multiset of at most six dice. A plain value: six counts.
struct Dice {
  std::array<uint8_t, kFaces> count{};

  int size() const {
    int n = 0;
    for (uint8_t c : count) n += c;
    return n;
  }
  bool operator==(const Dice&) const = default;
  // True if every die of `part` is in *this (sub-multiset, R7.2).
  bool Contains(const Dice& part) const {
    for (int f = 0; f < kFaces; ++f)
      if (part.count[f] > count[f]) return false;
    return true;
  }
  // Both multisets together (the caller keeps the sum within six dice).
  Dice Plus(const Dice& more) const {
    Dice d = *this;
    for (int f = 0; f < kFaces; ++f) d.count[f] += more.count[f];
    return d;
  }
  Dice Minus(const Dice& part) const {
    Dice d = *this;
    for (int f = 0; f < kFaces; ++f) d.count[f] -= part.count[f];
    return d;
  }
};

// Face index -> character: '1'..'5', 'J'.
char FaceChar(int face);

// Canonical text: sorted, J last (R7.1); "-" for no dice (R7.2).
std::string FormatDice(const Dice& dice);

// Parses dice text: characters 1-5, J/j/!/6 for the jolly; spaces and commas
// ignored; "-" alone is the empty keep. Checks only the alphabet and size <= 6.
absl::StatusOr<Dice> ParseDice(absl::string_view text);

// A roll: exactly six dice (R7.1).
absl::StatusOr<Dice> ParseRoll(absl::string_view text);

// A keep out of `roll`: 0..6 dice, a sub-multiset of the roll (R7.2).
absl::StatusOr<Dice> ParseKeep(absl::string_view text, const Dice& roll);

}  // namespace penk

#endif  // PENK_ENGINE_DICE_H_
