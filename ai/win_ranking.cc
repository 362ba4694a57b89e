#include "ai/win_ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/position_check.h"
#include "ai/ai_players.h"
#include "ai/calibration_map.h"
#include "ai/neural_default.h"
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
// NaN (no expected score: expert without a net) ties with itself.
double ExpectedScore(const WinRankedAction& a) {
  return std::isnan(a.score) ? -std::numeric_limits<double>::infinity() : a.score;
}
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
    GroupBy(begin, end, ExpectedScore, [](It begin, It end) {
      GroupBy(begin, end, Value, [](It b, It e) {
        std::sort(b, e, [](const WinRankedAction& x, const WinRankedAction& y) {
          const int rx = DiceRerolled(x.action), ry = DiceRerolled(y.action);
          if (rx != ry) return rx < ry;
          return WinRuleKey(x.action) < WinRuleKey(y.action);
        });
      });
    });
  });
}

double ShownWin(double win) { return std::round(std::clamp(win, 0.0, 1.0) * 1e4) / 1e4; }
double ShownScore(double score) { return std::isnan(score) ? score : std::round(score * 100) / 100; }

std::vector<bool> OrderAsShown(std::vector<WinRankedAction>& actions) {
  for (WinRankedAction& a : actions) {
    a.win = ShownWin(a.win);
    a.score = ShownScore(a.score);
  }
  OrderByWinRule(actions);
  std::vector<bool> tied(actions.size(), false);
  for (size_t i = 1; i < actions.size(); ++i)
    tied[i] = actions[i].win == actions[i - 1].win &&
              (actions[i].score == actions[i - 1].score ||
               (std::isnan(actions[i].score) && std::isnan(actions[i - 1].score)));
  return tied;
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
                        std::vector<RankedAction>& ranked, WinFigures& figures,
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
  if (!tables) return absl::FailedPreconditionError("the win estimates need a table cache");
  // The net where it was trained (R6.5 line-min 3); elsewhere expert's
  // estimate, calibrated, and the reply says which (`estimate`).
  absl::StatusOr<std::shared_ptr<const NeuralNet>> net = NetFor(nullptr, q.rules);
  if (!net.ok() && q.rules.line_min == Rules{}.line_min) return net.status();  // a damaged build
  figures = WinFigures{};
  figures.exact = WinIsExact(q);
  figures.estimate = figures.exact ? "exact" : net.ok() ? "neural" : "expert";
  ExpertPlayer player(std::move(tables), net.ok() ? *ParseNeuralName("neural") : ExpertParams{},
                      net.ok() ? "neural" : "expert", net.ok() ? *net : nullptr);
  // The net's expected score through its measured map (ai/calibration_map.h).
  if (net.ok()) player.SetScoreMap(FittedNeuralScoreCalibration());
  std::vector<WinRankedAction> rule;
  try {
    for (const RankedAction& r : ranked) {
      WinRankedAction a{r.action, 0, r.value};
      switch (r.action.kind) {
        case Action::kKeep:
          a.win = player.KeepValue(view, roll, rerolls, r.action.keep);
          a.score = player.KeepScore(view, roll, rerolls, r.action.keep);
          break;
        case Action::kMark:
          a.win = player.MarkValue(view, r.action.cells);
          a.score = player.MarkScore(view, r.action.cells);
          break;
        case Action::kFail:
          a.win = player.FailValue(view, r.action.face);
          a.score = player.FailScore(view, r.action.face);
          break;
      }
      // Neither figure is a probability as it is (expert's is overconfident;
      // the net's, the best of several estimates, a little too): each is
      // shown through its measured map (ai/calibration_map.h), increasing
      // for a position, so the order holds. The exact figure is shown as it is.
      if (!figures.exact)
        a.win = CalibratedWin(a.win, view.players, view.turns,
                              net.ok() ? FittedNeuralCalibration() : FittedCalibration());
      rule.push_back(a);
    }
  } catch (const TableUnavailable& e) {
    return absl::UnavailableError(e.what());  // the table's problem, not the query's
  }
  // Ranked by the figures shown (ai/win_ranking.h): ties are visible ties.
  figures.tied = OrderAsShown(rule);
  ranked.clear();
  for (const WinRankedAction& r : rule) {
    ranked.push_back({r.action, r.value});
    figures.win.push_back(r.win);
    figures.score.push_back(r.score);
  }
  return absl::OkStatus();
}

}  // namespace penk
