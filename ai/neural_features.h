// The input of the evaluation network (ai/neural_net.h): a multiplayer
// position between two turns, seen by the seat about to move (issue 21).
//
// The net values the moment after a turn's marking or failure (R3) and its
// PENK crossings (R4.2): the leaf of a turn expectimax, and the start of the
// next seat's turn. Seats are rotated so that slot 0 is the seat to move and
// slot i is seat (mover + i) mod players: one net then serves every seat, and
// the outputs (win share and final score of each slot) are read back by slot.
//
// Layout 1, 234 floats:
//   4 slots of 56 floats (zeros for slots >= players):
//     [0, 25)   circled cells (bit order of engine/sheet.h: row-major)
//     [25, 50)  crossed cells, whether by a failure (R3.5) or a PENK (R4.2)
//     50        score now / 50 (R6)
//     51        the sheet's exact solitaire value / 100 (its blocked rows'
//               table; its score once two columns are closed): what the exact
//               machinery says this sheet is worth alone
//     52        closed columns / 5 (R5.1, R5.2)
//     53        free cells / 25
//     54        turns the seat has played / 15
//     55        1: the seat is in the game
//   then 10 for the game:
//     [0, 3)    players is 2, 3, 4 (one-hot)
//     3         rows make PENKs (R4.3: 0 with penk-lines=columns)
//     4         line-min / 5 (R6.5; the net is trained at 3)
//     5         the last round is being played (R5.2)
//     [6, 10)   the absolute seat of the mover (one-hot): who still plays
//               this round, since the round ends with the last seat (R5.2)
// Layout 2 (issue 21 item 6: how near each sheet is to ending the game,
// R5.2, which layout 1's cell bits say only through many hidden units):
// each slot is layout 1's 56 then 7 more (63 a slot, 262 in all):
//     56        free cells left in its two least free columns / 10: how many
//               cells stand between this sheet and two closed columns
//               (0 once two are closed)
//     57, 58, 59  columns with exactly 1, 2, 3 free cells / 5
//     60, 61, 62  rows with exactly 0, 1, 2 free cells / 5 (a row near
//               full is a PENK near, R4.2)
//   then the same 10 for the game.
// A program reads every layout below (a net says its own; a player computes
// the features of its net's layout, self-play writes the layout asked
// for); a change of a layout is a new layout id, so that a net trained on
// one is never fed another: a net of an unknown layout is refused on load.
#ifndef PENK_AI_NEURAL_FEATURES_H_
#define PENK_AI_NEURAL_FEATURES_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "ai/neural_net.h"
#include "engine/game.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/table_cache.h"

namespace penk {

inline constexpr int kGameFeatures = 10;

// A feature layout: its id (in net and self-play files) and its sizes.
struct FeatureLayout {
  uint32_t id = 0;
  int slot_features = 0;  // floats per slot
  constexpr int count() const { return kMaxPlayers * slot_features + kGameFeatures; }
  constexpr bool operator==(const FeatureLayout&) const = default;
};
inline constexpr FeatureLayout kFeatureLayout1{1, 56};
inline constexpr FeatureLayout kFeatureLayout2{2, 63};
// What self-play writes and tools train unless told otherwise.
inline constexpr FeatureLayout kNewestFeatureLayout = kFeatureLayout2;
// The widest layout: the room a buffer of any layout's features needs.
inline constexpr int kMaxSlotFeatures = kFeatureLayout2.slot_features;
inline constexpr int kMaxFeatureCount = kFeatureLayout2.count();  // 262

// The layout of id `id`, or an error naming the ids this program reads.
absl::StatusOr<FeatureLayout> FeatureLayoutOf(uint32_t id);
// Every layout above, as a net loader accepts them (NeuralNet::Load).
inline constexpr NeuralInputs kReadableNetInputs[] = {
    {kFeatureLayout1.id, kFeatureLayout1.count()}, {kFeatureLayout2.id, kFeatureLayout2.count()}};

// Offsets inside a slot, for callers that change a few inputs (NNUE style).
inline constexpr int kCircledOffset = 0;
inline constexpr int kCrossedOffset = 25;
inline constexpr int kScoreOffset = 50;
inline constexpr int kValueOffset = 51;
inline constexpr int kClosedOffset = 52;
inline constexpr int kFreeOffset = 53;
inline constexpr int kTurnsOffset = 54;
inline constexpr int kPresentOffset = 55;
// Layout 2's additions (above).
inline constexpr int kToEndOffset = 56;
inline constexpr int kColumnsFreeOffset = 57;  // 3 floats: 1, 2, 3 free cells
inline constexpr int kRowsFreeOffset = 60;     // 3 floats: 0, 1, 2 free cells

// A position between turns, by absolute seat.
struct NeuralPosition {
  int players = 2;
  int mover = 0;  // the seat about to start its turn
  bool last_round = false;
  Rules rules;
  std::array<Sheet, kMaxPlayers> sheets{};
  std::array<int, kMaxPlayers> turns{};
  // Exact solitaire values of the sheets (SolitaireValueOfSheet), by seat.
  std::array<double, kMaxPlayers> values{};

  // The game's position with `game.current()` to move, whatever the phase of
  // its turn (the sheets do not change inside a turn). Values from `tables`
  // (TableUnavailable when a table cannot be had).
  static NeuralPosition OfGame(const Game& game, TableCache& tables);
};

// The first layout.count() floats are the features; the rest stay 0.
using NeuralFeatures = std::array<float, kMaxFeatureCount>;

// The slot of `seat` when `mover` is to move.
inline int SlotOf(int seat, int mover, int players) { return (seat - mover + players) % players; }

// One slot's features for a seat's sheet (layout.slot_features floats).
void WriteSlotFeatures(const FeatureLayout& layout, const Sheet& sheet, double value, int turns,
                       const Rules& rules, float* slot);

NeuralFeatures FeaturesOf(const FeatureLayout& layout, const NeuralPosition& position);

}  // namespace penk

#endif  // PENK_AI_NEURAL_FEATURES_H_
