#include "ai/neural_features.h"

#include <bit>

#include "engine/score.h"

namespace penk {

NeuralPosition NeuralPosition::OfGame(const Game& game, TableCache& tables) {
  NeuralPosition p;
  p.players = game.players();
  p.mover = game.current();
  p.last_round = game.last_round();
  p.rules = game.rules();
  for (int s = 0; s < p.players; ++s) {
    p.sheets[s] = game.sheet(s);
    p.turns[s] = game.turns(s);
    p.values[s] = SolitaireValueOfSheet(tables, p.sheets[s], p.rules);
  }
  return p;
}

void WriteSlotFeatures(const Sheet& sheet, double value, int turns, const Rules& rules,
                       float* slot) {
  for (int c = 0; c < 25; ++c) {
    slot[kCircledOffset + c] = (sheet.circled >> c) & 1;
    slot[kCrossedOffset + c] = (sheet.crossed >> c) & 1;
  }
  slot[kScoreOffset] = static_cast<float>(Score(sheet, rules) / 50.0);
  slot[kValueOffset] = static_cast<float>(value / 100.0);
  slot[kClosedOffset] = static_cast<float>(sheet.ClosedColumns() / 5.0);
  slot[kFreeOffset] = static_cast<float>(sheet.FreeCount() / 25.0);
  slot[kTurnsOffset] = static_cast<float>(turns / 15.0);
  slot[kPresentOffset] = 1;
}

NeuralFeatures FeaturesOf(const NeuralPosition& p) {
  NeuralFeatures f{};
  for (int i = 0; i < p.players; ++i) {
    const int seat = (p.mover + i) % p.players;
    WriteSlotFeatures(p.sheets[seat], p.values[seat], p.turns[seat], p.rules,
                      f.data() + i * kSlotFeatures);
  }
  float* g = f.data() + kMaxPlayers * kSlotFeatures;
  if (p.players >= 2 && p.players <= 4) g[p.players - 2] = 1;
  g[3] = p.rules.penk_rows ? 1 : 0;
  g[4] = static_cast<float>(p.rules.line_min / 5.0);
  g[5] = p.last_round ? 1 : 0;
  if (p.mover >= 0 && p.mover < kMaxPlayers) g[6 + p.mover] = 1;
  return f;
}

}  // namespace penk
