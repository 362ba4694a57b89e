// A whole game of PENK for 1-4 players (R2-R5), driven by a seeded random
// source: the same seed and the same decisions give the same game.
//
// Game is a plain value (fixed arrays, no heap), so AI players may copy it
// freely to look ahead.
#ifndef PENK_ENGINE_GAME_H_
#define PENK_ENGINE_GAME_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/action.h"
#include "engine/dice.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "engine/sheet.h"

namespace penk {

inline constexpr int kMaxPlayers = 4;

enum class Phase {
  kKeep,  // the player chooses dice to keep before a reroll (R2.2)
  kMark,  // after the last roll: a marking or a failure (R3)
  kOver,  // the game has ended (R5)
  kRoll,  // physical dice: waiting for the six dice now on the table (R2.1, R2.2)
};

// Who rolls: the engine's seeded generator, or the players at a real table
// whose dice are then given to Game::Roll before every roll.
enum class DiceSource { kEngine, kManual };

// A game set up part-way (a real game followed from the middle, an analysis
// position). Sheets are in seat order.
struct Position {
  std::vector<Sheet> sheets;
  int current = 0;                // seat to move
  std::vector<int> turns;         // turns each seat has played; empty: estimated
  std::optional<bool> last_round; // R5.2; empty: as the sheets say
  std::optional<Dice> dice;       // the dice of the turn so far; empty: the turn starts
  int rerolls_left = 2;           // with `dice`: 0 (mark now), 1 or 2
};

// What happened in the last completed turn, for display.
struct TurnReport {
  int player = -1;
  Dice final_dice;
  uint32_t circled = 0;  // cells circled, 0 for a failure or no action
  int failed_column = 0; // 1..5 for a failure (R3.5), else 0
  uint32_t penk_rows = 0;     // bit k-1: row k completed (R4.1)
  uint32_t penk_columns = 0;  // bit v-1: column v completed
  bool last_round_started = false;
};

class Game {
 public:
  static absl::StatusOr<Game> Create(int players, const Rules& rules, uint64_t seed,
                                     DiceSource source = DiceSource::kEngine);
  // A game from `position`, checked: each sheet reachable, the sheets
  // consistent with each other (engine/position_check.h), turns in seat order
  // (R5.2: every seat before `current` has played one turn more than the
  // others), and at least as many turns as a player needs to circle its cells.
  static absl::StatusOr<Game> FromPosition(const Position& position, const Rules& rules,
                                           uint64_t seed, DiceSource source = DiceSource::kEngine);

  int players() const { return players_; }
  const Rules& rules() const { return rules_; }
  const Sheet& sheet(int p) const { return sheets_[p]; }
  // The seat to move, 0..players-1; -1 once the game is over (nobody moves).
  int current() const;
  Phase phase() const { return phase_; }
  bool over() const { return phase_ == Phase::kOver; }
  const Dice& dice() const { return dice_; }
  DiceSource dice_source() const { return source_; }
  // Phase::kRoll: the dice kept, which the next six dice must contain.
  const Dice& kept() const { return kept_; }
  int rerolls_left() const { return rerolls_left_; }
  // R5.2: some player has two closed columns; this round is the last.
  bool last_round() const { return last_round_; }
  int turns(int p) const { return turns_[p]; }
  // The round being played, 1-based; once the game is over, the last round
  // played (every player has then taken the same number of turns, R5.2).
  int round() const { return turns_[players_ - 1] + (over() ? 0 : 1); }
  const TurnReport& last_turn() const { return last_turn_; }
  int Score(int p) const;

  // R2.2: keep `keep` (a sub-multiset of the dice) and reroll the rest.
  // Keeping all six dice stops rolling.
  absl::Status Keep(const Dice& keep);
  // Physical dice (DiceSource::kManual, Phase::kRoll): the six dice now on
  // the table; they must contain the dice kept (R2.2).
  absl::Status Roll(const Dice& six);
  // R3.2-R3.4: circle the cells of a legal marking.
  absl::Status Mark(uint32_t cells);
  // R3.5: cross the free cells of column `face` when no group is legal.
  absl::Status Fail(int face);
  // Applies a decision in R7 text: a keep (or "stop") in the keep phase, a
  // marking or "fail:v" in the mark phase.
  absl::Status Apply(absl::string_view text);
  absl::Status Apply(const Action& action);
  // Parses R7 text as a decision for the current phase, without applying it.
  absl::StatusOr<Action> ParseAction(absl::string_view text) const;
  // Every legal decision now: distinct keeps, or markings, or failures.
  std::vector<Action> LegalActions() const;

 private:
  Game() = default;
  void StartTurn();
  void EndTurn(uint32_t circled, int failed_column);
  void RollDice(const Dice& keep);

  int players_ = 1;
  Rules rules_;
  Rng rng_;
  DiceSource source_ = DiceSource::kEngine;
  Dice kept_;  // Phase::kRoll: the dice kept before this roll
  std::array<Sheet, kMaxPlayers> sheets_{};
  std::array<int, kMaxPlayers> turns_{};
  int current_ = 0;
  Phase phase_ = Phase::kKeep;
  Dice dice_;
  int rerolls_left_ = 0;
  bool last_round_ = false;
  TurnReport last_turn_;
};

// Does marking `cells` by a player on `before` complete lines (R4.1)?
// Returns completed rows (bits k-1) and columns (bits v-1) under `rules`.
void CompletedLines(const Sheet& before, uint32_t cells, const Rules& rules, uint32_t* rows,
                    uint32_t* columns);

// R6.4: the highest score of the game and how many seats have it (tied
// seats share the win). Every tally of wins (simulate, match, rollouts,
// calibrate, master) counts from this, with one meaning of a share: each of
// the k tied winners has 1/k of the win, so a game's shares sum to 1 (two
// players: a tie is Elo's half).
struct Winners {
  // Shares in whole numbers: twelfths are exact for 1 to 4 winners.
  static constexpr int kShareUnits = 12;

  int best_score = 0;
  int count = 0;
  bool Has(const Game& game, int seat) const { return game.Score(seat) == best_score; }
  // The seat's share of the win, in twelfths (12, 6, 4, 3 or 0).
  int ShareUnits(const Game& game, int seat) const {
    return Has(game, seat) ? kShareUnits / count : 0;
  }
  double Share(const Game& game, int seat) const { return ShareUnits(game, seat) / 12.0; }
};
Winners GameWinners(const Game& game);

}  // namespace penk

#endif  // PENK_ENGINE_GAME_H_
