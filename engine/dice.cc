#include "engine/dice.h"

#include "absl/strings/str_cat.h"
#include "engine/quoted_input.h"

namespace penk {

char FaceChar(int face) { return face == kJolly ? 'J' : static_cast<char>('1' + face); }

std::string FormatDice(const Dice& dice) {
  std::string s;
  for (int f = 0; f < kFaces; ++f) s.append(dice.count[f], FaceChar(f));
  return s.empty() ? "-" : s;
}

absl::StatusOr<Dice> ParseDice(absl::string_view text) {
  Dice d;
  int n = 0;
  bool dash = false;
  for (char c : text) {
    int face;
    if (c == ' ' || c == ',' || c == '\t') continue;
    if (c >= '1' && c <= '5') {
      face = c - '1';
    } else if (c == 'J' || c == 'j' || c == '!' || c == '6') {
      face = kJolly;
    } else if (c == '-') {
      dash = true;
      continue;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("dice use the characters 1-5 and J; got '", std::string(1, c), "' in ",
                       QuotedInput(text)));
    }
    if (++n > kDice)
      return absl::InvalidArgumentError(absl::StrCat("at most 6 dice; got ", QuotedInput(text)));
    ++d.count[face];
  }
  if (dash && n > 0)
    return absl::InvalidArgumentError(
        absl::StrCat("'-' stands alone for keeping no dice; got ", QuotedInput(text)));
  return d;
}

absl::StatusOr<Dice> ParseRoll(absl::string_view text) {
  absl::StatusOr<Dice> d = ParseDice(text);
  if (!d.ok() || d->size() != kDice)
    return absl::InvalidArgumentError(
        absl::StrCat("roll must be 6 dice from 1-5 and J; got ", QuotedInput(text)));
  return d;
}

absl::StatusOr<Dice> ParseKeep(absl::string_view text, const Dice& roll) {
  absl::StatusOr<Dice> d = ParseDice(text);
  if (!d.ok())
    return absl::InvalidArgumentError(absl::StrCat(
        "keep must be 0-6 dice from 1-5 and J (or - for none); got ", QuotedInput(text)));
  if (!roll.Contains(*d))
    return absl::InvalidArgumentError(absl::StrCat("keep ", QuotedInput(text), " is not part of the roll ",
                                                   FormatDice(roll)));
  return d;
}

}  // namespace penk
