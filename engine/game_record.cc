#include "engine/game_record.h"

namespace penk {

GameRecord::GameRecord(const Game& start) : game_(start), start_(start) { OpenTurn(); }

void GameRecord::OpenTurn() {
  if (game_.over()) return;
  TurnRecord t;
  t.player = game_.current();
  if (game_.phase() != Phase::kRoll) t.rolls.push_back(game_.dice());
  turns_.push_back(t);
}

void GameRecord::Push(const Game& before, const GameStep& step) {
  undo_.push_back(
      Snapshot{before, turns_.size(), turns_.empty() ? TurnRecord{} : turns_.back(), step});
}

std::vector<GameStep> GameRecord::Steps() const {
  std::vector<GameStep> steps;
  steps.reserve(undo_.size());
  for (const Snapshot& s : undo_) steps.push_back(s.step);
  return steps;
}

absl::Status GameRecord::Apply(const Action& action) {
  const Game before = game_;
  // Game::Apply checks legality before changing anything: refused, nothing to record.
  if (absl::Status s = game_.Apply(action); !s.ok()) return s;
  Push(before, GameStep{GameStep::kDecision, action, Dice{}});
  Record(before, action);
  return absl::OkStatus();
}

absl::Status GameRecord::Roll(const Dice& six) {
  const Game before = game_;
  if (absl::Status s = game_.Roll(six); !s.ok()) return s;
  Push(before, GameStep{GameStep::kRoll, Action{}, six});
  if (!turns_.empty()) turns_.back().rolls.push_back(six);
  return absl::OkStatus();
}

absl::Status GameRecord::Undo() {
  if (undo_.empty())
    return absl::FailedPreconditionError("nothing to undo: this is the start of the game");
  Snapshot s = std::move(undo_.back());
  undo_.pop_back();
  game_ = s.game;
  turns_.resize(s.turn_count);
  if (!turns_.empty()) turns_.back() = std::move(s.last);
  return absl::OkStatus();
}

void GameRecord::Record(const Game& before, const Action& action) {
  TurnRecord& t = turns_.back();
  const int mover = before.current();
  if (action.kind == Action::kKeep) {
    if (action.keep.size() == kDice) {
      t.stopped = true;
    } else {
      t.keeps.push_back(action.keep);
      if (game_.phase() != Phase::kRoll) t.rolls.push_back(game_.dice());
    }
    return;
  }
  // The marking or failure ends the turn (R3); the game may have moved on.
  const TurnReport& r = game_.last_turn();
  t.done = true;
  t.circled = r.circled;
  t.failed_column = r.failed_column;
  t.penk_rows = r.penk_rows;
  t.penk_columns = r.penk_columns;
  t.last_round_started = r.last_round_started;
  for (int p = 0; p < game_.players(); ++p) {
    const uint32_t crossed = game_.sheet(p).crossed & ~before.sheet(p).crossed;
    if (p == mover) t.crossed_by_failure = crossed;
    else t.crossed_by_penk[p] = crossed;
  }
  // Seats with no free cell pass their turns (R3.6) in seat order.
  for (int i = 1; i < game_.players() + 1; ++i) {
    const int q = (mover + i) % game_.players();
    const int extra = game_.turns(q) - before.turns(q) - (q == mover ? 1 : 0);
    for (int k = 0; k < extra; ++k) {
      TurnRecord pass;
      pass.player = q;
      pass.passed = pass.done = true;
      turns_.push_back(pass);
    }
  }
  OpenTurn();
}

std::array<int, kRows * kColumns> GameRecord::CrossedBy(int p) const {
  std::array<int, kRows * kColumns> by;
  by.fill(kNotCrossed);
  for (int c = 0; c < kRows * kColumns; ++c)
    if (start_.sheet(p).crossed >> c & 1) by[c] = kCrossedBefore;
  for (const TurnRecord& t : turns_) {
    for (int c = 0; c < kRows * kColumns; ++c) {
      if (t.player == p && (t.crossed_by_failure >> c & 1)) by[c] = kCrossedByFailure;
      if (t.player != p && (t.crossed_by_penk[p] >> c & 1)) by[c] = t.player;
    }
  }
  return by;
}

}  // namespace penk
