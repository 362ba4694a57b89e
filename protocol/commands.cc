// The protocol's commands (docs/PROTOCOL.md "Commands"): each request's
// fields checked against its command's list, handled by the engine core
// (protocol/session.h) and answered with the replies of protocol/replies.h;
// HandleLine is the whole of it for one line.
#include "protocol/protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <new>
#include <optional>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ai/bot.h"
#include "ai/ladder.h"
#include "ai/rollout.h"
#include "ai/win_ranking.h"
#include "engine/position_check.h"
#include "protocol/game_record_json.h"
#include "protocol/hint.h"
#include "protocol/json_text.h"
#include "protocol/request.h"

namespace penk::protocol {

namespace {

constexpr size_t kMaxLine = 1 << 20;  // longer request lines are refused
constexpr int64_t kMaxId = int64_t{1} << 53;  // integers a JSON double holds exactly

using Handler = json (*)(Session&, const Request&);

json CmdHello(Session& s, const Request&);

int GameId(const Request& r) { return static_cast<int>(r.Int("game", 1, INT32_MAX, std::nullopt)); }

json StateOf(Session& s, int id) {
  json state = {{"game", id}};
  state.update(Session::StateJson(s.FindGame(id)));
  return state;
}

json CmdNewGame(Session& s, const Request& r) {
  GameSession g = NewGameOf(s, r);
  return StateOf(s, s.AddGame(std::move(g)));
}

json CmdState(Session& s, const Request& r) {
  const int id = GameId(r);
  return StateOf(s, id);
}

json CmdApply(Session& s, const Request& r) {
  const int id = GameId(r);
  GameSession& g = s.FindGame(id);
  Session::Apply(g, r.NonEmpty("action"));
  return StateOf(s, id);
}

json CmdRoll(Session& s, const Request& r) {
  const int id = GameId(r);
  GameSession& g = s.FindGame(id);
  Session::Roll(g, r.NonEmpty("dice"));
  return StateOf(s, id);
}

json CmdUndo(Session& s, const Request& r) {
  const int id = GameId(r);
  Session::Undo(s.FindGame(id));
  return StateOf(s, id);
}

json CmdBestAction(Session& s, const Request& r) {
  const int id = GameId(r);
  GameSession& g = s.FindGame(id);
  const bool apply = r.Bool("apply", false);
  json out = BestActionJson(s, g, r.String("level", ""), apply);
  if (apply) out["state"] = StateOf(s, id);
  return out;
}

// The whole game as a record (protocol/game_record_json.h), for new_game's
// "record" to restore.
json CmdExport(Session& s, const Request& r) {
  const int id = GameId(r);
  return {{"game", id}, {"record", GameRecordJson(s.FindGame(id))}};
}

json CmdCloseGame(Session& s, const Request& r) {
  const int id = GameId(r);
  s.CloseGame(id);
  return {{"closed", id}};
}

// hint's "rollouts" (trials per candidate), "candidates" (the best K by the
// fast estimate, 0: all) and "time_ms" (the bound of the whole analysis).
RolloutQuestion RolloutFieldsOf(const Request& r) {
  RolloutQuestion f;
  if (!r.Has("rollouts")) {
    for (const char* field : {"candidates", "time_ms"})
      if (r.Has(field))
        Fail(ErrorCode::kBadField,
             absl::StrCat("field \"", field, "\" sets up rollouts: give \"rollouts\" too"));
    return f;
  }
  f.trials = r.Int("rollouts", 1, kMaxRollouts, std::nullopt);
  f.candidates = r.Int("candidates", 0, 1000, 0);
  f.time_ms = r.Int("time_ms", 1, kMaxRolloutTimeMs, kDefaultRolloutTimeMs);
  return f;
}

json CmdHint(Session& s, const Request& r) {
  const int64_t top = r.Int("top", 0, INT32_MAX, 0);
  const std::string table = r.String("table", "");
  const RolloutQuestion rollouts = RolloutFieldsOf(r);
  if (r.Has("game")) {
    // Everything else comes from the game: giving it too would be two answers.
    for (const char* f :
         {"sheet", "roll", "rerolls", "rules", "opponents", "last_round", "seat", "turns", "objective"})
      if (r.Has(f))
        Fail(ErrorCode::kBadField, absl::StrCat("field \"", f, "\" cannot be given with \"game\": "
                                                "the hint is for the game's position"));
    const int id = GameId(r);
    const GameSession& g = s.FindGame(id);
    if (rollouts.trials > 0 && g.game().players() < 2)
      Fail(ErrorCode::kBadField, "rollouts play games against opponents: this game has none");
    json out = {{"game", id}};
    out.update(AnswerGameHint(s, g, table, top, rollouts));
    return out;
  }
  HintQuestion q;
  q.sheet = SheetOrThrow(r.String("sheet", kEmptySheetText));
  q.roll = RollOrThrow(r.NonEmpty("roll"));
  q.rerolls = static_cast<int>(r.Int("rerolls", 0, 2, 2));
  q.rules = RulesOrThrow(r.String("rules", ""));
  for (const std::string& o : r.StringList("opponents", false)) q.opponents.push_back(SheetOrThrow(o));
  if (q.opponents.size() > static_cast<size_t>(kMaxPlayers - 1))
    Fail(ErrorCode::kBadField, absl::StrCat("at most 3 opponents (R1.4); got ", q.opponents.size()));
  if (q.opponents.empty() && rollouts.trials > 0)
    Fail(ErrorCode::kBadField, "field \"rollouts\" needs \"opponents\": rollouts play games against them");
  if (q.opponents.empty())
    for (const char* f : {"last_round", "seat", "turns"})
      if (r.Has(f))
        Fail(ErrorCode::kBadField,
             absl::StrCat("field \"", f, "\" needs \"opponents\": it describes a game with others"));
  q.last_round = r.Bool("last_round", false);
  q.seat = static_cast<int>(r.Int("seat", 1, static_cast<int64_t>(q.opponents.size()) + 1, 1));
  q.turns = static_cast<int>(r.Int("turns", 0, kMaxTurns, -1));  // -1: estimated
  q.objective = ObjectiveOrThrow(r.String("objective", "mean"));
  if (q.objective.is_target() && !q.opponents.empty())
    Fail(ErrorCode::kBadField, "field \"objective\" target=X is a solitaire objective; with "
                               "\"opponents\" hints rank by the chance of winning");
  q.table = table;
  q.top = top;
  q.rollouts = rollouts;
  return AnswerHint(s, q);
}

json CmdValue(Session& s, const Request& r) {
  Sheet sheet = SheetOrThrow(r.String("sheet", kEmptySheetText));
  Rules rules = RulesOrThrow(r.String("rules", ""));
  const Objective objective = ObjectiveOrThrow(r.String("objective", "mean"));
  const std::string table = r.String("table", "");
  json out = {{"value", RoundValue(s.Value(sheet, rules, table, objective))}};
  if (objective.is_target()) out["objective"] = FormatObjective(objective);
  // The position's sd (and a target's mean), as `penk value`.
  std::string error;
  if (std::optional<ActionMoments> m = s.SheetMoments(sheet, rules, table, objective, error)) {
    if (objective.is_target()) out["mean"] = RoundValue(m->mean);
    out["sd"] = RoundValue(m->sd);
  } else {
    out["sd_error"] = error;
  }
  return out;
}

json CmdQuit(Session& s, const Request&) {
  s.request_quit();
  return {{"quit", true}};
}

struct Command {
  const char* name;
  Handler handler;
  // The fields it reads besides "id" and "cmd"; any other is refused, so a
  // misspelt field never silently gives the answer for a default.
  std::vector<const char*> fields;
};

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"hello", CmdHello, {}},
      {"new_game", CmdNewGame, NewGameFields()},
      {"state", CmdState, {"game"}},
      {"apply", CmdApply, {"game", "action"}},
      {"roll", CmdRoll, {"game", "dice"}},
      {"undo", CmdUndo, {"game"}},
      {"best_action", CmdBestAction, {"game", "level", "apply"}},
      {"close_game", CmdCloseGame, {"game"}},
      {"export", CmdExport, {"game"}},
      {"hint", CmdHint,
       {"game", "sheet", "roll", "rerolls", "top", "rules", "opponents", "last_round", "seat",
        "turns", "table", "objective", "rollouts", "candidates", "time_ms"}},
      {"value", CmdValue, {"sheet", "rules", "table", "objective"}},
      {"quit", CmdQuit, {}},
  };
  return commands;
}

json CmdHello(Session& s, const Request&) {
  json commands = json::array();
  for (const Command& c : Commands()) commands.push_back(c.name);
  json seats = json::array({"human"});
  for (const std::string& l : s.Levels()) seats.push_back(l);
  // "levels": the levels (level_info's names), one name each; aliases are
  // accepted wherever a level is (they are in "seats") but are not levels.
  json info = json::array(), levels = json::array();
  for (const LevelInfo& l : kLevels) {
    const std::vector<std::string> allowed = s.Levels();
    if (std::find(allowed.begin(), allowed.end(), l.name) == allowed.end()) continue;
    json aliases = json::array();
    if (*l.alias) aliases.push_back(l.alias);
    // Strength (docs/AI.md, the ladder): logistic Elo in two-player games,
    // greedy = 0, with its 95% interval, measured by `penk match`; the
    // figures of data/ladder.json (ai/ladder.h), where each match is recorded.
    const LadderLevel* strength = StrengthLadder().Find(l.name);
    if (!strength) Fail(ErrorCode::kInternal, absl::StrCat("no ladder entry for ", l.name));
    levels.push_back(l.name);
    info.push_back({{"name", l.name},
                    {"aliases", aliases},
                    {"description", l.description},
                    {"elo", std::lround(strength->elo)},
                    {"elo_ci95", {std::lround(strength->elo_low), std::lround(strength->elo_high)}}});
  }
  return {{"name", kEngineName},
          {"version", kEngineVersion},
          {"protocol", kProtocolVersion},
          {"commands", commands},
          {"levels", levels},
          {"level_info", info},
          {"seats", seats},
          {"rules",
           {{"default", FormatRules(Rules{})},
            {"variants",
             {{"line-min", json::array({1, 2, 3, 4, 5})}, {"penk-lines", json::array({"all", "columns"})}}}}}};
}

json ErrorReply(const json& id, ErrorCode code, absl::string_view message) {
  return {{"id", id}, {"error", {{"code", ErrorCodeName(code)}, {"message", message}}}};
}

// Lossy UTF-8 repair so that a message quoting bad input can be dumped.
std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A request's "id": a string or an integer a JSON double holds exactly, so
// that every client gets back exactly what it sent.
bool ValidId(const json& id) {
  if (id.is_string()) return id.get<std::string>().find('\0') == std::string::npos;
  if (id.is_number_unsigned()) return id.get<uint64_t>() <= static_cast<uint64_t>(kMaxId);
  if (id.is_number_integer()) return std::llabs(id.get<int64_t>()) <= kMaxId;
  return false;
}

}  // namespace

std::string HandleLine(Session& session, absl::string_view line) {
  json id = nullptr;
  try {
    if (line.size() > kMaxLine)
      return Dump(ErrorReply(id, ErrorCode::kBadJson,
                             absl::StrCat("request line longer than ", kMaxLine, " bytes")));
    if (size_t nul = line.find('\0'); nul != absl::string_view::npos)
      return Dump(ErrorReply(id, ErrorCode::kBadJson,
                             absl::StrCat("the line has a NUL byte at offset ", nul)));
    absl::StatusOr<json> parsed = ParseBoundedJson(line);
    if (!parsed.ok())
      return Dump(ErrorReply(id, ErrorCode::kBadJson,
                             absl::StrCat("the line is ", parsed.status().message())));
    json request = *std::move(parsed);
    if (!request.is_object())
      return Dump(ErrorReply(id, ErrorCode::kBadJson, "a request is a JSON object"));
    if (request.contains("id")) {
      const json& given = request["id"];
      if (!ValidId(given))
        return Dump(ErrorReply(id, ErrorCode::kBadField,
                               "\"id\" must be a string or an integer within +-2^53"));
      id = given;
    }
    if (!request.contains("cmd") || !request["cmd"].is_string())
      return Dump(ErrorReply(id, ErrorCode::kBadField, "missing field \"cmd\" (a string)"));
    const std::string cmd = request["cmd"].get<std::string>();
    for (const Command& c : Commands()) {
      if (cmd != c.name) continue;
      try {
        CheckKnownFields(request, c.name, c.fields);
        json result = c.handler(session, Request(request));
        return Dump({{"id", id}, {"result", std::move(result)}});
      } catch (const EngineError& e) {
        return Dump(ErrorReply(id, e.code, e.message));
      }
    }
    std::vector<std::string> names;
    for (const Command& c : Commands()) names.push_back(c.name);
    return Dump(ErrorReply(id, ErrorCode::kUnknownCommand,
                           absl::StrCat("unknown command \"", cmd.substr(0, 40), "\"; known: ",
                                        absl::StrJoin(names, ", "))));
  } catch (const std::bad_alloc&) {
    return Dump(ErrorReply(id, ErrorCode::kInternal, "out of memory"));
  } catch (const std::exception& e) {
    return Dump(ErrorReply(id, ErrorCode::kInternal, e.what()));
  } catch (...) {
    return Dump(ErrorReply(id, ErrorCode::kInternal, "unknown error"));
  }
}

}  // namespace penk::protocol
