#include "protocol/protocol.h"

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
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/position_check.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "protocol/json_text.h"
#include "ai/bot.h"
#include "ai/master.h"
#include "ai/rollout.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"
#include "ai/win_ranking.h"
#include "tables/table_file.h"
#include "tables/spread_store.h"
#include "tables/table_store.h"

namespace penk::protocol {

using json = nlohmann::ordered_json;

namespace {

constexpr char kEmptySheet[] = "...../...../...../...../.....";
constexpr size_t kMaxLine = 1 << 20;  // longer request lines are refused

[[noreturn]] void Fail(ErrorCode code, std::string message) {
  throw EngineError{code, std::move(message)};
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
    case ErrorCode::kCancelled: return "cancelled";
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

Objective ObjectiveOrThrow(absl::string_view text) {
  absl::StatusOr<Objective> o = ParseObjective(text);
  if (!o.ok()) Fail(ErrorCode::kBadField, std::string(o.status().message()));
  return *o;
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
      Fail(ErrorCode::kUnknownLevel, absl::StrCat("unknown player ", QuotedInput(raw), "; allowed: human, ",
                                                  absl::StrJoin(levels, ", ")));
    seats.push_back(name);
  }
  return seats;
}

std::shared_ptr<TableCache> MakeTableCache(const SessionOptions& o) {
  return std::make_shared<TableCache>(FileTableLoader(o.table_dir, o.build),
                                      o.table_cache_mb << 20, FileSpreadLoader(o.table_dir, o.build));
}

Session::Session(SessionOptions options)
    : options_(std::move(options)),
      tables_(options_.shared_tables ? options_.shared_tables : MakeTableCache(options_)) {}

void Session::SetAllowBuild(bool allow) {
  // Only the loaders change (the cache is thread-safe): the games of a
  // libpenk context may be deciding on other threads meanwhile.
  BuildPolicy policy = options_.build;
  policy.allow = allow;
  tables_->SetLoaders(FileTableLoader(options_.table_dir, policy),
                      FileSpreadLoader(options_.table_dir, policy));
}

std::vector<std::string> Session::Levels() const {
  if (!options_.levels.empty()) return options_.levels;
  std::vector<std::string> out;
  for (const char* n : kBotNames) out.push_back(n);
  return out;
}

std::shared_ptr<const SolitaireTable> Session::Table(const Rules& rules, const Sheet& sheet,
                                                     const std::string& path_arg,
                                                     Objective objective) {
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
      tables_->Get(TableKey{rules, position->blocked_rows, path, objective});
  if (!table.ok()) Fail(ErrorCode::kTable, std::string(table.status().message()));
  return *std::move(table);
}

std::vector<RankedAction> Session::Hint(const Sheet& sheet, const Dice& roll, int rerolls,
                                        const Rules& rules, const std::string& table_path,
                                        FinishedSheet finished, Objective objective) {
  if (rerolls < 0 || rerolls > 2)
    Fail(ErrorCode::kBadField, absl::StrCat("rerolls must be 0, 1 or 2 (R2.2); got ", rerolls));
  if (sheet.ClosedColumns() >= 2 && finished == FinishedSheet::kRefuse)
    Fail(ErrorCode::kBadPosition,
         absl::StrCat("sheet ", FormatSheet(sheet), " has two closed columns: the game is over (R5.2)"));
  if (sheet.free() == 0) Fail(ErrorCode::kBadPosition, "the sheet has no free cell (R3.6)");
  std::shared_ptr<const SolitaireTable> table = Table(rules, sheet, table_path, objective);
  absl::StatusOr<std::vector<RankedAction>> ranked =
      RankActions(*table, sheet, roll, rerolls, finished);
  if (!ranked.ok()) {
    ErrorCode code = ranked.status().code() == absl::StatusCode::kFailedPrecondition
                         ? ErrorCode::kTable
                         : ErrorCode::kBadPosition;
    Fail(code, std::string(ranked.status().message()));
  }
  return *std::move(ranked);
}

absl::StatusOr<std::pair<std::shared_ptr<const SolitaireTable>, std::shared_ptr<const SpreadTable>>>
Session::SpreadsFor(const Rules& rules, const Sheet& sheet, const std::string& path_arg,
                    Objective objective) {
  // The value table first, as Table() checks and names its errors.
  std::shared_ptr<const SolitaireTable> table = Table(rules, sheet, path_arg, objective);
  const std::string path = options_.fixed_table.empty() ? path_arg : options_.fixed_table;
  // A named file's spread table is beside it and never made there: when
  // missing it is built in memory, as the CLI does for a command; the
  // folder's is built, and saved, as the build policy says (the cache's
  // spread loader, tables/spread_store.h).
  absl::StatusOr<TableCache::Spreads> got =
      tables_->GetSpread(TableKey{rules, table->blocked_rows(), path, objective});
  if (!got.ok()) return got.status();
  return std::make_pair(std::move(got->values), std::move(got->spreads));
}

absl::StatusOr<std::vector<ActionMoments>> Session::Moments(
    const Sheet& sheet, const Dice& roll, int rerolls, const Rules& rules,
    const std::string& table_path, Objective objective, const std::vector<RankedAction>& ranked) {
  if (absl::Status live = SpreadCoversSheet(sheet); !live.ok()) return live;
  auto pair = SpreadsFor(rules, sheet, table_path, objective);
  if (!pair.ok()) return pair.status();
  return RankedMoments(*pair->first, *pair->second, sheet, roll, rerolls, ranked);
}

std::optional<ActionMoments> Session::SheetMoments(const Sheet& sheet, const Rules& rules,
                                                   const std::string& table_path,
                                                   Objective objective, std::string& error) {
  if (sheet.ClosedColumns() >= 2)  // over (R5.2): the score is known (R6)
    return ActionMoments{static_cast<double>(Score(sheet, rules)), 0.0};
  auto pair = SpreadsFor(rules, sheet, table_path, objective);
  absl::StatusOr<double> mean = pair.ok() ? SheetMean(*pair->first, *pair->second, sheet)
                                          : absl::StatusOr<double>(pair.status());
  absl::StatusOr<double> var = pair.ok() ? SheetVariance(*pair->first, *pair->second, sheet)
                                         : absl::StatusOr<double>(pair.status());
  if (!mean.ok() || !var.ok()) {
    error = std::string((mean.ok() ? var : mean).status().message());
    return std::nullopt;
  }
  return ActionMoments{*mean, std::sqrt(*var)};
}

double Session::Value(const Sheet& sheet, const Rules& rules, const std::string& table_path,
                      Objective objective) {
  std::shared_ptr<const SolitaireTable> table = Table(rules, sheet, table_path, objective);
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
  // Both doors (the protocol's hint, libpenk's penk_hint_multi_json) meet
  // the same bound here.
  if (turns < -1 || turns > kMaxTurns)
    Fail(ErrorCode::kBadField,
         absl::StrCat("turns must be 0..", kMaxTurns, ", or -1 to estimate it; got ", turns));
  CheckSheetsOrThrow(sheet, opponents, rules, last_round);
  WinQuery query{sheet, opponents, rules, last_round, seat, turns};
  std::vector<double> win;
  if (absl::Status st = RankForWin(query, roll, rerolls, ranked, win, tables_); !st.ok())
    Fail(st.code() == absl::StatusCode::kUnavailable ? ErrorCode::kTable : ErrorCode::kBadField,
         std::string(st.message()));
  return win;
}

void CheckSheetsOrThrow(const Sheet& sheet, const std::vector<Sheet>& opponents, const Rules& rules,
                        bool last_round) {
  // Positions no game can reach get a reason, not a plausible ranking.
  if (absl::Status st = CheckMoverAndOpponents(sheet, opponents, rules, last_round); !st.ok())
    Fail(ErrorCode::kBadPosition, std::string(st.message()));
}

GameSession Session::NewGame(const std::vector<std::string>& seats, const Rules& rules,
                             uint64_t seed, DiceSource dice, const Position* position) {
  std::vector<std::string> checked = SeatsOrThrow(seats, Levels());
  absl::StatusOr<Game> game;
  if (position) {
    if (position->sheets.size() != checked.size())
      Fail(ErrorCode::kBadPosition, absl::StrCat("the position has ", position->sheets.size(),
                                                 " sheets for ", checked.size(), " players"));
    game = Game::FromPosition(*position, rules, seed, dice);
    if (!game.ok()) Fail(ErrorCode::kBadPosition, std::string(game.status().message()));
  } else {
    game = Game::Create(static_cast<int>(checked.size()), rules, seed, dice);
    if (!game.ok()) Fail(ErrorCode::kBadField, std::string(game.status().message()));
  }
  return GameSession{GameRecord(*game), std::move(checked), seed, {}};
}

Action Session::BestAction(GameSession& g, const std::string& level_arg) {
  if (g.game().over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  const int p = g.game().current();
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
  if (!listed) {
    const std::string unknown = absl::StrCat("unknown AI level ", QuotedInput(level_arg),
                                             "; known: ", absl::StrJoin(levels, ", "));
    if (!options_.levels.empty()) Fail(ErrorCode::kUnknownLevel, unknown);
    // A known player with options ("expert:lambda=2") says what is wrong
    // with them (too long, an option twice, not a number).
    absl::StatusOr<std::unique_ptr<Player>> probe = MakeBot(level, g.game().rules(), 0, tables_);
    if (!probe.ok())
      Fail(ErrorCode::kUnknownLevel,
           absl::StartsWith(level, "expert:") || absl::StartsWith(level, "master:")
               ? std::string(probe.status().message())
               : unknown);
  }
  // master's options are for measurements; the engine bounds what one
  // decision may cost, so that no name buys minutes of CPU.
  if (absl::StartsWith(level, "master:")) {
    absl::StatusOr<MasterParams> m = ParseMasterName(level);
    if (!m.ok()) Fail(ErrorCode::kUnknownLevel, std::string(m.status().message()));
    if (m->trials > kMaxEngineMasterTrials || m->candidates > kMaxEngineMasterCandidates ||
        m->threads > kMaxEngineMasterThreads)
      Fail(ErrorCode::kLimit,
           absl::StrCat("master's options here are bounded: trials 1..", kMaxEngineMasterTrials,
                        ", cands 1..", kMaxEngineMasterCandidates, ", threads 1..",
                        kMaxEngineMasterThreads));
  }
  // Each level keeps a player with its caches: a bounded number per game, so
  // that a client cycling through "expert:lambda=..." cannot grow memory.
  if (!g.bots.count(level) && g.bots.size() >= options_.max_bots_per_game)
    Fail(ErrorCode::kLimit, absl::StrCat("at most ", options_.max_bots_per_game,
                                         " distinct AI levels per game; this game has used ",
                                         g.bots.size()));
  std::unique_ptr<Player>& bot = g.bots[level];
  if (!bot) {
    absl::StatusOr<std::unique_ptr<Player>> made =
        MakeBot(level, g.game().rules(), g.seed + 0x9e3779b97f4a7c15ULL * (g.bots.size() + 1),
                tables_);
    if (!made.ok()) {
      g.bots.erase(level);
      Fail(ErrorCode::kUnknownLevel, std::string(made.status().message()));
    }
    bot = *std::move(made);
    bot->set_cancel(options_.cancel);
  }
  try {
    return bot->Decide(g.game());
  } catch (const TableUnavailable& e) {  // e.g. a blocked-row table with building off
    Fail(ErrorCode::kTable, e.what());
  } catch (const Cancelled& e) {
    Fail(ErrorCode::kCancelled, e.what());
  }
}

void Session::Apply(GameSession& g, absl::string_view text) {
  if (g.game().over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  absl::StatusOr<Action> action = g.game().ParseAction(text);
  if (!action.ok()) Fail(ErrorCode::kIllegalAction, std::string(action.status().message()));
  // Apply() checks legality before changing anything: a refused action
  // leaves the game as it was.
  if (absl::Status s = g.record.Apply(*action); !s.ok())
    Fail(ErrorCode::kIllegalAction, std::string(s.message()));
}

void Session::Roll(GameSession& g, absl::string_view text) {
  if (g.game().over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  if (g.game().dice_source() != DiceSource::kManual)
    Fail(ErrorCode::kIllegalAction,
         "the engine rolls the dice in this game; start it with \"dice\":\"manual\" to give them");
  if (g.game().phase() != Phase::kRoll)
    Fail(ErrorCode::kIllegalAction, "no roll now: the dice on the table are to be kept or marked");
  absl::StatusOr<Dice> dice = ParseRoll(text);
  if (!dice.ok()) Fail(ErrorCode::kBadPosition, std::string(dice.status().message()));
  if (absl::Status s = g.record.Roll(*dice); !s.ok())
    Fail(ErrorCode::kIllegalAction, std::string(s.message()));
}

void Session::Undo(GameSession& g) {
  if (absl::Status s = g.record.Undo(); !s.ok())
    Fail(ErrorCode::kIllegalAction, std::string(s.message()));
}

std::vector<RankedAction> Session::HintForGame(const GameSession& g, const std::string& table_path,
                                               std::vector<double>& win, bool with_win) {
  const Game& game = g.game();
  if (game.over()) Fail(ErrorCode::kIllegalAction, "the game is over");
  if (game.phase() == Phase::kRoll)
    Fail(ErrorCode::kIllegalAction, "the dice are not rolled yet: give the six dice first");
  const int me = game.current();
  const Sheet& sheet = game.sheet(me);
  const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
  // With opponents a sheet with two closed columns still plays the last
  // round (R5.2): each action is worth the final score it leads to.
  std::vector<RankedAction> ranked =
      Hint(sheet, game.dice(), rerolls, game.rules(), table_path,
           game.players() > 1 ? FinishedSheet::kLastTurns : FinishedSheet::kRefuse);
  win.clear();
  if (game.players() > 1 && with_win) {
    std::vector<Sheet> opponents;
    for (int i = 1; i < game.players(); ++i) opponents.push_back(game.sheet((me + i) % game.players()));
    win = RankForWinOrFail(sheet, game.dice(), rerolls, game.rules(), opponents, game.last_round(),
                           me + 1, game.turns(me), ranked);
  }
  return ranked;
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
                {"seed", g.seed},
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

constexpr int64_t kMaxId = int64_t{1} << 53;  // integers a JSON double holds exactly

// Typed access to request fields; a missing or ill-typed field is kBadField.
// Strings never hold a NUL byte: C callers and frontends would see less text
// than we read.
class Request {
 public:
  explicit Request(const json& j) : j_(j) {}

  bool Has(const char* name) const { return j_.contains(name) && !j_.at(name).is_null(); }

  std::string String(const char* name, const char* fallback = nullptr) const {
    if (!Has(name)) {
      if (fallback) return fallback;
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (a string)"));
    }
    return StringOf(name, j_.at(name));
  }

  // A string that must not be empty (actions, dice).
  std::string NonEmpty(const char* name) const {
    std::string v = String(name);
    if (absl::StripAsciiWhitespace(v).empty())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must not be empty",
                                              std::string(name) == "action"
                                                  ? " (the empty keep is written \"-\")"
                                                  : ""));
    return v;
  }

  int64_t Int(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> fallback) const {
    if (!Has(name)) {
      if (fallback) return *fallback;
      Fail(ErrorCode::kBadField, absl::StrCat("missing field \"", name, "\" (an integer)"));
    }
    return IntOf(name, j_.at(name), lo, hi);
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
      for (absl::string_view part : absl::StrSplit(StringOf(name, v), ',')) out.emplace_back(part);
      return out;
    }
    if (!v.is_array())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a list of strings"));
    for (const json& item : v) {
      if (!item.is_string())
        Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a list of strings"));
      out.push_back(StringOf(name, item));
    }
    return out;
  }

  const json& Raw(const char* name) const { return j_.at(name); }

  static std::string StringOf(const char* name, const json& v) {
    if (!v.is_string())
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" must be a string"));
    std::string s = v.get<std::string>();
    if (s.find('\0') != std::string::npos)
      Fail(ErrorCode::kBadField, absl::StrCat("field \"", name, "\" contains a NUL character"));
    return s;
  }

  static int64_t IntOf(const char* name, const json& v, int64_t lo, int64_t hi) {
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

// "position" of new_game: {"sheets":[...],"current":i,"turns":[...],
// "last_round":b,"dice":"...","rerolls_left":n}; unknown keys are refused.
// One ranked action as hint prints it.
json ActionJson(const RankedAction& a, const std::vector<double>& win, size_t i) {
  json out = {{"action", FormatAction(a.action)}};
  if (!win.empty()) out["win"] = RoundValue(win[i]);
  out["value"] = RoundValue(a.value);
  return out;
}

// The best `top` actions (0: all) as hint lists them.
json ActionsJson(const std::vector<RankedAction>& ranked, const std::vector<double>& win,
                 int64_t top) {
  const size_t shown = top > 0 ? std::min<size_t>(top, ranked.size()) : ranked.size();
  json actions = json::array();
  for (size_t i = 0; i < shown; ++i) actions.push_back(ActionJson(ranked[i], win, i));
  return actions;
}

}  // namespace

json BestActionJson(Session& s, GameSession& g, const std::string& level, bool apply) {
  if (g.game().phase() == Phase::kRoll)
    Fail(ErrorCode::kIllegalAction,
         "the dice are not rolled yet: with manual dice the frontend rolls for every seat (roll)");
  const int player = g.game().current();
  Action a = s.BestAction(g, level);
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
  const bool with_win = used == "expert" || absl::StartsWith(used, "expert:");
  try {
    std::vector<double> win;
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

json GameHintJson(Session& s, const GameSession& g, const std::string& table, int64_t top) {
  std::vector<double> win;
  std::vector<RankedAction> ranked = s.HintForGame(g, table, win);
  const Game& game = g.game();
  const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
  json out = {{"player", game.current()},
              {"sheet", FormatSheet(game.sheet(game.current()))},
              {"roll", FormatDice(game.dice())},
              {"rerolls", rerolls}};
  if (game.players() > 1) {
    json opp = json::array();
    for (int i = 1; i < game.players(); ++i)
      opp.push_back(FormatSheet(game.sheet((game.current() + i) % game.players())));
    out["opponents"] = opp;
    out["last_round"] = game.last_round();
  }
  out["actions"] = ActionsJson(ranked, win, top);
  // The sd of the solitaire-optimal play whose mean is each action's value.
  AddMoments(s.Moments(game.sheet(game.current()), game.dice(), rerolls, game.rules(), table, {},
                       ranked),
             {}, out);
  return out;
}

Position PositionOrThrow(const json& j) {
  if (!j.is_object()) Fail(ErrorCode::kBadField, "field \"position\" must be an object");
  static const char* const kKeys[] = {"sheets", "current", "turns", "last_round", "dice",
                                      "rerolls_left"};
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kKeys) known = known || key == k;
    if (!known)
      Fail(ErrorCode::kBadField,
           absl::StrCat("unknown field \"position.", key,
                        "\"; a position has: sheets, current, turns, last_round, dice, rerolls_left"));
  }
  Request r(j);
  Position pos;
  for (const std::string& text : r.StringList("sheets", true)) pos.sheets.push_back(SheetOrThrow(text));
  pos.current = static_cast<int>(r.Int("current", 0, kMaxPlayers - 1, 0));
  if (r.Has("turns")) {
    const json& t = r.Raw("turns");
    if (!t.is_array()) Fail(ErrorCode::kBadField, "field \"position.turns\" must be a list of integers");
    for (const json& x : t) pos.turns.push_back(static_cast<int>(Request::IntOf("position.turns", x, 0, kMaxTurns)));
  }
  if (r.Has("last_round")) pos.last_round = r.Bool("last_round", false);
  if (r.Has("dice")) pos.dice = RollOrThrow(r.NonEmpty("dice"));
  if (r.Has("rerolls_left")) {
    if (!pos.dice) Fail(ErrorCode::kBadField, "field \"position.rerolls_left\" is given only with \"dice\"");
    pos.rerolls_left = static_cast<int>(r.Int("rerolls_left", 0, 2, 2));
  }
  return pos;
}

namespace {

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
  const std::string dice = r.String("dice", "engine");
  if (dice != "engine" && dice != "manual")
    Fail(ErrorCode::kBadField, absl::StrCat("field \"dice\" must be \"engine\" or \"manual\"; got \"",
                                            dice.substr(0, 40), "\""));
  std::optional<Position> position;
  if (r.Has("position")) position = PositionOrThrow(r.Raw("position"));
  GameSession g = s.NewGame(players, rules, seed,
                            dice == "manual" ? DiceSource::kManual : DiceSource::kEngine,
                            position ? &*position : nullptr);
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

json CmdCloseGame(Session& s, const Request& r) {
  const int id = GameId(r);
  s.CloseGame(id);
  return {{"closed", id}};
}

// hint's "rollouts" (trials per candidate), "candidates" (the best K by the
// fast estimate, 0: all) and "time_ms" (the bound of the whole analysis).
struct RolloutFields {
  int64_t trials = 0;  // 0: no rollouts
  int64_t candidates = 0;
  int64_t time_ms = kDefaultRolloutTimeMs;
};

RolloutFields RolloutFieldsOf(const Request& r) {
  RolloutFields f;
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

// The best candidates of `ranked` played out (ai/rollout.h) by expert in
// every seat: "rollouts" and the rolled-out "actions", best first, each with
// its fast estimate ("win", "value") and its "rollout".
void AddRollouts(Session& s, const Game& game, const std::vector<RankedAction>& ranked,
                 const std::vector<double>& win, const RolloutFields& f, json& out) {
  if (!s.options().expert_hints)
    Fail(ErrorCode::kBadField, "rollouts are off in this session");
  const size_t k = f.candidates > 0 ? std::min<size_t>(f.candidates, ranked.size()) : ranked.size();
  std::vector<Action> candidates;
  for (size_t i = 0; i < k; ++i) candidates.push_back(ranked[i].action);
  RolloutOptions o;
  o.trials = f.trials;
  o.time_ms = f.time_ms;
  o.tables = s.tables();
  o.cancel = s.options().cancel;
  absl::StatusOr<RolloutResult> r = Rollout(game, candidates, o);
  if (!r.ok())
    Fail(r.status().code() == absl::StatusCode::kCancelled     ? ErrorCode::kCancelled
         : r.status().code() == absl::StatusCode::kUnavailable ? ErrorCode::kTable
         : r.status().code() == absl::StatusCode::kInvalidArgument ? ErrorCode::kBadPosition
                                                                   : ErrorCode::kInternal,
         std::string(r.status().message()));
  out["rollouts"] = {{"trials", f.trials}, {"policy", o.policy}, {"seed", o.seed},
                     {"candidates", k}, {"time_ms", f.time_ms}, {"timed_out", r->timed_out}};
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
}

json CmdHint(Session& s, const Request& r) {
  const int64_t top = r.Int("top", 0, INT32_MAX, 0);
  const std::string table = r.String("table", "");
  const RolloutFields rollouts = RolloutFieldsOf(r);
  if (r.Has("game")) {
    // Everything else comes from the game: giving it too would be two answers.
    for (const char* f :
         {"sheet", "roll", "rerolls", "rules", "opponents", "last_round", "seat", "turns", "objective"})
      if (r.Has(f))
        Fail(ErrorCode::kBadField, absl::StrCat("field \"", f, "\" cannot be given with \"game\": "
                                                "the hint is for the game's position"));
    const int id = GameId(r);
    json out = {{"game", id}};
    const GameSession& g = s.FindGame(id);
    out.update(GameHintJson(s, g, table, top));
    if (rollouts.trials > 0) {
      if (g.game().players() < 2)
        Fail(ErrorCode::kBadField, "rollouts play games against opponents: this game has none");
      std::vector<double> win;
      std::vector<RankedAction> ranked = s.HintForGame(g, table, win);
      AddRollouts(s, g.game(), ranked, win, rollouts, out);
    }
    return out;
  }
  Sheet sheet = SheetOrThrow(r.String("sheet", kEmptySheet));
  Dice roll = RollOrThrow(r.NonEmpty("roll"));
  const int rerolls = static_cast<int>(r.Int("rerolls", 0, 2, 2));
  Rules rules = RulesOrThrow(r.String("rules", ""));
  std::vector<Sheet> opponents;
  for (const std::string& o : r.StringList("opponents", false)) opponents.push_back(SheetOrThrow(o));
  if (opponents.size() > static_cast<size_t>(kMaxPlayers - 1))
    Fail(ErrorCode::kBadField, absl::StrCat("at most 3 opponents (R1.4); got ", opponents.size()));
  if (opponents.empty() && rollouts.trials > 0)
    Fail(ErrorCode::kBadField, "field \"rollouts\" needs \"opponents\": rollouts play games against them");
  if (opponents.empty())
    for (const char* f : {"last_round", "seat", "turns"})
      if (r.Has(f))
        Fail(ErrorCode::kBadField,
             absl::StrCat("field \"", f, "\" needs \"opponents\": it describes a game with others"));
  const bool last_round = r.Bool("last_round", false);
  const int seat = static_cast<int>(r.Int("seat", 1, static_cast<int64_t>(opponents.size()) + 1, 1));
  const int turns = static_cast<int>(r.Int("turns", 0, kMaxTurns, -1));  // -1: estimated
  const Objective objective = ObjectiveOrThrow(r.String("objective", "mean"));
  if (objective.is_target() && !opponents.empty())
    Fail(ErrorCode::kBadField, "field \"objective\" target=X is a solitaire objective; with "
                               "\"opponents\" hints rank by the chance of winning");
  if (!opponents.empty()) CheckSheetsOrThrow(sheet, opponents, rules, last_round);
  std::vector<RankedAction> ranked =
      s.Hint(sheet, roll, rerolls, rules, table,
             opponents.empty() ? FinishedSheet::kRefuse : FinishedSheet::kLastTurns, objective);
  std::vector<double> win;
  if (!opponents.empty())
    win = s.RankForWinOrFail(sheet, roll, rerolls, rules, opponents, last_round, seat, turns, ranked);
  json out = {{"sheet", FormatSheet(sheet)}, {"roll", FormatDice(roll)}, {"rerolls", rerolls}};
  if (!opponents.empty()) {
    json opp = json::array();
    for (const Sheet& o : opponents) opp.push_back(FormatSheet(o));
    out["opponents"] = opp;
    out["last_round"] = last_round;
  }
  if (objective.is_target()) out["objective"] = FormatObjective(objective);
  out["actions"] = ActionsJson(ranked, win, top);
  // Each action's sd (and a target's mean), as `penk hint --json`; with
  // opponents the sd of the solitaire-optimal play whose mean is "value".
  AddMoments(s.Moments(sheet, roll, rerolls, rules, table, objective, ranked), objective, out);
  if (rollouts.trials > 0) {
    WinQuery query{sheet, opponents, rules, last_round, seat, turns};
    absl::StatusOr<Game> game = GameOfWinQuery(query, roll, rerolls);
    if (!game.ok()) Fail(ErrorCode::kBadPosition, std::string(game.status().message()));
    AddRollouts(s, *game, ranked, win, rollouts, out);
  }
  return out;
}

json CmdValue(Session& s, const Request& r) {
  Sheet sheet = SheetOrThrow(r.String("sheet", kEmptySheet));
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
      {"new_game", CmdNewGame, {"players", "rules", "seed", "dice", "position"}},
      {"state", CmdState, {"game"}},
      {"apply", CmdApply, {"game", "action"}},
      {"roll", CmdRoll, {"game", "dice"}},
      {"undo", CmdUndo, {"game"}},
      {"best_action", CmdBestAction, {"game", "level", "apply"}},
      {"close_game", CmdCloseGame, {"game"}},
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
  json info = json::array();
  for (const LevelInfo& l : kLevels) {
    const std::vector<std::string> allowed = s.Levels();
    if (std::find(allowed.begin(), allowed.end(), l.name) == allowed.end()) continue;
    json aliases = json::array();
    if (*l.alias) aliases.push_back(l.alias);
    // Strength (docs/AI.md, the ladder): logistic Elo in two-player games,
    // greedy = 0, with its 95% interval, measured by `penk match`.
    info.push_back({{"name", l.name},
                    {"aliases", aliases},
                    {"description", l.description},
                    {"elo", std::lround(l.elo)},
                    {"elo_ci95", {std::lround(l.elo_low), std::lround(l.elo_high)}}});
  }
  return {{"name", kEngineName},
          {"version", kEngineVersion},
          {"protocol", kProtocolVersion},
          {"commands", commands},
          {"levels", s.Levels()},
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
      for (const auto& item : request.items()) {
        const std::string& key = item.key();  // a plain name: clang 14 cannot capture bindings
        if (key == "id" || key == "cmd") continue;
        if (std::find_if(c.fields.begin(), c.fields.end(),
                         [&](const char* f) { return key == f; }) != c.fields.end())
          continue;
        return Dump(ErrorReply(
            id, ErrorCode::kBadField,
            absl::StrCat("unknown field \"", key.substr(0, 40), key.size() > 40 ? "..." : "",
                         "\" for ", c.name, "; its fields: ",
                         c.fields.empty() ? "none" : absl::StrJoin(c.fields, ", "),
                         " (and id, cmd)")));
      }
      try {
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
