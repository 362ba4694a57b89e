#include "protocol/replies.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/score.h"
#include "protocol/inputs.h"
#include "protocol/request.h"

namespace penk::protocol {

using json = nlohmann::ordered_json;

double RoundValue(double v) {
  // The nearest double to the 6-decimal text (%.6f), so that the JSON has
  // the short form ("172.311554", not "172.31155412345").
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", v);
  return std::strtod(text, nullptr);
}

namespace {

json CellList(uint32_t cells) {
  json out = json::array();
  for (int c = 0; c < kRows * kColumns; ++c)
    if (cells >> c & 1) out.push_back(absl::StrCat(CellFace(c), ":", CellSize(c)));
  return out;
}

json LineList(uint32_t bits) {
  json out = json::array();
  for (int i = 1; i <= 5; ++i)
    if (bits >> (i - 1) & 1) out.push_back(i);
  return out;
}

// The sheet's crossed cells by cause, shaped like the sheet (R7.3): `.` not
// crossed, `f` by the owner's failure (R3.5), `0`-`3` by that seat's PENK
// (R4.2), `?` crossed before the game was followed (a set-up position).
std::string CrossingsText(const GameRecord& record, int p) {
  const std::array<int, kRows * kColumns> by = record.CrossedBy(p);
  std::string out;
  for (int k = 1; k <= kRows; ++k) {
    if (k > 1) out += '/';
    for (int v = 1; v <= kColumns; ++v) {
      const int who = by[CellIndex(v, k)];
      out += who == kNotCrossed        ? '.'
             : who == kCrossedByFailure ? 'f'
             : who == kCrossedBefore    ? '?'
                                        : static_cast<char>('0' + who);
    }
  }
  return out;
}

json TurnJson(const TurnRecord& t, int players) {
  json turn = {{"player", t.player}};
  if (t.passed) {
    turn["passed"] = true;  // R3.6
    return turn;
  }
  json rolls = json::array(), keeps = json::array();
  for (const Dice& d : t.rolls) rolls.push_back(FormatDice(d));
  for (const Dice& d : t.keeps) keeps.push_back(FormatDice(d));
  turn["rolls"] = rolls;
  turn["keeps"] = keeps;
  turn["stopped"] = t.stopped;
  if (!t.done) return turn;  // the turn in progress
  if (t.circled) turn["marking"] = FormatMarking(t.circled);
  if (t.failed_column) {
    turn["failure"] = t.failed_column;
    turn["crossed_by_failure"] = CellList(t.crossed_by_failure);
  }
  turn["penk_rows"] = LineList(t.penk_rows);
  turn["penk_columns"] = LineList(t.penk_columns);
  json crossed = json::array();
  for (int p = 0; p < players; ++p)
    if (t.crossed_by_penk[p]) crossed.push_back({{"player", p}, {"cells", CellList(t.crossed_by_penk[p])}});
  turn["crossed_by_penk"] = crossed;
  turn["last_round_started"] = t.last_round_started;
  return turn;
}

const char* PhaseName(Phase p) {
  switch (p) {
    case Phase::kRoll: return "roll";
    case Phase::kKeep: return "keep";
    case Phase::kMark: return "mark";
    case Phase::kOver: return "over";
  }
  return "?";
}

}  // namespace

json Session::StateJson(const GameSession& g) {
  const Game& game = g.game();
  json players = json::array();
  int best = -1;
  for (int p = 0; p < game.players(); ++p) {
    const Sheet& s = game.sheet(p);
    const ScoreBreakdown score = ScoreSheet(s, game.rules());
    json closed = json::array();
    for (int v = 1; v <= kColumns; ++v)
      if (s.ColumnClosed(v)) closed.push_back(v);
    players.push_back({{"seat", g.seats[p]},
                       {"sheet", FormatSheet(s)},
                       {"crossings", CrossingsText(g.record, p)},
                       {"score", score.total},
                       {"row_scores", score.row},
                       {"column_scores", score.column},
                       {"turns", game.turns(p)},
                       {"closed_columns", closed}});
    best = std::max(best, score.total);
  }
  const bool rolling = game.phase() == Phase::kKeep || game.phase() == Phase::kMark;
  json state = {{"rules", FormatRules(game.rules())},
                {"seed", SeedJson(g.seed)},  // a string from 2^53 on (JavaScript)
                {"dice_source", game.dice_source() == DiceSource::kManual ? "manual" : "engine"},
                {"players", players},
                {"current", game.over() ? json(nullptr) : json(game.current())},
                {"phase", PhaseName(game.phase())},
                {"dice", rolling ? FormatDice(game.dice()) : ""},
                {"rerolls_left", game.phase() == Phase::kMark || game.over() ? 0 : game.rerolls_left()},
                {"last_round", game.last_round()},
                {"round", game.round()}};
  if (game.phase() == Phase::kRoll) state["kept"] = FormatDice(game.kept());
  json legal = json::array();
  for (const Action& a : game.LegalActions()) legal.push_back(FormatAction(a));
  state["legal_actions"] = legal;
  state["undo_steps"] = g.record.steps();
  const TurnReport& t = game.last_turn();
  if (t.player >= 0) {
    json last = {{"player", t.player}, {"dice", FormatDice(t.final_dice)}};
    if (t.circled) last["marking"] = FormatMarking(t.circled);
    if (t.failed_column) last["failed_column"] = t.failed_column;
    last["penk_rows"] = LineList(t.penk_rows);
    last["penk_columns"] = LineList(t.penk_columns);
    last["last_round_started"] = t.last_round_started;
    state["last_turn"] = last;
  }
  json history = json::array();
  for (const TurnRecord& tr : g.record.turns()) history.push_back(TurnJson(tr, game.players()));
  state["history"] = history;
  if (game.over()) {
    json winners = json::array();
    for (int p = 0; p < game.players(); ++p)
      if (game.Score(p) == best) winners.push_back(p);
    state["winners"] = winners;  // R6.4: tied players share the win
  }
  return state;
}

// One ranked action as hint prints it.
json ActionJson(const RankedAction& a, const WinFigures& figures, size_t i) {
  json out = {{"action", FormatAction(a.action)}};
  if (!figures.win.empty()) {
    out["win"] = RoundValue(figures.win[i]);
    // The expected final score in this game beside it (none for expert's
    // calibrated estimate), and whether both tie with the action before.
    if (!std::isnan(figures.score[i])) out["score"] = RoundValue(figures.score[i]);
    out["tied"] = static_cast<bool>(figures.tied[i]);
  }
  out["value"] = RoundValue(a.value);
  return out;
}

// The best `top` actions (0: all) as hint lists them.
json ActionsJson(const std::vector<RankedAction>& ranked, const WinFigures& win,
                 int64_t top) {
  const size_t shown = top > 0 ? std::min<size_t>(top, ranked.size()) : ranked.size();
  json actions = json::array();
  for (size_t i = 0; i < shown; ++i) actions.push_back(ActionJson(ranked[i], win, i));
  return actions;
}

json BestActionJson(Session& s, GameSession& g, const std::string& level, bool apply,
                    const CancelFlag& cancel) {
  if (g.game().phase() == Phase::kRoll)
    Fail(ErrorCode::kIllegalAction,
         "the dice are not rolled yet: with manual dice the frontend rolls for every seat (roll)");
  const int player = g.game().current();
  Action a = s.BestAction(g, level, cancel);
  std::string text = FormatAction(a);
  json out = {{"action", text},
              {"player", player},
              {"level", level.empty() ? g.seats[player] : LowerStripped(level)}};
  // How good the choice is, by the advisor's own numbers: the exact expected
  // final score after it (solitaire-optimal play) and, for expert in a game
  // with opponents, its estimated chance to win (the estimate expert decided
  // by; other levels skip it: it costs what expert's decision costs). A
  // missing table leaves them out, with the reason.
  const std::string& used = out["level"].get_ref<const std::string&>();
  const bool with_win = used == "expert" || absl::StartsWith(used, "expert:") ||
                        used == "neural" || absl::StartsWith(used, "neural:");
  try {
    WinFigures win;
    std::vector<RankedAction> ranked = s.HintForGame(g, "", win, with_win);
    for (size_t i = 0; i < ranked.size(); ++i) {
      if (!(ranked[i].action == a)) continue;
      json ranked_json = ActionJson(ranked[i], win, i);
      if (ranked_json.contains("win")) out["win"] = ranked_json["win"];
      out["value"] = ranked_json["value"];
      out["rank"] = i + 1;  // 1: the advisor's first choice
    }
  } catch (const EngineError& e) {
    if (e.code != ErrorCode::kTable && e.code != ErrorCode::kBadPosition) throw;
    out["value"] = nullptr;
    out["value_error"] = e.message;
  }
  if (IsCancelled(cancel ? cancel : s.options().cancel))
    Fail(ErrorCode::kCancelled, "cancelled: the decision was made but not applied");
  out["applied"] = apply;
  if (apply) Session::Apply(g, text);
  return out;
}

// Each action's moments into out["actions"] (in ranked order, as many as
// are shown), or, when they cannot be had, the reason in "sd_error".
void AddMoments(absl::StatusOr<std::vector<ActionMoments>> moments, Objective objective,
                json& out) {
  if (!moments.ok()) {
    out["sd_error"] = std::string(moments.status().message());
    return;
  }
  for (size_t i = 0; i < moments->size() && i < out["actions"].size(); ++i) {
    if (objective.is_target()) out["actions"][i]["mean"] = RoundValue((*moments)[i].mean);
    out["actions"][i]["sd"] = RoundValue((*moments)[i].sd);
  }
}

json ProgressJson(const json& id, const WorkProgress::Snapshot& at) {
  return {{"id", id}, {"progress", {{"done", at.done}, {"total", at.total}, {"what", at.what}}}};
}

}  // namespace penk::protocol
