#include "solver/win_ranking.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "solver/ai_players.h"
#include "solver/solitaire_state.h"

namespace penk {

absl::Status RankForWin(const WinQuery& q, const Dice& roll, int rerolls,
                        std::vector<RankedAction>& ranked, std::vector<double>& win,
                        std::shared_ptr<TableCache> tables) {
  ExpertView view;
  view.players = 1 + static_cast<int>(q.opponents.size());
  if (view.players > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxPlayers - 1, " opponents (R1.4); got ", q.opponents.size()));
  if (q.seat < 1 || q.seat > view.players)
    return absl::InvalidArgumentError(
        absl::StrCat("seat must be 1..", view.players, "; got ", q.seat));
  view.me = q.seat - 1;
  view.rules = q.rules;
  view.sheets[view.me] = q.sheet;
  bool over = q.sheet.ClosedColumns() >= 2;
  for (size_t i = 0; i < q.opponents.size(); ++i) {
    // A sheet a game can reach (R3.5, R4.2).
    if (absl::Status s = PositionOfSheet(q.opponents[i]).status(); !s.ok()) return s;
    view.sheets[(view.me + 1 + static_cast<int>(i)) % view.players] = q.opponents[i];
    over = over || q.opponents[i].ClosedColumns() >= 2;
  }
  view.last_round = q.last_round || over;  // R5.2: two closed columns start it
  // About 2.7 cells are filled per turn in two-player games of expert and greedy.
  view.turns = q.turns >= 0 ? q.turns
                            : static_cast<int>(std::lround((25 - q.sheet.FreeCount()) / 2.7));
  if (!tables) return absl::FailedPreconditionError("expert's estimates need a table cache");
  ExpertPlayer expert(std::move(tables));
  std::vector<double> estimate;
  try {
    for (const RankedAction& r : ranked) {
      double w = 0;
      switch (r.action.kind) {
        case Action::kKeep: w = expert.KeepValue(view, roll, rerolls, r.action.keep); break;
        case Action::kMark: w = expert.MarkValue(view, r.action.cells); break;
        case Action::kFail: w = expert.FailValue(view, r.action.face); break;
      }
      estimate.push_back(std::clamp(w, 0.0, 1.0));  // tie-breakers can leave [0, 1] by 1e-7
    }
  } catch (const TableUnavailable& e) {
    return absl::UnavailableError(e.what());  // the table's problem, not the query's
  }
  std::vector<size_t> order(ranked.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return estimate[x] > estimate[y]; });
  std::vector<RankedAction> reordered;
  win.clear();
  for (size_t i : order) reordered.push_back(ranked[i]), win.push_back(estimate[i]);
  ranked = std::move(reordered);
  return absl::OkStatus();
}

}  // namespace penk
