// A game followed step by step: every decision and roll recorded, and any
// step taken back. Game itself stays a plain value for the AIs to copy; the
// record around it is what a frontend or a real table needs (the history of
// each turn, which cells each PENK crossed on which sheet, undo).
#ifndef PENK_ENGINE_GAME_RECORD_H_
#define PENK_ENGINE_GAME_RECORD_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "engine/action.h"
#include "engine/dice.h"
#include "engine/game.h"

namespace penk {

// One turn as it was played.
struct TurnRecord {
  int player = -1;
  std::vector<Dice> rolls;   // the six dice after each roll, in order
  std::vector<Dice> keeps;   // the dice kept before each reroll (R2.2)
  bool stopped = false;      // kept all six before the last reroll
  bool passed = false;       // no free cell: nothing to do (R3.6)
  bool done = false;         // the marking or failure has been made
  uint32_t circled = 0;      // cells circled (R3.2)
  int failed_column = 0;     // 1..5 for a failure (R3.5)
  uint32_t crossed_by_failure = 0;  // the mover's cells crossed by it
  uint32_t penk_rows = 0;    // lines completed (R4.1), bit k-1 / v-1
  uint32_t penk_columns = 0;
  // Cells each other seat crossed because of those PENKs (R4.2).
  std::array<uint32_t, kMaxPlayers> crossed_by_penk{};
  bool last_round_started = false;  // R5.2
};

// Who crossed a cell of a sheet.
inline constexpr int kCrossedByFailure = -1;  // the sheet's owner, by a failure (R3.5)
inline constexpr int kCrossedBefore = -2;     // before the record started (a set-up position)
inline constexpr int kNotCrossed = -3;

// One step of a game, as Undo takes it back: a decision of the player to
// move, or the six physical dice of a roll (DiceSource::kManual). With the
// engine's dice the rolls are not steps: the seed and the decisions give them.
struct GameStep {
  enum Kind { kDecision, kRoll } kind = kDecision;
  Action action;  // kDecision
  Dice dice;      // kRoll
  bool operator==(const GameStep&) const = default;
};

class GameRecord {
 public:
  explicit GameRecord(const Game& start);

  const Game& game() const { return game_; }
  const std::vector<TurnRecord>& turns() const { return turns_; }
  // The game as it was when the record started.
  const Game& start() const { return start_; }
  // Steps that Undo can take back.
  size_t steps() const { return undo_.size(); }
  // Those steps in order: replayed on start() they give game() again, with
  // the same undo (steps taken back are no longer among them).
  std::vector<GameStep> Steps() const;

  // A decision of the player to move; a refused one changes nothing.
  absl::Status Apply(const Action& action);
  // The six physical dice of the next roll (DiceSource::kManual).
  absl::Status Roll(const Dice& six);
  // Takes back the last decision or roll. With the engine's dice the same
  // dice come again, since the generator is part of the state taken back.
  absl::Status Undo();

  // For each cell of seat p's sheet: the seat whose PENK crossed it,
  // kCrossedByFailure, kCrossedBefore or kNotCrossed.
  std::array<int, kRows * kColumns> CrossedBy(int p) const;

 private:
  struct Snapshot {
    Game game;
    size_t turn_count;
    TurnRecord last;  // the last turn record as it was (it may be changed by the step)
    GameStep step;    // the step taken from this state
  };
  // Records the state before `step`, for Undo.
  void Push(const Game& before, const GameStep& step);
  void OpenTurn();
  void Record(const Game& before, const Action& action);

  Game game_;
  Game start_;
  std::vector<TurnRecord> turns_;
  std::vector<Snapshot> undo_;
};

}  // namespace penk

#endif  // PENK_ENGINE_GAME_RECORD_H_
