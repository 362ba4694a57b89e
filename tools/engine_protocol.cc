#include "tools/engine_protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <new>
#include <optional>
#include <random>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "solver/bot.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"
#include "solver/win_ranking.h"
#include "tables/table_file.h"
#include "tables/table_store.h"

namespace penk::engine {

using json = nlohmann::ordered_json;

namespace {

constexpr char kEmptySheet[] = "...../...../...../...../.....";
constexpr size_t kMaxLine = 1 << 20;  // longer request lines are refused

[[noreturn]] void Fail(ErrorCode code, std::string message) {
  throw EngineError{code, std::move(message)};
}

const char* PhaseName(Phase p) {
  switch (p) {
    case Phase::kKeep: return "keep";
    case Phase::kMark: return "mark";
    case Phase::kOver: return "over";
  }
  return "?";
}

std::string LowerStripped(absl::string_view s) {
  return absl::AsciiStrToLower(absl::StripAsciiWhitespace(s));
}

}  // namespace

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kBadJson: return "bad_json";
    case ErrorCode::kUnknownCommand: return "unknown_command";
    case ErrorCode::kBadField: return "bad_field";
    case ErrorCode::kBadPosition: return "bad_position";
    case ErrorCode::kUnknownGame: return "unknown_game";
    case ErrorCode::kIllegalAction: return "illegal_action";
    case ErrorCode::kUnknownLevel: return "unknown_level";
    case ErrorCode::kTable: return "table_error";
    case ErrorCode::kLimit: return "limit";
    case ErrorCode::kInternal: return "internal";
    case ErrorCode::kBufferTooSmall: return "buffer_too_small";
  }
  return "internal";
}

double RoundValue(double v) {
  // Exactly what `penk hint --json` prints (%.6f), read back.
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", v);
  return std::strtod(text, nullptr);
}

Sheet SheetOrThrow(absl::string_view text) {
  absl::StatusOr<Sheet> s = ParseSheet(text);
  if (!s.ok()) Fail(ErrorCode::kBadPosition, std::string(s.status().message()));
  return *s;
}

Dice RollOrThrow(absl::string_view text) {
  absl::StatusOr<Dice> d = ParseRoll(text);
  if (!d.ok()) Fail(ErrorCode::kBadPosition, std::string(d.status().message()));
  return *d;
}

Rules RulesOrThrow(absl::string_view text) {
  absl::StatusOr<Rules> r = ParseRules(text);
  if (!r.ok()) Fail(ErrorCode::kBadPosition, std::string(r.status().message()));
  return *r;
}

std::vector<std::string> SeatsOrThrow(const std::vector<std::string>& names,
                                      const std::vector<std::string>& levels) {
  if (names.empty() || names.size() > static_cast<size_t>(kMaxPlayers))
    Fail(ErrorCode::kBadField,
         absl::StrCat("a game has 1 to 4 players (R1.4); got ", names.size()));
  std::vector<std::string> seats;
  for (const std::string& raw : names) {
    std::string name = LowerStripped(raw);
    bool known = name == "human";
    for (const std::string& l : levels) known = known || name == l;
    if (!known)
      Fail(ErrorCode::kUnknownLevel, absl::StrCat("unknown player \"", raw, "\"; allowed: human, ",
                                                  absl::StrJoin(levels, ", ")));
    seats.push_back(name);
  }
  return seats;
}

Session::Session(SessionOptions options)
    : options_(std::move(options)),
      tables_(std::make_shared<TableCache>(FileTableLoader(options_.table_dir, options_.allow_build),
                                           options_.table_cache_mb << 20)) {}

void Session::SetAllowBuild(bool allow) {
  options_.allow_build = allow;
  tables_->SetLoader(FileTableLoader(options_.table_dir, allow));
}

std::vector<std::string> Session::Levels() const {
  if (!options_.levels.empty()) return options_.levels;
  std::vector<std::string> out;
  for (const char* n : kBotNames) out.push_back(n);
  return out;
}

std::shared_ptr<const SolitaireTable> Session::Table(const Rules& rules, const Sheet& sheet,
                                                     const std::string& path_arg) {
  absl::StatusOr<SolitairePosition> position = PositionOfSheet(sheet);
  if (!position.ok()) Fail(ErrorCode::kBadPosition, std::string(position.status().message()));
  std::string path = path_arg;
  if (!options_.fixed_table.empty()) {
    path = options_.fixed_table;
  } else if (!path.empty() && !options_.allow_table_paths) {
    Fail(ErrorCode::kBadField, "this engine does not accept table paths");
  }
  // A named file is only read; the default file of the folder is built when
  // missing and building is on (FileTableLoader).
  absl::StatusOr<std::shared_ptr<const SolitaireTable>> table =
      tables_->Get(TableKey{rules, position->blocked_rows, path});
  if (!table.ok()) Fail(ErrorCode::kTable, std::string(table.status().message()));
  return *std::move(table);
}

std::vector<RankedAction> Session::Hint(const Sheet& sheet, const Dice& roll, int rerolls,
                                        const Rules& rules, const std::string& table_path) {
  if (rerolls < 0 || rerolls > 2)
    Fail(ErrorCode::kBadField, absl::StrCat("rerolls must be 0, 1 or 2 (R2.2); got ", rerolls));
  if (sheet.ClosedColumns() >= 2)
    Fail(ErrorCode::kBadPosition,
         absl::StrCat("sheet ", FormatSheet(sheet), " has two closed columns: the game is over (R5.2)"));
  if (sheet.free() == 0) Fail(ErrorCode::kBadPosition, "the sheet has no free cell (R3.6)");
  std::shared_ptr<const SolitaireTable> table = Table(rules, sheet, table_path);
  absl::StatusOr<std::vector<RankedAction>> ranked = RankActions(*table, sheet, roll, rerolls);
  if (!ranked.ok()) {
    ErrorCode code = ranked.status().code() == absl::StatusCode::kFailedPrecondition
                         ? ErrorCode::kTable
                         : ErrorCode::kBadPosition;
    Fail(code, std::string(ranked.status().message()));
  }
  return *std::move(ranked);
}

double Session::Value(const Sheet& sheet, const Rules& rules, const std::string& table_path) {
  std::shared_ptr<const SolitaireTable> table = Table(rules, sheet, table_path);
  absl::StatusOr<double> v = table->Value(sheet);
  if (!v.ok()) {
    ErrorCode code = v.status().code() == absl::StatusCode::kFailedPrecondition
                         ? ErrorCode::kTable
                         : ErrorCode::kBadPosition;
    Fail(code, std::string(v.status().message()));
  }
  return *v;
}

std::vector<double> Session::RankForWinOrFail(const Sheet& sheet, const Dice& roll, int rerolls,
                                        const Rules& rules, const std::vector<Sheet>& opponents,
                                        bool last_round, int seat, int turns,
                                        std::vector<RankedAction>& ranked) {
  if (!options_.expert_hints)
    Fail(ErrorCode::kBadField, "hints with opponents are off in this session");
  for (const Sheet& o : opponents)  // bad_position, not bad_field, for an unreachable sheet
    if (absl::Status st = PositionOfSheet(o).status(); !st.ok())
      Fail(ErrorCode::kBadPosition, std::string(st.message()));
  WinQuery query{sheet, opponents, rules, last_round, seat, turns};
  std::vector<double> win;
  if (absl::Status st = RankForWin(query, roll, rerolls, ranked, win, tables_); !st.ok())
    Fail(st.code() == absl::StatusCode::kUnavailable ? ErrorCode::kTable : ErrorCode::kBadField,
         std::string(st.message()));
  return win;
}

GameSession Session::NewGame(const std::vector<std::string>& seats, const Rules& rules,
                             uint64_t seed) {
  std::vector<std::string> checked = SeatsOrThrow(seats, Levels());
  absl::StatusOr<Game> game = Game::Create(static_cast<int>(checked.size()), rules, seed);
  if (!game.ok()) Fail(ErrorCode::kBadField, std::string(game.status().message()));
  return GameSession{*std::move(game), std::move(checked), seed, {}};
}

Action Session::BestAction(GameSession& g, const std::string& level_arg) {
  if (g.game.over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  const int p = g.game.current();
  std::string level = LowerStripped(level_arg);
  if (level.empty()) {
    level = g.seats[p];
    if (level == "human")
      Fail(ErrorCode::kBadField,
           absl::StrCat("player ", p, " is human: give \"level\" to ask an AI for its move"));
  }
  std::vector<std::string> levels = Levels();
  // Names MakeBot accepts beyond kBotNames (e.g. "expert:lambda=2") are
  // allowed unless the session restricts its levels.
  const bool listed = std::find(levels.begin(), levels.end(), level) != levels.end();
  if (!listed && (!options_.levels.empty() || !MakeBot(level, g.game.rules(), 0, tables_).ok()))
    Fail(ErrorCode::kUnknownLevel, absl::StrCat("unknown AI level \"", level_arg, "\"; known: ",
                                                absl::StrJoin(levels, ", ")));
  // Each level keeps a player with its caches: a bounded number per game, so
  // that a client cycling through "expert:lambda=..." cannot grow memory.
  if (!g.bots.count(level) && g.bots.size() >= options_.max_bots_per_game)
    Fail(ErrorCode::kLimit, absl::StrCat("at most ", options_.max_bots_per_game,
                                         " distinct AI levels per game; this game has used ",
                                         g.bots.size()));
  std::unique_ptr<Player>& bot = g.bots[level];
  if (!bot) {
    absl::StatusOr<std::unique_ptr<Player>> made =
        MakeBot(level, g.game.rules(), g.seed + 0x9e3779b97f4a7c15ULL * (g.bots.size() + 1),
                tables_);
    if (!made.ok()) {
      g.bots.erase(level);
      Fail(ErrorCode::kUnknownLevel, std::string(made.status().message()));
    }
    bot = *std::move(made);
  }
  try {
    return bot->Decide(g.game);
  } catch (const TableUnavailable& e) {  // e.g. a blocked-row table with building off
    Fail(ErrorCode::kTable, e.what());
  }
}

void Session::Apply(GameSession& g, absl::string_view text) {
  if (g.game.over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  absl::StatusOr<Action> action = g.game.ParseAction(text);
  if (!action.ok()) Fail(ErrorCode::kIllegalAction, std::string(action.status().message()));
  // Apply() checks legality before changing anything: a refused action
  // leaves the game as it was.
  if (absl::Status s = g.game.Apply(*action); !s.ok())
    Fail(ErrorCode::kIllegalAction, std::string(s.message()));
}

json Session::StateJson(const GameSession& g) {
  const Game& game = g.game;
  json players = json::array();
  int best = -1;
  for (int p = 0; p < game.players(); ++p) {
    const Sheet& s = game.sheet(p);
    players.push_back({{"seat", g.seats[p]},
                       {"sheet", FormatSheet(s)},
                       {"score", game.Score(p)},
                       {"turns", game.turns(p)},
                       {"closed_columns", s.ClosedColumns()}});
    best = std::max(best, game.Score(p));
  }
  json state = {{"rules", FormatRules(game.rules())},
                {"seed", g.seed},
                {"players", players},
                {"current", game.current()},
                {"phase", PhaseName(game.phase())},
                {"dice", game.over() ? "" : FormatDice(game.dice())},
                {"rerolls_left", game.phase() == Phase::kKeep ? game.rerolls_left() : 0},
                {"last_round", game.last_round()},
                {"round", game.round()}};
  json legal = json::array();
  for (const Action& a : game.LegalActions()) legal.push_back(FormatAction(a));
  state["legal_actions"] = legal;
  const TurnReport& t = game.last_turn();
  if (t.player >= 0) {
    json last = {{"player", t.player}, {"dice", FormatDice(t.final_dice)}};
    if (t.circled) last["marking"] = FormatMarking(t.circled);
    if (t.failed_column) last["failed_column"] = t.failed_column;
    json rows = json::array(), cols = json::array();
    for (int i = 1; i <= 5; ++i) {
      if (t.penk_rows >> (i - 1) & 1) rows.push_back(i);
      if (t.penk_columns >> (i - 1) & 1) cols.push_back(i);
    }
    last["penk_rows"] = rows;
    last["penk_columns"] = cols;
    last["last_round_started"] = t.last_round_started;
    state["last_turn"] = last;
  }
  if (game.over()) {
    json winners = json::array();
    for (int p = 0; p < game.players(); ++p)
      if (game.Score(p) == best) winners.push_back(p);
    state["winners"] = winners;  // R6.4: tied players share the win
  }
  return state;
}

int Session::AddGame(GameSession g) {
  if (games_.size() >= options_.max_games)
    Fail(ErrorCode::kLimit, absl::StrCat("at most ", options_.max_games,
                                         " games at once; close_game some first"));
  const int id = next_game_++;
  games_.emplace(id, std::move(g));
  return id;
}

GameSession& Session::FindGame(int id) {
  auto it = games_.find(id);
  if (it == games_.end()) Fail(ErrorCode::kUnknownGame, absl::StrCat("no game ", id));
  return it->second;
}

void Session::Reset() {
  games_.clear();
  next_game_ = 1;
  quit_ = false;
}

void Session::CloseGame(int id) {
  if (games_.erase(id) == 0) Fail(ErrorCode::kUnknownGame, absl::StrCat("no game ", id));
}

// ---------------------------------------------------------------------------
// The protocol.

namespace {

// Typed access to request fields; a missing or ill-typed field is kBadField.
class Request {
 public:
  explicit Request(const json& j) : j_(j) {}

  bool Has(const char* name) const { return j_.contains(name) && !j_.at(name).is_null(); }

  std::string String(const char* name, const char* fallback = nullptr) const {
    if (!Has(name)) {
      if (fallback) return fallback;
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (a string)"));
    }
    const json& v = j_.at(name);
    if (!v.is_string())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a string"));
    return v.get<std::string>();
  }

  int64_t Int(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> fallback) const {
    if (!Has(name)) {
      if (fallback) return *fallback;
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (an integer)"));
    }
    const json& v = j_.at(name);
    int64_t x = 0;
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      x = u > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(u);
    } else if (v.is_number_integer()) {
      x = v.get<int64_t>();
    } else {
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be an integer"));
    }
    if (x < lo || x > hi)
      Fail(ErrorCode::kBadField,
           absl::StrCat("field \"", name, "\" must be in ", lo, "..", hi, "; got ", v.dump()));
    return x;
  }

  uint64_t Seed(const char* name) const {
    const json& v = j_.at(name);
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return v.get<int64_t>();
    Fail(ErrorCode::kBadField,
         absl::StrCat("field \"", name, "\" must be an integer 0..18446744073709551615"));
  }

  bool Bool(const char* name, bool fallback) const {
    if (!Has(name)) return fallback;
    const json& v = j_.at(name);
    if (!v.is_boolean())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be true or false"));
    return v.get<bool>();
  }

  // A list of strings, or one string of comma-separated items.
  std::vector<std::string> StringList(const char* name, bool required) const {
    if (!Has(name)) {
      if (!required) return {};
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (a list of strings)"));
    }
    const json& v = j_.at(name);
    std::vector<std::string> out;
    if (v.is_string()) {
      for (absl::string_view part : absl::StrSplit(v.get<std::string>(), ','))
        out.emplace_back(part);
      return out;
    }
    if (!v.is_array())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a list of strings"));
    for (const json& item : v) {
      if (!item.is_string())
        Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a list of strings"));
      out.push_back(item.get<std::string>());
    }
    return out;
  }

 private:
  const json& j_;
};

using Handler = json (*)(Session&, const Request&);

json CmdHello(Session& s, const Request&);

int GameId(const Request& r) { return static_cast<int>(r.Int("game", 1, INT32_MAX, std::nullopt)); }

json StateOf(Session& s, int id) {
  json state = {{"game", id}};
  state.update(Session::StateJson(s.FindGame(id)));
  return state;
}

json CmdNewGame(Session& s, const Request& r) {
  std::vector<std::string> players = r.StringList("players", true);
  Rules rules = RulesOrThrow(r.String("rules", ""));
  uint64_t seed;
  if (r.Has("seed")) {
    seed = r.Seed("seed");
  } else if (s.options().deterministic_seeds) {
    seed = 0;
  } else {
    std::random_device rd;
    seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }
  GameSession g = s.NewGame(players, rules, seed);
  return StateOf(s, s.AddGame(std::move(g)));
}

json CmdState(Session& s, const Request& r) {
  const int id = GameId(r);
  return StateOf(s, id);
}

json CmdApply(Session& s, const Request& r) {
  const int id = GameId(r);
  GameSession& g = s.FindGame(id);
  Session::Apply(g, r.String("action"));
  return StateOf(s, id);
}

json CmdBestAction(Session& s, const Request& r) {
  const int id = GameId(r);
  GameSession& g = s.FindGame(id);
  std::string level = r.String("level", "");
  const bool apply = r.Bool("apply", false);
  const int player = g.game.current();
  Action a = s.BestAction(g, level);
  std::string text = FormatAction(a);
  json out = {{"action", text},
              {"player", player},
              {"level", level.empty() ? g.seats[player] : LowerStripped(level)},
              {"applied", apply}};
  if (apply) {
    Session::Apply(g, text);
    out["state"] = StateOf(s, id);
  }
  return out;
}

json CmdCloseGame(Session& s, const Request& r) {
  const int id = GameId(r);
  s.CloseGame(id);
  return {{"closed", id}};
}

json CmdHint(Session& s, const Request& r) {
  Sheet sheet = SheetOrThrow(r.String("sheet", kEmptySheet));
  Dice roll = RollOrThrow(r.String("roll"));
  const int rerolls = static_cast<int>(r.Int("rerolls", 0, 2, 2));
  const int64_t top = r.Int("top", 0, INT32_MAX, 0);
  Rules rules = RulesOrThrow(r.String("rules", ""));
  std::vector<Sheet> opponents;
  for (const std::string& o : r.StringList("opponents", false)) opponents.push_back(SheetOrThrow(o));
  if (opponents.size() > static_cast<size_t>(kMaxPlayers - 1))
    Fail(ErrorCode::kBadField, absl::StrCat("at most 3 opponents (R1.4); got ", opponents.size()));
  const bool last_round = r.Bool("last_round", false);
  const int seat = static_cast<int>(r.Int("seat", 1, kMaxPlayers, 1));
  const int turns = static_cast<int>(r.Int("turns", 0, 1000, -1));  // -1: estimated
  std::vector<RankedAction> ranked = s.Hint(sheet, roll, rerolls, rules, r.String("table", ""));
  std::vector<double> win;
  if (!opponents.empty())
    win = s.RankForWinOrFail(sheet, roll, rerolls, rules, opponents, last_round, seat, turns, ranked);
  size_t shown = top > 0 ? std::min<size_t>(top, ranked.size()) : ranked.size();
  json actions = json::array();
  for (size_t i = 0; i < shown; ++i) {
    json a = {{"action", FormatAction(ranked[i].action)}};
    if (!win.empty()) a["win"] = RoundValue(win[i]);
    a["value"] = RoundValue(ranked[i].value);
    actions.push_back(a);
  }
  json out = {{"sheet", FormatSheet(sheet)}, {"roll", FormatDice(roll)}, {"rerolls", rerolls}};
  if (!opponents.empty()) {
    json opp = json::array();
    for (const Sheet& o : opponents) opp.push_back(FormatSheet(o));
    out["opponents"] = opp;
    out["last_round"] = last_round;
  }
  out["actions"] = actions;
  return out;
}

json CmdValue(Session& s, const Request& r) {
  Sheet sheet = SheetOrThrow(r.String("sheet", kEmptySheet));
  Rules rules = RulesOrThrow(r.String("rules", ""));
  return {{"value", RoundValue(s.Value(sheet, rules, r.String("table", "")))}};
}

json CmdQuit(Session& s, const Request&) {
  s.request_quit();
  return {{"quit", true}};
}

struct Command {
  const char* name;
  Handler handler;
};

constexpr Command kCommands[] = {
    {"hello", CmdHello},      {"new_game", CmdNewGame},       {"state", CmdState},
    {"apply", CmdApply},      {"best_action", CmdBestAction}, {"close_game", CmdCloseGame},
    {"hint", CmdHint},        {"value", CmdValue},            {"quit", CmdQuit},
};

json CmdHello(Session& s, const Request&) {
  json commands = json::array();
  for (const Command& c : kCommands) commands.push_back(c.name);
  json seats = json::array({"human"});
  for (const std::string& l : s.Levels()) seats.push_back(l);
  return {{"name", kEngineName},
          {"version", kEngineVersion},
          {"protocol", kProtocolVersion},
          {"commands", commands},
          {"levels", s.Levels()},
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

}  // namespace

std::string HandleLine(Session& session, absl::string_view line) {
  json id = nullptr;
  try {
    if (line.size() > kMaxLine)
      return Dump(ErrorReply(id, ErrorCode::kBadJson,
                             absl::StrCat("request line longer than ", kMaxLine, " bytes")));
    json request = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (request.is_discarded())
      return Dump(ErrorReply(id, ErrorCode::kBadJson, "the line is not valid JSON"));
    if (!request.is_object())
      return Dump(ErrorReply(id, ErrorCode::kBadJson, "a request is a JSON object"));
    if (request.contains("id")) {
      const json& given = request["id"];
      if (!given.is_string() && !given.is_number() && !given.is_null())
        return Dump(ErrorReply(id, ErrorCode::kBadField, "\"id\" must be a number, a string or null"));
      id = given;
    }
    if (!request.contains("cmd") || !request["cmd"].is_string())
      return Dump(ErrorReply(id, ErrorCode::kBadField, "missing field \"cmd\" (a string)"));
    const std::string cmd = request["cmd"].get<std::string>();
    for (const Command& c : kCommands) {
      if (cmd != c.name) continue;
      try {
        json result = c.handler(session, Request(request));
        return Dump({{"id", id}, {"result", std::move(result)}});
      } catch (const EngineError& e) {
        return Dump(ErrorReply(id, e.code, e.message));
      }
    }
    std::vector<std::string> names;
    for (const Command& c : kCommands) names.push_back(c.name);
    return Dump(ErrorReply(id, ErrorCode::kUnknownCommand,
                           absl::StrCat("unknown command \"", cmd, "\"; known: ",
                                        absl::StrJoin(names, ", "))));
  } catch (const std::bad_alloc&) {
    return Dump(ErrorReply(id, ErrorCode::kInternal, "out of memory"));
  } catch (const std::exception& e) {
    return Dump(ErrorReply(id, ErrorCode::kInternal, e.what()));
  } catch (...) {
    return Dump(ErrorReply(id, ErrorCode::kInternal, "unknown error"));
  }
}

}  // namespace penk::engine
