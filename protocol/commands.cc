// The protocol's commands (docs/PROTOCOL.md "Commands"): each request's
// fields checked against its command's list, handled by the engine core
// (protocol/session.h) and answered with the replies of protocol/replies.h;
// HandleLine is the whole of it for one line.
#include "protocol/protocol.h"

#include <algorithm>
#include <chrono>
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
#include "tables/table_store.h"
#include "protocol/hint.h"
#include "protocol/json_text.h"
#include "protocol/request.h"

namespace penk::protocol {

namespace {

constexpr size_t kMaxLine = 1 << 20;  // longer request lines are refused
constexpr int64_t kMaxId = int64_t{1} << 53;  // integers a JSON double holds exactly

using Handler = json (*)(Session&, const Request&);

// A request's "id": a string or an integer a JSON double holds exactly, so
// that every client gets back exactly what it sent.
bool ValidId(const json& id) {
  if (id.is_string()) return id.get<std::string>().find('\0') == std::string::npos;
  if (id.is_number_unsigned()) return id.get<uint64_t>() <= static_cast<uint64_t>(kMaxId);
  if (id.is_number_integer()) return std::llabs(id.get<int64_t>()) <= kMaxId;
  return false;
}


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
  json out = BestActionJson(s, g, r.String("level", ""), apply, r.work().cancel);
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

// "time_ms" of any request (docs/PROTOCOL.md): 1..kMaxRequestTimeMs, or
// none. The dispatcher reads it too, for the request's deadline.
std::optional<int64_t> TimeMsOf(const Request& r) {
  if (!r.Has("time_ms")) return std::nullopt;
  return r.Int("time_ms", 1, kMaxRequestTimeMs, std::nullopt);
}

// hint's "rollouts" (trials per candidate), "candidates" (the best K by the
// fast estimate, 0: all); "time_ms" bounds the whole request, rollouts
// included (kDefaultRolloutTimeMs when not given).
RolloutQuestion RolloutFieldsOf(const Request& r) {
  RolloutQuestion f;
  const std::optional<int64_t> time_ms = TimeMsOf(r);
  if (!r.Has("rollouts")) {
    if (r.Has("candidates"))
      Fail(ErrorCode::kBadField, "field \"candidates\" sets up rollouts: give \"rollouts\" too");
    return f;
  }
  f.trials = r.Int("rollouts", 1, kMaxRollouts, std::nullopt);
  f.candidates = r.Int("candidates", 0, 1000, 0);
  f.time_ms = time_ms.value_or(kDefaultRolloutTimeMs);
  f.work = r.work();
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

// "blocked" of prepare: one set of blocked rows as row digits ("" or "-":
// none), "all" (every set a game under `rules` reaches, R4.2), or a list.
std::vector<uint32_t> BlockedSetsOf(const Request& r, const Rules& rules) {
  std::vector<std::string> texts = r.StringList("blocked", false);
  if (!r.Has("blocked")) texts = {""};
  if (texts.size() > 64) Fail(ErrorCode::kBadField, "field \"blocked\" lists at most 64 sets");
  std::vector<uint32_t> sets;
  for (const std::string& text : texts) {
    if (text == "all") {
      for (uint32_t b : BlockedRowSets(rules))
        if (std::find(sets.begin(), sets.end(), b) == sets.end()) sets.push_back(b);
      continue;
    }
    uint32_t rows = 0;
    for (char c : text) {
      if (text == "-") break;
      if (c < '1' || c > '5' || (rows >> (c - '1') & 1))
        Fail(ErrorCode::kBadField,
             absl::StrCat("field \"blocked\" takes sets of distinct row digits 1-5 (e.g. \"13\"), "
                          "\"\" for none, or \"all\"; got \"", text.substr(0, 40), "\""));
      rows |= 1u << (c - '1');
    }
    if (rows != 0 && !rules.penk_rows)
      Fail(ErrorCode::kBadField, absl::StrCat("under ", FormatRules(rules),
                                              " no row is ever blocked (R4.3): give \"\" or \"all\""));
    if (std::find(sets.begin(), sets.end(), rows) == sets.end()) sets.push_back(rows);
  }
  return sets;
}

json CmdPrepare(Session& s, const Request& r) {
  const Rules rules = RulesOrThrow(r.String("rules", ""));
  const Objective objective = ObjectiveOrThrow(r.String("objective", "mean"));
  const std::vector<uint32_t> sets = BlockedSetsOf(r, rules);
  const bool spreads = r.Bool("spreads", false);
  const std::vector<bool> loaded =
      s.Prepare(rules, sets, objective, spreads, r.work().cancel ? r.work().cancel : s.options().cancel,
                r.work().progress);
  json tables = json::array();
  for (size_t i = 0; i < sets.size(); ++i)
    tables.push_back({{"blocked", BlockedRowsDigits(sets[i])}, {"loaded", static_cast<bool>(loaded[i])}});
  json out = {{"rules", FormatRules(rules)}};
  if (objective.is_target()) out["objective"] = FormatObjective(objective);
  out["spreads"] = spreads;
  out["count"] = sets.size();
  out["tables"] = tables;
  return out;
}

// cancel handled here is a cancel of a session without a dispatcher
// (penk_request, tests): nothing runs beside it, so its target is not running.
// The dispatcher answers cancels itself (protocol/dispatch.h).
json CmdCancel(Session&, const Request& r) {
  if (!r.Has("target")) Fail(ErrorCode::kBadField, "missing field \"target\" (the id of a request)");
  if (!ValidId(r.Raw("target")))
    Fail(ErrorCode::kBadField, "field \"target\" must be a string or an integer within +-2^53");
  return {{"target", r.Raw("target")}, {"running", false}};
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
      {"hello", CmdHello, {"protocol"}},
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
      {"prepare", CmdPrepare, {"rules", "blocked", "objective", "spreads"}},
      {"cancel", CmdCancel, {"target"}},
      {"quit", CmdQuit, {}},
  };
  return commands;
}

json CmdHello(Session& s, const Request& r) {
  // "protocol": the one the client speaks from now on (3: several requests
  // in flight); a door without a dispatcher speaks 2 only.
  if (r.Has("protocol")) {
    const int64_t p = r.Int("protocol", kProtocolVersion, kLatestProtocol, std::nullopt);
    if (p > s.max_protocol())
      Fail(ErrorCode::kBadField,
           absl::StrCat("this door speaks protocol ", s.max_protocol(), " only",
                        s.max_protocol() < kLatestProtocol
                            ? " (protocol 3: penk engine, penk serve, libpenk's penk_submit)"
                            : ""));
    s.set_protocol(static_cast<int>(p));
  }
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
          {"protocol", s.protocol()},
          {"commands", commands},
          {"levels", levels},
          {"level_info", info},
          {"seats", seats},
          {"rules",
           {{"default", FormatRules(Rules{})},
            {"variants",
             {{"line-min", json::array({1, 2, 3, 4, 5})}, {"penk-lines", json::array({"all", "columns"})}}}}}};
}

// Lossy UTF-8 repair so that a message quoting bad input can be dumped.
std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}


}  // namespace

json ErrorReply(const json& id, ErrorCode code, absl::string_view message) {
  return {{"id", id}, {"error", {{"code", ErrorCodeName(code)}, {"message", message}}}};
}

bool ParseRequestLine(absl::string_view line, json& request, json& error_reply) {
  json id = nullptr;
  try {
    if (line.size() > kMaxLine) {
      error_reply = ErrorReply(id, ErrorCode::kBadJson,
                               absl::StrCat("request line longer than ", kMaxLine, " bytes"));
      return false;
    }
    if (size_t nul = line.find('\0'); nul != absl::string_view::npos) {
      error_reply = ErrorReply(id, ErrorCode::kBadJson,
                               absl::StrCat("the line has a NUL byte at offset ", nul));
      return false;
    }
    absl::StatusOr<json> parsed = ParseBoundedJson(line);
    if (!parsed.ok()) {
      error_reply = ErrorReply(id, ErrorCode::kBadJson,
                               absl::StrCat("the line is ", parsed.status().message()));
      return false;
    }
    request = *std::move(parsed);
    if (!request.is_object()) {
      error_reply = ErrorReply(id, ErrorCode::kBadJson, "a request is a JSON object");
      return false;
    }
    if (request.contains("id")) {
      const json& given = request["id"];
      if (!ValidId(given)) {
        error_reply = ErrorReply(id, ErrorCode::kBadField,
                                 "\"id\" must be a string or an integer within +-2^53");
        return false;
      }
      id = given;
    }
    if (!request.contains("cmd") || !request["cmd"].is_string()) {
      error_reply = ErrorReply(id, ErrorCode::kBadField, "missing field \"cmd\" (a string)");
      return false;
    }
    return true;
  } catch (const std::bad_alloc&) {
    error_reply = ErrorReply(id, ErrorCode::kInternal, "out of memory");
  } catch (const std::exception& e) {
    error_reply = ErrorReply(id, ErrorCode::kInternal, e.what());
  }
  return false;
}

json HandleRequest(Session& session, const json& request, const RequestWork& work) {
  const json id = request.contains("id") ? request["id"] : json(nullptr);
  try {
    const std::string cmd = request["cmd"].get<std::string>();
    for (const Command& c : Commands()) {
      if (cmd != c.name) continue;
      try {
        std::vector<const char*> fields = c.fields;
        for (const char* f : kEveryRequestFields)
          if (std::find_if(fields.begin(), fields.end(),
                           [&](const char* g) { return std::string(f) == g; }) == fields.end())
            fields.push_back(f);
        CheckKnownFields(request, c.name, fields);
        const Request r(request, work);
        r.Int("time_ms", 1, kMaxRequestTimeMs, 0);  // checked here for every command
        r.Int("progress_ms", kMinProgressMs, kMaxRequestTimeMs, 0);
        json result = c.handler(session, r);
        return {{"id", id}, {"result", std::move(result)}};
      } catch (const EngineError& e) {
        json reply = ErrorReply(id, e.code, e.message);
        if (!e.partial.is_null()) reply["error"]["partial"] = e.partial;
        return reply;
      }
    }
    std::vector<std::string> names;
    for (const Command& c : Commands()) names.push_back(c.name);
    return ErrorReply(id, ErrorCode::kUnknownCommand,
                      absl::StrCat("unknown command \"", cmd.substr(0, 40), "\"; known: ",
                                   absl::StrJoin(names, ", ")));
  } catch (const std::bad_alloc&) {
    return ErrorReply(id, ErrorCode::kInternal, "out of memory");
  } catch (const std::exception& e) {
    return ErrorReply(id, ErrorCode::kInternal, e.what());
  } catch (...) {
    return ErrorReply(id, ErrorCode::kInternal, "unknown error");
  }
}

std::string ReplyLine(const json& reply) { return Dump(reply); }

int64_t EveryRequestField(const json& request, const char* name, int64_t lo, int64_t hi) {
  if (!request.contains(name)) return 0;
  const json& v = request[name];
  if (!v.is_number_integer()) return 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    return u >= static_cast<uint64_t>(lo) && u <= static_cast<uint64_t>(hi) ? static_cast<int64_t>(u) : 0;
  }
  const int64_t x = v.get<int64_t>();
  return x >= lo && x <= hi ? x : 0;
}

std::string HandleLine(Session& session, absl::string_view line) {
  json request, error;
  if (!ParseRequestLine(line, request, error)) return Dump(error);
  RequestWork work;
  work.cancel = session.options().cancel;
  return Dump(HandleRequest(session, request, work));
}

}  // namespace penk::protocol
