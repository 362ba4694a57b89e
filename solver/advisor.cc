#include "solver/advisor.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/dice_space.h"
#include "engine/marking.h"

namespace penk {
namespace {

double MarkValue(const SolitaireTable& table, const ColumnCodes& codes, uint32_t cells) {
  return table.ValueOfCodes(CodesAfterMarking(codes, cells, table.blocked_rows()));
}

double FailValue(const SolitaireTable& table, const ColumnCodes& codes, int face) {
  return table.ValueOfCodes(CodesAfterFailure(codes, face));
}

absl::Status CheckLive(const SolitaireTable& table, const Sheet& sheet,
                       FinishedSheet finished = FinishedSheet::kRefuse) {
  absl::StatusOr<double> v = table.Value(sheet);  // validates the sheet and the table's depth
  if (!v.ok()) return v.status();
  if (sheet.ClosedColumns() >= 2 && finished == FinishedSheet::kRefuse)
    return absl::FailedPreconditionError(absl::StrCat(
        "sheet ", FormatSheet(sheet), " has two closed columns: the game is over (R5.2)"));
  return absl::OkStatus();
}

// The whole turn on a sheet CheckLive accepted.
TurnValues SolveCheckedTurn(const SolitaireTable& table, const Sheet& sheet) {
  const ColumnCodes codes = CodesInPlace(sheet);
  TurnValues turn;
  TableFinalRollValues(table, codes, sheet, turn.roll[0].data());
  SolveTurn(turn);
  return turn;
}

}  // namespace

absl::StatusOr<TurnValues> SolveSolitaireTurn(const SolitaireTable& table, const Sheet& sheet) {
  if (absl::Status s = CheckLive(table, sheet); !s.ok()) return s;
  return SolveCheckedTurn(table, sheet);
}

std::vector<RankedAction> RankActions(const TurnValues& turn, const SolitaireTable& table,
                                      const Sheet& sheet, const Dice& roll, int rerolls) {
  const DiceSpace& space = DiceSpace::Get();
  const int r = space.RollIndex(roll);
  std::vector<RankedAction> out;
  if (rerolls > 0) {
    for (int16_t k : space.SubKeeps(r))
      out.push_back({Action::Keep(space.keep(k)), turn.KeepValue(rerolls, r, k)});
    // Larger keeps first, lower faces first within a size, so that among equal
    // values the stable sort below puts stopping, then the fewest dice
    // rerolled, first: TurnValues::BestKeep's order.
    std::stable_sort(out.begin(), out.end(), [](const RankedAction& a, const RankedAction& b) {
      return a.action.keep.size() > b.action.keep.size();
    });
  } else {
    const ColumnCodes codes = CodesInPlace(sheet);
    for (uint32_t cells : LegalMarkings(sheet, roll))
      out.push_back({Action::Mark(cells), MarkValue(table, codes, cells)});
    if (out.empty())
      for (int v : FailureColumns(sheet)) out.push_back({Action::Fail(v), FailValue(table, codes, v)});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const RankedAction& a, const RankedAction& b) { return a.value > b.value; });
  return out;
}

absl::StatusOr<std::vector<RankedAction>> RankActions(const SolitaireTable& table,
                                                      const Sheet& sheet, const Dice& roll,
                                                      int rerolls, FinishedSheet finished) {
  if (rerolls < 0 || rerolls > kRerolls)
    return absl::InvalidArgumentError(
        absl::StrCat("rerolls left must be 0, 1 or 2 (R2.2); got ", rerolls));
  if (roll.size() != kDice)
    return absl::InvalidArgumentError(absl::StrCat("roll must be 6 dice; got ", FormatDice(roll)));
  if (absl::Status s = CheckLive(table, sheet, finished); !s.ok()) return s;
  if (rerolls == 0) {
    TurnValues unused;
    return RankActions(unused, table, sheet, roll, 0);
  }
  return RankActions(SolveCheckedTurn(table, sheet), table, sheet, roll, rerolls);
}

}  // namespace penk
