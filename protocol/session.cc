#include "protocol/session.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ai/bot.h"
#include "ai/master.h"
#include "ai/win_ranking.h"
#include "engine/position_check.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "protocol/inputs.h"
#include "solver/solitaire_state.h"
#include "tables/spread_store.h"
#include "tables/table_store.h"

namespace penk::protocol {

uint64_t RandomGameSeed() {
  std::random_device device;
  const uint64_t bits = (static_cast<uint64_t>(device()) << 32) ^ device();
  return bits & ((uint64_t{1} << 53) - 1);
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

void Session::CheckHintAsked(const Sheet& sheet, int rerolls, FinishedSheet finished) {
  if (rerolls < 0 || rerolls > 2)
    Fail(ErrorCode::kBadField, absl::StrCat("rerolls must be 0, 1 or 2 (R2.2); got ", rerolls));
  if (sheet.ClosedColumns() >= 2 && finished == FinishedSheet::kRefuse)
    Fail(ErrorCode::kBadPosition,
         absl::StrCat("sheet ", FormatSheet(sheet), " has two closed columns: the game is over (R5.2)"));
  if (sheet.free() == 0) Fail(ErrorCode::kBadPosition, "the sheet has no free cell (R3.6)");
}

std::vector<RankedAction> Session::Hint(const Sheet& sheet, const Dice& roll, int rerolls,
                                        const Rules& rules, const std::string& table_path,
                                        FinishedSheet finished, Objective objective) {
  CheckHintAsked(sheet, rerolls, finished);
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

Session::RankedHint Session::HintWithMoments(const Sheet& sheet, const Dice& roll, int rerolls,
                                             const Rules& rules, const std::string& table_path,
                                             Objective objective) {
  const FinishedSheet finished = FinishedSheet::kRefuse;
  CheckHintAsked(sheet, rerolls, finished);
  // The value table first, as Hint checks and names its errors; a position
  // it refuses is refused by Hint below before any spread table is sought.
  std::shared_ptr<const SolitaireTable> table = Table(rules, sheet, table_path, objective);
  if (SpreadCoversSheet(sheet).ok() && table->Value(sheet).ok() && roll.size() == kDice) {
    // A spread table that cannot be had is the sd's error only.
    auto pair = SpreadsFor(rules, sheet, table_path, objective);
    if (!pair.ok()) {
      std::vector<RankedAction> ranked =
          Hint(sheet, roll, rerolls, rules, table_path, finished, objective);
      return {std::move(ranked), pair.status()};
    }
    absl::StatusOr<RankedWithMoments> both =
        RankWithMoments(*pair->first, *pair->second, sheet, roll, rerolls);
    if (both.ok()) return {std::move(both->ranked), std::move(both->moments)};
    // Not expected after the checks above; the two calls below say why.
  }
  std::vector<RankedAction> ranked =
      Hint(sheet, roll, rerolls, rules, table_path, finished, objective);
  absl::StatusOr<std::vector<ActionMoments>> moments =
      Moments(sheet, roll, rerolls, rules, table_path, objective, ranked);
  return {std::move(ranked), std::move(moments)};
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

WinFigures Session::RankForWinOrFail(const Sheet& sheet, const Dice& roll, int rerolls,
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
  WinFigures win;
  if (absl::Status st = RankForWin(query, roll, rerolls, ranked, win, tables_); !st.ok())
    Fail(st.code() == absl::StatusCode::kUnavailable ? ErrorCode::kTable : ErrorCode::kBadField,
         std::string(st.message()));
  return win;
}

std::vector<bool> Session::Prepare(const Rules& rules, const std::vector<uint32_t>& blocked,
                                   Objective objective, bool spreads, const CancelFlag& cancel,
                                   WorkProgress* progress) {
  if (!options_.fixed_table.empty())
    Fail(ErrorCode::kBadField, "this session serves one fixed table: nothing to prepare");
  std::vector<bool> loaded;
  for (size_t i = 0; i < blocked.size(); ++i) {
    const TableKey key{rules, blocked[i], "", objective};
    if (IsCancelled(cancel))  // the tables made so far stay for later requests
      throw EngineError{ErrorCode::kCancelled,
                        absl::StrCat("cancelled with ", i, " of ", blocked.size(), " tables ready"),
                        {{"ready", i}, {"count", blocked.size()}}};
    if (progress)
      progress->Set(absl::StrCat("table ", i + 1, " of ", blocked.size(), ": ",
                                 DescribeTableKey(key)),
                    static_cast<int64_t>(i), static_cast<int64_t>(blocked.size()));
    const bool held = tables_->Contains(key) && (!spreads || tables_->ContainsSpread(key));
    absl::Status st = tables_->Get(key).status();
    if (st.ok() && spreads) st = tables_->GetSpread(key).status();
    if (!st.ok()) Fail(ErrorCode::kTable, std::string(st.message()));
    loaded.push_back(!held);
  }
  if (progress)
    progress->Set(absl::StrCat(blocked.size(), " tables ready"), static_cast<int64_t>(blocked.size()),
                  static_cast<int64_t>(blocked.size()));
  return loaded;
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
  return GameSession{GameRecord(*game), std::move(checked), seed, {},
                     position ? std::optional<Position>(*position) : std::nullopt};
}

Action Session::BestAction(GameSession& g, const std::string& level_arg, CancelFlag cancel) {
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
  }
  // The flag of this request: a player keeps it only for this decision.
  bot->set_cancel(cancel ? std::move(cancel) : options_.cancel);
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
                                               WinFigures& win, bool with_win) {
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
  win = WinFigures{};
  if (game.players() > 1 && with_win) {
    std::vector<Sheet> opponents;
    for (int i = 1; i < game.players(); ++i) opponents.push_back(game.sheet((me + i) % game.players()));
    win = RankForWinOrFail(sheet, game.dice(), rerolls, game.rules(), opponents, game.last_round(),
                           me + 1, game.turns(me), ranked);
  }
  return ranked;
}

int Session::AddGame(GameSession g) {
  std::lock_guard<std::mutex> lock(games_mutex_);
  if (games_.size() >= options_.max_games)
    Fail(ErrorCode::kLimit, absl::StrCat("at most ", options_.max_games,
                                         " games at once; close_game some first"));
  const int id = next_game_++;
  games_.emplace(id, std::move(g));
  return id;
}

GameSession& Session::FindGame(int id) {
  std::lock_guard<std::mutex> lock(games_mutex_);
  auto it = games_.find(id);
  if (it == games_.end()) Fail(ErrorCode::kUnknownGame, absl::StrCat("no game ", id));
  return it->second;
}

size_t Session::game_count() const {
  std::lock_guard<std::mutex> lock(games_mutex_);
  return games_.size();
}

void Session::Reset() {
  std::lock_guard<std::mutex> lock(games_mutex_);
  games_.clear();
  next_game_ = 1;
  quit_ = false;
}

void Session::CloseGame(int id) {
  std::lock_guard<std::mutex> lock(games_mutex_);
  if (games_.erase(id) == 0) Fail(ErrorCode::kUnknownGame, absl::StrCat("no game ", id));
}

}  // namespace penk::protocol
