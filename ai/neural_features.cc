#include "ai/neural_features.h"

#include <bit>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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

absl::StatusOr<FeatureLayout> FeatureLayoutOf(uint32_t id) {
  for (const FeatureLayout& l : {kFeatureLayout1, kFeatureLayout2})
    if (l.id == id) return l;
  return absl::InvalidArgumentError(
      absl::StrCat("feature layout ", id, ", this program reads layouts 1 and 2"));
}

void WriteSlotFeatures(const FeatureLayout& layout, const Sheet& sheet, double value, int turns,
                       const Rules& rules, float* slot) {
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
  if (layout.id < 2) return;
  // R5.2: the game is about to end once a sheet has two closed columns.
  const uint32_t free = sheet.free();
  int least = kRows + 1, next = kRows + 1;
  int columns_free[kRows + 1] = {};
  for (int face = 1; face <= kColumns; ++face) {
    const int f = std::popcount(free & ColumnMask(face));
    ++columns_free[f];
    if (f < least) {
      next = least;
      least = f;
    } else if (f < next) {
      next = f;
    }
  }
  int rows_free[kColumns + 1] = {};
  for (int size = 1; size <= kRows; ++size) ++rows_free[std::popcount(free & RowMask(size))];
  slot[kToEndOffset] = static_cast<float>((least + next) / 10.0);
  for (int k = 0; k < 3; ++k) {
    slot[kColumnsFreeOffset + k] = static_cast<float>(columns_free[k + 1] / 5.0);
    slot[kRowsFreeOffset + k] = static_cast<float>(rows_free[k] / 5.0);
  }
}

NeuralFeatures FeaturesOf(const FeatureLayout& layout, const NeuralPosition& p) {
  NeuralFeatures f{};
  for (int i = 0; i < p.players; ++i) {
    const int seat = (p.mover + i) % p.players;
    WriteSlotFeatures(layout, p.sheets[seat], p.values[seat], p.turns[seat], p.rules,
                      f.data() + i * layout.slot_features);
  }
  float* g = f.data() + kMaxPlayers * layout.slot_features;
  if (p.players >= 2 && p.players <= 4) g[p.players - 2] = 1;
  g[3] = p.rules.penk_rows ? 1 : 0;
  g[4] = static_cast<float>(p.rules.line_min / 5.0);
  g[5] = p.last_round ? 1 : 0;
  if (p.mover >= 0 && p.mover < kMaxPlayers) g[6 + p.mover] = 1;
  return f;
}

}  // namespace penk
