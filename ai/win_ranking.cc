#include "ai/win_ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/position_check.h"
#include "ai/ai_players.h"
#include "ai/calibration_map.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"

namespace penk {
namespace {

// Sorts [begin, end) by `better` (a strict order on one criterion) with the
// fixed action order after it, then calls `inner` on each tie group.
template <class Criterion, class Inner>
void GroupBy(std::vector<WinRankedAction>::iterator begin,
             std::vector<WinRankedAction>::iterator end, Criterion criterion, Inner inner) {
  std::sort(begin, end, [&](const WinRankedAction& a, const WinRankedAction& b) {
    const double x = criterion(a), y = criterion(b);
    if (x != y) return x > y;
    return WinRuleKey(a.action) < WinRuleKey(b.action);
  });
  for (auto group = begin; group != end;) {
    auto next = group + 1;
    while (next != end && RankingTie(criterion(*group), criterion(*next))) ++next;
    inner(group, next);
    group = next;
  }
}

double Win(const WinRankedAction& a) { return a.win; }
// NaN (no solitaire value known) ranks last.
double Value(const WinRankedAction& a) {
  return std::isnan(a.value) ? -std::numeric_limits<double>::infinity() : a.value;
}

}  // namespace

bool RankingTie(double a, double b) {
  if (a == b) return true;  // also two equal infinities
  if (!std::isfinite(a) || !std::isfinite(b)) return false;  // NaN values rank as -infinity
  return std::fabs(a - b) <= kRankingTolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
}

int DiceRerolled(const Action& action) {
  return action.kind == Action::kKeep ? kDice - action.keep.size() : 0;
}

uint64_t WinRuleKey(const Action& action) {
  uint64_t key = 0;  // below bit 40: the kept dice, the cells or the face
  switch (action.kind) {
    case Action::kKeep:
      for (int f = kFaces - 1; f >= 0; --f) key = key * 8 + action.keep.count[f];
      break;
    case Action::kMark: key = action.cells; break;
    case Action::kFail: key = static_cast<uint64_t>(action.face); break;
  }
  return static_cast<uint64_t>(action.kind) << 40 | key;
}

void OrderByWinRule(std::vector<WinRankedAction>& actions) {
  using It = std::vector<WinRankedAction>::iterator;
  GroupBy(actions.begin(), actions.end(), Win, [](It begin, It end) {
    GroupBy(begin, end, Value, [](It b, It e) {
      std::sort(b, e, [](const WinRankedAction& x, const WinRankedAction& y) {
        const int rx = DiceRerolled(x.action), ry = DiceRerolled(y.action);
        if (rx != ry) return rx < ry;
        return WinRuleKey(x.action) < WinRuleKey(y.action);
      });
    });
  });
}

size_t SortByWin(std::vector<WinRankedAction>& actions) {
  size_t best = 0;
  bool first = true;
  GroupBy(actions.begin(), actions.end(), Win,
          [&](std::vector<WinRankedAction>::iterator b, std::vector<WinRankedAction>::iterator e) {
            if (first) best = static_cast<size_t>(e - b);
            first = false;
          });
  return best;
}

bool WinIsExact(const WinQuery& q) {
  bool over = q.sheet.ClosedColumns() >= 2;
  for (const Sheet& o : q.opponents) over = over || o.ClosedColumns() >= 2;
  return WinIsExact(static_cast<int>(q.opponents.size()) + 1, q.last_round || over);
}

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
  std::vector<Sheet> sheets = {q.sheet};
  std::vector<std::string> names = {"the player to move"};
  for (size_t i = 0; i < q.opponents.size(); ++i) {
    sheets.push_back(q.opponents[i]);
    names.push_back(absl::StrCat("opponent ", i + 1));
  }
  // Sheets a game can reach together (R3.5, R4.1, R4.2).
  if (absl::Status s = CheckSheetsReachable(sheets, q.rules, names); !s.ok()) return s;
  view.me = q.seat - 1;
  view.rules = q.rules;
  view.sheets[view.me] = q.sheet;
  bool over = q.sheet.ClosedColumns() >= 2;
  for (size_t i = 0; i < q.opponents.size(); ++i) {
    view.sheets[(view.me + 1 + static_cast<int>(i)) % view.players] = q.opponents[i];
    over = over || q.opponents[i].ClosedColumns() >= 2;
  }
  view.last_round = q.last_round || over;  // R5.2: two closed columns start it
  // About 2.7 cells are filled per turn in two-player games of expert and greedy.
  view.turns = q.turns >= 0 ? q.turns
                            : static_cast<int>(std::lround((25 - q.sheet.FreeCount()) / 2.7));
  if (!tables) return absl::FailedPreconditionError("expert's estimates need a table cache");
  ExpertPlayer expert(std::move(tables));
  std::vector<WinRankedAction> rule;
  try {
    for (const RankedAction& r : ranked) {
      double w = 0;
      switch (r.action.kind) {
        case Action::kKeep: w = expert.KeepValue(view, roll, rerolls, r.action.keep); break;
        case Action::kMark: w = expert.MarkValue(view, r.action.cells); break;
        case Action::kFail: w = expert.FailValue(view, r.action.face); break;
      }
      rule.push_back({r.action, w, r.value});
    }
  } catch (const TableUnavailable& e) {
    return absl::UnavailableError(e.what());  // the table's problem, not the query's
  }
  OrderByWinRule(rule);
  ranked.clear();
  win.clear();
  // In the last round of a two-player game the raw figure is the exact
  // probability of winning (the mover's final turn against the opponent's
  // best last turn, or against its final score; R6.4 ties 1/2), give or take
  // tie-breakers below 1e-6: shown as it is. Elsewhere it is an estimate,
  // shown calibrated (ai/calibration_map.h): the map is increasing for a
  // given position, so the order is the same.
  const bool exact = WinIsExact(q);
  for (const WinRankedAction& r : rule) {
    ranked.push_back({r.action, r.value});
    win.push_back(exact ? std::clamp(r.win, 0.0, 1.0) : CalibratedWin(r.win, view.players, view.turns));
  }
  return absl::OkStatus();
}

}  // namespace penk
