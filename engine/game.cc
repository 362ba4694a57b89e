#include "engine/game.h"

#include <algorithm>
#include <bit>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/position_check.h"
#include "engine/quoted_input.h"
#include "engine/score.h"

namespace penk {

void CompletedLines(const Sheet& before, uint32_t cells, const Rules& rules, uint32_t* rows,
                    uint32_t* columns) {
  *rows = *columns = 0;
  const uint32_t after = before.circled | cells;
  for (int i = 1; i <= 5; ++i) {
    // R4.1: this marking circled the last cell of the line.
    if (rules.penk_rows && (cells & RowMask(i)) && (after & RowMask(i)) == RowMask(i))
      *rows |= 1u << (i - 1);
    if ((cells & ColumnMask(i)) && (after & ColumnMask(i)) == ColumnMask(i))
      *columns |= 1u << (i - 1);
  }
}

absl::StatusOr<Game> Game::Create(int players, const Rules& rules, uint64_t seed,
                                  DiceSource source) {
  if (players < 1 || players > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("a game has 1 to 4 players (R1.4); got ", players));
  Game g;
  g.players_ = players;
  g.rules_ = rules;
  g.rng_ = Rng(seed);
  g.source_ = source;
  g.StartTurn();
  return g;
}

absl::StatusOr<Game> Game::FromPosition(const Position& pos, const Rules& rules, uint64_t seed,
                                        DiceSource source) {
  const int n = static_cast<int>(pos.sheets.size());
  if (n < 1 || n > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("a position has 1 to 4 sheets (R1.4); got ", n));
  std::vector<std::string> names;
  for (int p = 0; p < n; ++p) names.push_back(absl::StrCat("the sheet of seat ", p));
  if (absl::Status s = CheckSheetsReachable(pos.sheets, rules, names); !s.ok()) return s;
  if (pos.current < 0 || pos.current >= n)
    return absl::InvalidArgumentError(
        absl::StrCat("current must be a seat 0..", n - 1, "; got ", pos.current));
  Game g;
  g.players_ = n;
  g.rules_ = rules;
  g.rng_ = Rng(seed);
  g.source_ = source;
  g.current_ = pos.current;
  bool ends = false;  // R5.2
  for (int p = 0; p < n; ++p) {
    g.sheets_[p] = pos.sheets[p];
    ends = ends || pos.sheets[p].ClosedColumns() >= 2;
  }
  // A turn circles at most three cells (R3.3) and, while the sheet has a
  // free cell, circles or crosses at least one (R3.4, R3.5).
  auto fewest = [&](int p) { return (std::popcount(pos.sheets[p].circled) + 2) / 3; };
  auto most = [&](int p) {
    const Sheet& s = pos.sheets[p];
    return s.free() == 0 ? INT32_MAX : std::popcount(s.circled | s.crossed);
  };
  if (pos.turns.empty()) {  // the fewest turns that fit the sheets and the seat order
    int round = 0;
    for (int p = 0; p < n; ++p) round = std::max(round, fewest(p) - (p < pos.current ? 1 : 0));
    for (int p = 0; p < n; ++p) g.turns_[p] = round + (p < pos.current ? 1 : 0);
  } else {
    if (static_cast<int>(pos.turns.size()) != n)
      return absl::InvalidArgumentError(absl::StrCat("turns has ", pos.turns.size(),
                                                     " entries for ", n, " sheets"));
    for (int p = 0; p < n; ++p) {
      const int t = pos.turns[p];
      if (t < 0 || t > 1000)
        return absl::InvalidArgumentError(absl::StrCat("turns of seat ", p, " must be 0..1000; got ", t));
      // Seats play in order: those before `current` have played this round.
      if (t - (p < pos.current ? 1 : 0) != pos.turns[0] - (0 < pos.current ? 1 : 0))
        return absl::InvalidArgumentError(absl::StrCat(
            "turns do not follow the seat order: with seat ", pos.current,
            " to move, the seats before it have played one turn more than the others (R5.2)"));
      if (t < fewest(p) || t > most(p))
        return absl::InvalidArgumentError(absl::StrCat(
            "seat ", p, " cannot have played ", t, " turns with sheet ", FormatSheet(pos.sheets[p]),
            ": a turn circles 1 to 3 cells or crosses a column (R3)"));
      g.turns_[p] = t;
    }
  }
  if (pos.last_round && *pos.last_round != ends)
    return absl::InvalidArgumentError(
        ends ? "last_round must be true: a sheet has two closed columns (R5.2)"
             : "last_round must be false: no sheet has two closed columns (R5.2)");
  g.last_round_ = ends;
  if (ends && pos.current == 0)
    return absl::InvalidArgumentError(
        "this position is the end of the game: a sheet has two closed columns and the round "
        "is complete (R5.2)");
  if (pos.dice) {
    if (pos.dice->size() != kDice)
      return absl::InvalidArgumentError(
          absl::StrCat("dice must be six dice (R2.1); got ", pos.dice->size()));
    if (pos.rerolls_left < 0 || pos.rerolls_left > 2)
      return absl::InvalidArgumentError(
          absl::StrCat("rerolls_left must be 0, 1 or 2 (R2.2); got ", pos.rerolls_left));
    if (g.sheets_[pos.current].free() == 0)
      return absl::InvalidArgumentError(
          "the player to move has no free cell: they do nothing, so they have no dice (R3.6)");
    g.dice_ = *pos.dice;
    g.rerolls_left_ = pos.rerolls_left;
    g.phase_ = pos.rerolls_left > 0 ? Phase::kKeep : Phase::kMark;
  } else {
    if (pos.rerolls_left != 2)
      return absl::InvalidArgumentError("rerolls_left is given only with dice");
    g.StartTurn();
  }
  return g;
}
int Game::current() const { return phase_ == Phase::kOver ? -1 : current_; }

int Game::Score(int p) const { return penk::Score(sheets_[p], rules_); }

namespace {
const char* NotMarkingReason(Phase phase) {
  switch (phase) {
    case Phase::kOver: return "the game is over";
    case Phase::kRoll: return "the dice are not rolled yet: give the six dice first";
    default: return "not time to mark: keep dice or stop first";
  }
}
}  // namespace

void Game::RollDice(const Dice& keep) {
  if (source_ == DiceSource::kManual) {  // the players roll; Roll() gives the dice
    kept_ = keep;
    dice_ = keep;
    phase_ = Phase::kRoll;
    return;
  }
  dice_ = keep;
  for (int i = keep.size(); i < kDice; ++i) ++dice_.count[rng_.Die()];
  phase_ = rerolls_left_ > 0 ? Phase::kKeep : Phase::kMark;
}

absl::Status Game::Roll(const Dice& six) {
  if (phase_ != Phase::kRoll)
    return absl::FailedPreconditionError(
        source_ == DiceSource::kEngine ? "the engine rolls the dice in this game"
                                       : "no roll now: the dice on the table are to be kept or marked");
  if (six.size() != kDice)
    return absl::InvalidArgumentError(
        absl::StrCat("a roll is six dice (R2.1); got ", six.size()));
  if (!six.Contains(kept_))
    return absl::InvalidArgumentError(absl::StrCat("the roll ", FormatDice(six),
                                                   " does not contain the kept dice ",
                                                   FormatDice(kept_), " (R2.2)"));
  dice_ = six;
  kept_ = Dice{};
  phase_ = rerolls_left_ > 0 ? Phase::kKeep : Phase::kMark;
  return absl::OkStatus();
}

void Game::StartTurn() {
  if (sheets_[current_].free() == 0) {  // R3.6: nothing to do this turn
    dice_ = Dice{};
    EndTurn(0, 0);
    return;
  }
  rerolls_left_ = 2;
  RollDice(Dice{});  // R2.1
}

absl::Status Game::Keep(const Dice& keep) {
  if (phase_ == Phase::kRoll)
    return absl::FailedPreconditionError("the dice are not rolled yet: give the six dice first");
  if (phase_ != Phase::kKeep)
    return absl::FailedPreconditionError("no reroll now: the dice are final, choose a marking");
  if (!dice_.Contains(keep))
    return absl::InvalidArgumentError(absl::StrCat("keep ", FormatDice(keep),
                                                   " is not part of the roll ", FormatDice(dice_)));
  if (keep.size() == kDice) {  // R2.2: keeping all six is stopping
    phase_ = Phase::kMark;
    return absl::OkStatus();
  }
  --rerolls_left_;
  RollDice(keep);
  return absl::OkStatus();
}

absl::Status Game::Mark(uint32_t cells) {
  if (phase_ != Phase::kMark)
    return absl::FailedPreconditionError(NotMarkingReason(phase_));
  for (uint32_t legal : LegalMarkings(sheets_[current_], dice_))
    if (legal == cells) {
      EndTurn(cells, 0);
      return absl::OkStatus();
    }
  return absl::InvalidArgumentError(absl::StrCat("marking ", FormatMarking(cells),
                                                 " is not legal with ", FormatDice(dice_),
                                                 " on this sheet"));
}

absl::Status Game::Fail(int face) {
  if (phase_ != Phase::kMark)
    return absl::FailedPreconditionError(NotMarkingReason(phase_));
  const Sheet& s = sheets_[current_];
  if (!LegalMarkings(s, dice_).empty())
    return absl::InvalidArgumentError(absl::StrCat(
        "a failure is allowed only when no group is legal (R3.4, R3.5); ", FormatDice(dice_),
        " can circle a cell"));
  if (face < 1 || face > kColumns || s.ColumnClosed(face))
    return absl::InvalidArgumentError(
        absl::StrCat("fail:", face, " must name a column 1-5 that still has a free cell (R3.5)"));
  EndTurn(0, face);
  return absl::OkStatus();
}

absl::StatusOr<Action> Game::ParseAction(absl::string_view text) const {
  text = absl::StripAsciiWhitespace(text);
  if (phase_ == Phase::kOver) return absl::FailedPreconditionError("the game is over");
  if (phase_ == Phase::kRoll)
    return absl::FailedPreconditionError("the dice are not rolled yet: give the six dice first");
  if (text.empty())
    return absl::InvalidArgumentError(
        "an action is not empty: a keep (\"-\" keeps nothing), \"stop\", a marking or fail:v");
  if (phase_ == Phase::kKeep) {
    if (absl::AsciiStrToLower(text) == "stop") return Action::Keep(dice_);
    absl::StatusOr<Dice> keep = ParseKeep(text, dice_);
    if (!keep.ok()) return keep.status();
    return Action::Keep(*keep);
  }
  std::string lower;  // R7.1: spaces are ignored ("fail : 3" is "fail:3")
  for (char c : absl::AsciiStrToLower(text))
    if (!absl::ascii_isspace(static_cast<unsigned char>(c))) lower += c;
  absl::string_view rest = lower;
  if (absl::ConsumePrefix(&rest, "fail:")) {
    int face;
    if (!absl::SimpleAtoi(rest, &face) || face < 1 || face > kColumns)
      return absl::InvalidArgumentError(
          absl::StrCat("failure must be fail:v with v a column 1-5; got ", QuotedInput(text)));
    return Action::Fail(face);
  }
  absl::StatusOr<uint32_t> cells = ParseMarking(text, sheets_[current_], dice_);
  if (!cells.ok()) return cells.status();
  return Action::Mark(*cells);
}

absl::Status Game::Apply(absl::string_view text) {
  absl::StatusOr<Action> action = ParseAction(text);
  if (!action.ok()) return action.status();
  return Apply(*action);
}

absl::Status Game::Apply(const Action& action) {
  switch (action.kind) {
    case Action::kKeep: return Keep(action.keep);
    case Action::kMark: return Mark(action.cells);
    case Action::kFail: return Fail(action.face);
  }
  return absl::InvalidArgumentError("unknown action");
}

std::vector<Action> Game::LegalActions() const {
  std::vector<Action> out;
  if (phase_ == Phase::kKeep) {
    const DiceSpace& space = DiceSpace::Get();
    for (int16_t k : space.SubKeeps(space.RollIndex(dice_))) out.push_back(Action::Keep(space.keep(k)));
  } else if (phase_ == Phase::kMark) {
    for (uint32_t cells : LegalMarkings(sheets_[current_], dice_)) out.push_back(Action::Mark(cells));
    if (out.empty())
      for (int v : FailureColumns(sheets_[current_])) out.push_back(Action::Fail(v));
  }
  return out;
}

void Game::EndTurn(uint32_t circled, int failed_column) {
  TurnReport report;
  report.player = current_;
  report.final_dice = dice_;
  report.circled = circled;
  report.failed_column = failed_column;
  Sheet& mine = sheets_[current_];
  CompletedLines(mine, circled, rules_, &report.penk_rows, &report.penk_columns);
  mine.circled |= circled;                                          // R3.2
  if (failed_column) mine.crossed |= mine.free() & ColumnMask(failed_column);  // R3.5
  // R4.2: every other player crosses the free cells of each completed line.
  uint32_t blocked = 0;
  for (int k = 1; k <= kRows; ++k)
    if (report.penk_rows >> (k - 1) & 1) blocked |= RowMask(k);
  for (int v = 1; v <= kColumns; ++v)
    if (report.penk_columns >> (v - 1) & 1) blocked |= ColumnMask(v);
  for (int p = 0; p < players_; ++p)
    if (p != current_) sheets_[p].crossed |= sheets_[p].free() & blocked;
  ++turns_[current_];
  // R5.2: two closed columns on any sheet make this round the last.
  if (!last_round_) {
    for (int p = 0; p < players_; ++p)
      if (sheets_[p].ClosedColumns() >= 2) last_round_ = true;
    report.last_round_started = last_round_;
  }
  last_turn_ = report;
  if (last_round_ && current_ == players_ - 1) {
    phase_ = Phase::kOver;
    return;
  }
  current_ = (current_ + 1) % players_;
  StartTurn();
}

Winners GameWinners(const Game& game) {
  Winners w;
  w.best_score = -1;
  for (int s = 0; s < game.players(); ++s) w.best_score = std::max(w.best_score, game.Score(s));
  for (int s = 0; s < game.players(); ++s) w.count += game.Score(s) == w.best_score;
  return w;
}

}  // namespace penk
