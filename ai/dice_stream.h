// Dice that do not depend on the decisions: a counter-based source keyed by
// (stream, seat position, turn, roll of the turn). Roll r of turn t of the
// seat at position s always shows the same six values; a reroll of n dice
// takes the first n of them (the kept dice stay). So two games of one deal
// (`penk match`) give each seat position the same luck whoever sits there,
// and every candidate of a rollout (ai/rollout.h) meets the same dice.
//
// Driven through a Game with DiceSource::kManual: RollNow gives the six dice
// of the game's pending roll (Phase::kRoll).
#ifndef PENK_AI_DICE_STREAM_H_
#define PENK_AI_DICE_STREAM_H_

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "engine/dice.h"
#include "engine/game.h"
#include "engine/rng.h"

namespace penk {

// splitmix64's finaliser: a counter becomes an independent-looking seed.
inline uint64_t MixBits(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class DiceStream {
 public:
  explicit DiceStream(uint64_t key) : key_(key) {}

  // The six face values (0..5, kJolly = J) of roll `roll` (0: the first of the
  // turn, 1 and 2: the rerolls, R2.2) of turn `turn` (0-based) of seat `seat`.
  std::array<int, kDice> Values(int seat, int turn, int roll) const {
    Rng rng(MixBits(key_ ^ MixBits((static_cast<uint64_t>(seat) << 48) ^
                                   (static_cast<uint64_t>(turn) << 8) ^
                                   static_cast<uint64_t>(roll))));
    std::array<int, kDice> v{};
    for (int& f : v) f = rng.Die();  // R1.1: each face 1/6
    return v;
  }

  // The dice of `game`'s pending roll: the kept dice plus the first
  // 6 - kept values of this slot.
  Dice Next(const Game& game) const {
    const int seat = game.current();
    return Fill(game.kept(), Values(seat, game.turns(seat), 2 - game.rerolls_left()));
  }

  // `kept` plus the first 6 - kept.size() of `values`.
  static Dice Fill(Dice kept, const std::array<int, kDice>& values) {
    for (int i = 0; kept.size() < kDice; ++i) ++kept.count[values[i]];
    return kept;
  }

  // Rolls the pending dice of a manual-dice game (Phase::kRoll).
  absl::Status RollNow(Game& game) const { return game.Roll(Next(game)); }

 private:
  uint64_t key_;
};

}  // namespace penk

#endif  // PENK_AI_DICE_STREAM_H_
