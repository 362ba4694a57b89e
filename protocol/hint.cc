#include "protocol/hint.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "ai/rollout.h"
#include "ai/win_ranking.h"
#include "engine/action.h"
#include "protocol/errors.h"
#include "protocol/inputs.h"
#include "protocol/replies.h"

namespace penk::protocol {

namespace {

using json = nlohmann::ordered_json;

// What no door's reading of the question may let through (each door names
// its own fields or flags first; these are the last word).
void CheckQuestion(const HintQuestion& q) {
  if (q.opponents.size() > static_cast<size_t>(kMaxPlayers - 1))
    Fail(ErrorCode::kBadField, absl::StrCat("at most 3 opponents (R1.4); got ", q.opponents.size()));
  if (q.top < 0) Fail(ErrorCode::kBadField, absl::StrCat("top must be 0 (all) or more; got ", q.top));
  if (q.opponents.empty()) {
    if (q.rollouts.trials > 0)
      Fail(ErrorCode::kBadField, "rollouts play games against opponents: this position has none");
    return;
  }
  if (q.objective.is_target())
    Fail(ErrorCode::kBadField, "a target objective is a solitaire objective; with opponents "
                               "hints rank by the chance of winning");
  const int players = static_cast<int>(q.opponents.size()) + 1;
  if (q.seat < 1 || q.seat > players)
    Fail(ErrorCode::kBadField, absl::StrCat("seat must be 1..", players, "; got ", q.seat));
}

// The best candidates of `ranked` played out by the question's policy in
// every seat: "rollouts" and the rolled-out candidates, best first, each
// with its fast estimate ("win", "value") and its "rollout".
void AddRollouts(Session& s, const Game& game, const RolloutQuestion& f,
                 const std::vector<RankedAction>& ranked, const WinFigures& win,
                 json& out) {
  if (!s.options().expert_hints) Fail(ErrorCode::kBadField, "rollouts are off in this session");
  const size_t k = f.candidates > 0 ? std::min<size_t>(f.candidates, ranked.size()) : ranked.size();
  std::vector<Action> candidates;
  for (size_t i = 0; i < k; ++i) candidates.push_back(ranked[i].action);
  RolloutOptions o;
  o.trials = f.trials;
  o.policy = f.policy;
  o.seed = f.seed;
  o.threads = f.threads;
  o.time_ms = f.time_ms;
  if (f.work.deadline) {  // what is left of the request's time_ms, table loads included
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        *f.work.deadline - std::chrono::steady_clock::now());
    o.time_ms = std::clamp<int64_t>(left.count(), 1, kMaxRolloutTimeMs);
  }
  o.tables = s.tables();
  o.cancel = f.work.cancel ? f.work.cancel : s.options().cancel;
  o.progress = f.work.progress;
  absl::StatusOr<RolloutResult> r = Rollout(game, candidates, o);
  if (!r.ok())
    Fail(r.status().code() == absl::StatusCode::kCancelled         ? ErrorCode::kCancelled
         : r.status().code() == absl::StatusCode::kUnavailable     ? ErrorCode::kTable
         : r.status().code() == absl::StatusCode::kInvalidArgument ? ErrorCode::kBadPosition
                                                                   : ErrorCode::kInternal,
         std::string(r.status().message()));
  json actions = json::array();
  for (const RolloutCandidate& c : r->candidates) {
    size_t i = 0;
    while (i < ranked.size() && !(ranked[i].action == c.action)) ++i;
    json a = ActionJson(ranked[i], win, i);
    a["rollout"] = {{"trials", c.trials},
                    {"win", RoundValue(c.win)},
                    {"win_ci95", {RoundValue(c.win_low), RoundValue(c.win_high)}},
                    {"margin", RoundValue(c.margin)},
                    {"margin_ci95", {RoundValue(c.margin_low), RoundValue(c.margin_high)}},
                    {"dropped", c.dropped}};
    actions.push_back(a);
  }
  out["actions"] = actions;
  out["rollouts"] = {{"trials", f.trials},   {"policy", o.policy},
                     {"seed", o.seed},       {"candidates", k},
                     {"time_ms", f.time_ms}, {"timed_out", r->timed_out}};
  // Stopped by a cancel: the trials played so far are the partial answer.
  if (r->cancelled)
    throw EngineError{ErrorCode::kCancelled,
                      "cancelled: the rollouts stopped; \"partial\" has the trials played",
                      out};
}

}  // namespace

HintQuestion HintQuestionOfGame(const Game& game) {
  if (game.over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  if (game.phase() == Phase::kRoll)
    Fail(ErrorCode::kIllegalAction, "the dice are not rolled yet: give the six dice first");
  const int me = game.current();
  HintQuestion q;
  q.sheet = game.sheet(me);
  q.roll = game.dice();
  q.rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
  q.rules = game.rules();
  for (int i = 1; i < game.players(); ++i) q.opponents.push_back(game.sheet((me + i) % game.players()));
  if (!q.opponents.empty()) {
    q.last_round = game.last_round();
    q.seat = me + 1;
    q.turns = game.turns(me);
  }
  return q;
}

json AnswerHint(Session& s, const HintQuestion& q, const Game* game) {
  CheckQuestion(q);
  const bool alone = q.opponents.empty();
  if (!alone) CheckSheetsOrThrow(q.sheet, q.opponents, q.rules, q.last_round);
  // With opponents a sheet with two closed columns may still play the last
  // round (R5.2); alone, its game is over.
  // Alone, the ranking and the sd come from one solve of the turn. With
  // opponents the ranking changes below (by win chance) and the sd follows
  // it, asked for after the win ranking has checked what it needs.
  Session::RankedHint hint;
  if (alone)
    hint = s.HintWithMoments(q.sheet, q.roll, q.rerolls, q.rules, q.table, q.objective);
  else
    hint.ranked = s.Hint(q.sheet, q.roll, q.rerolls, q.rules, q.table,
                         FinishedSheet::kLastTurns, q.objective);
  std::vector<RankedAction>& ranked = hint.ranked;
  WinFigures win;
  if (!alone)
    win = s.RankForWinOrFail(q.sheet, q.roll, q.rerolls, q.rules, q.opponents, q.last_round,
                             q.seat, q.turns, ranked);
  json out = {{"sheet", FormatSheet(q.sheet)}, {"roll", FormatDice(q.roll)}, {"rerolls", q.rerolls}};
  if (!alone) {
    json opp = json::array();
    for (const Sheet& o : q.opponents) opp.push_back(FormatSheet(o));
    out["opponents"] = opp;
    out["last_round"] = q.last_round;
    // Whether "win" is the exact probability (the last round of a two-player
    // game) or an estimate, and which (ai/win_ranking.h WinFigures).
    out["win_exact"] = win.exact;
    out["estimate"] = win.estimate;
  }
  if (q.objective.is_target()) out["objective"] = FormatObjective(q.objective);
  out["count"] = ranked.size();
  out["actions"] = ActionsJson(ranked, win, q.top);
  // Each action's sd (and a target's mean); with opponents the sd of the
  // solitaire-optimal play whose mean is "value". Without its spread table
  // the hint is still given, with the reason in "sd_error".
  if (!alone)
    hint.moments = s.Moments(q.sheet, q.roll, q.rerolls, q.rules, q.table, q.objective, ranked);
  AddMoments(std::move(hint.moments), q.objective, out);
  if (q.rollouts.trials > 0) {
    if (game) {
      AddRollouts(s, *game, q.rollouts, ranked, win, out);
    } else {
      WinQuery query{q.sheet, q.opponents, q.rules, q.last_round, q.seat, q.turns};
      absl::StatusOr<Game> made = GameOfWinQuery(query, q.roll, q.rerolls);
      if (!made.ok()) Fail(ErrorCode::kBadPosition, std::string(made.status().message()));
      AddRollouts(s, *made, q.rollouts, ranked, win, out);
    }
  }
  return out;
}

json AnswerGameHint(Session& s, const GameSession& g, const std::string& table, int64_t top,
                    const RolloutQuestion& rollouts) {
  HintQuestion q = HintQuestionOfGame(g.game());
  q.table = table;
  q.top = top;
  q.rollouts = rollouts;
  json out = {{"player", g.game().current()}};
  out.update(AnswerHint(s, q, &g.game()));
  return out;
}

}  // namespace penk::protocol
