#include "engine/game.h"

#include <bit>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
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

absl::StatusOr<Game> Game::Create(int players, const Rules& rules, uint64_t seed) {
  if (players < 1 || players > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("a game has 1 to 4 players (R1.4); got ", players));
  Game g;
  g.players_ = players;
  g.rules_ = rules;
  g.rng_ = Rng(seed);
  g.StartTurn();
  return g;
}

int Game::current() const { return phase_ == Phase::kOver ? -1 : current_; }

int Game::Score(int p) const { return penk::Score(sheets_[p], rules_); }

void Game::RollDice(const Dice& keep) {
  dice_ = keep;
  for (int i = keep.size(); i < kDice; ++i) ++dice_.count[rng_.Die()];
}

void Game::StartTurn() {
  if (sheets_[current_].free() == 0) {  // R3.6: nothing to do this turn
    dice_ = Dice{};
    EndTurn(0, 0);
    return;
  }
  RollDice(Dice{});  // R2.1
  rerolls_left_ = 2;
  phase_ = Phase::kKeep;
}

absl::Status Game::Keep(const Dice& keep) {
  if (phase_ != Phase::kKeep)
    return absl::FailedPreconditionError("no reroll now: the dice are final, choose a marking");
  if (!dice_.Contains(keep))
    return absl::InvalidArgumentError(absl::StrCat("keep ", FormatDice(keep),
                                                   " is not part of the roll ", FormatDice(dice_)));
  if (keep.size() == kDice) {  // R2.2: keeping all six is stopping
    phase_ = Phase::kMark;
    return absl::OkStatus();
  }
  RollDice(keep);
  if (--rerolls_left_ == 0) phase_ = Phase::kMark;
  return absl::OkStatus();
}

absl::Status Game::Mark(uint32_t cells) {
  if (phase_ != Phase::kMark)
    return absl::FailedPreconditionError(phase_ == Phase::kOver
                                             ? "the game is over"
                                             : "not time to mark: keep dice or stop first");
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
    return absl::FailedPreconditionError(phase_ == Phase::kOver
                                             ? "the game is over"
                                             : "not time to mark: keep dice or stop first");
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

}  // namespace penk
