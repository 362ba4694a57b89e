// A decision of the player to move: a keep before a reroll (R2.2), or a
// marking or failure after the last roll (R3). Text forms are R7.2, R7.4, R7.5.
#ifndef PENK_ENGINE_ACTION_H_
#define PENK_ENGINE_ACTION_H_

#include <cstdint>
#include <string>

#include "engine/dice.h"
#include "engine/marking.h"

namespace penk {

struct Action {
  enum Kind { kKeep, kMark, kFail } kind = kKeep;
  Dice keep;           // kKeep: the dice kept; all six dice = stop rolling
  uint32_t cells = 0;  // kMark: the cells circled
  int face = 0;        // kFail: the column crossed

  static Action Keep(const Dice& d) { return Action{kKeep, d, 0, 0}; }
  static Action Mark(uint32_t c) { return Action{kMark, Dice{}, c, 0}; }
  static Action Fail(int v) { return Action{kFail, Dice{}, 0, v}; }
  bool operator==(const Action&) const = default;
};

inline std::string FormatAction(const Action& a) {
  switch (a.kind) {
    case Action::kKeep: return FormatDice(a.keep);
    case Action::kMark: return FormatMarking(a.cells);
    case Action::kFail: return "fail:" + std::to_string(a.face);
  }
  return "";
}

}  // namespace penk

#endif  // PENK_ENGINE_ACTION_H_
