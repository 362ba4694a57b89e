// An engine session (docs/PROTOCOL.md): the engine core the protocol and
// the C library share -- tables through one TableCache, solitaire hints and
// values with their spreads, hints with opponents, games kept by id, the AI's
// decisions. Every function reports failure as an EngineError
// (protocol/errors.h).
#ifndef PENK_PROTOCOL_SESSION_H_
#define PENK_PROTOCOL_SESSION_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ai/cancel.h"
#include "ai/player.h"
#include "ai/win_ranking.h"
#include "engine/action.h"
#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "nlohmann/json.hpp"
#include "protocol/errors.h"
#include "solver/advisor.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"
#include "solver/table_cache.h"
#include "solver/work_progress.h"
#include "tables/build_policy.h"

namespace penk::protocol {

inline constexpr size_t kMaxBotsPerGame = 8;
// Turns a player has played, as a request may give them (a game has at most
// 25 turns a player, R3.6, so this bounds only nonsense).
inline constexpr int kMaxTurns = 1000;
// master with options (ai/master.h) in best_action: at most this much work
// per decision (the default master: 216 trials, 3 candidates, 2 threads).
inline constexpr int64_t kMaxEngineMasterTrials = 1000;
inline constexpr int kMaxEngineMasterCandidates = 4;
inline constexpr int kMaxEngineMasterThreads = 2;
// hint's rollouts without "time_ms": the session answers within this bound.
inline constexpr int64_t kDefaultRolloutTimeMs = 10'000;

struct SessionOptions {
  // Folder of the default tables (empty: DefaultTableDir(), i.e.
  // $PENK_TABLE_DIR or tables/ beside the binary).
  std::string table_dir;
  // Whether requests may name a table file ("table" field).
  bool allow_table_paths = true;
  // Which missing default tables are built (about 10 s each) and saved
  // (tables/build_policy.h; build.allow = false: none); a request needing
  // one that is not (hint, value, best_action of optimal or expert, hints
  // with opponents) gets table_error naming the file and why.
  BuildPolicy build;
  // Memory cap of the session's table cache (least recently used evicted).
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
  // If set, the session uses this cache (thread-safe) instead of one of its
  // own, and table_dir, build and table_cache_mb are its owner's
  // business: `penk serve` gives all its connections one cache, so the memory
  // cap holds for the whole server, not per connection.
  std::shared_ptr<TableCache> shared_tables;
  // Distinct AI levels one game may ask best_action for (each keeps a
  // player with its caches); one more is refused with `limit`.
  size_t max_bots_per_game = kMaxBotsPerGame;
  // If not empty, the only AI levels accepted (fuzzing: no table-hungry bots).
  std::vector<std::string> levels;
  // If not empty, every table request uses this file (fuzzing, tests).
  std::string fixed_table;
  size_t max_games = 256;
  // new_game without "seed": seed 0 instead of a random seed (fuzzing).
  bool deterministic_seeds = false;
  // Whether hints with opponents (expert's win estimates) are served: they
  // may need exact tables of any blocked rows (fuzzers turn them off).
  bool expert_hints = true;
  // If set, long work (hint's rollouts, master's best_action) stops once it
  // is set and the request is answered `cancelled`: `penk serve` sets it when
  // the connection's client has gone or the server is stopping.
  CancelFlag cancel;
};

// A game with its seats: "human" or an AI level per seat, and the AI
// players created so far (by level; they keep caches between decisions).
struct GameSession {
  GameRecord record;  // the game with its history; undo takes steps back
  const Game& game() const { return record.game(); }
  std::vector<std::string> seats;
  uint64_t seed = 0;
  std::map<std::string, std::unique_ptr<Player>> bots;
  // new_game's "position" as given, when the game was set up part-way: what
  // `export` writes, since the start's dice may be the position's or the
  // engine's first roll (which the seed gives again).
  std::optional<Position> position;
};

class Session {
 public:
  explicit Session(SessionOptions options = {});
  const SessionOptions& options() const { return options_; }

  // The AI levels this session accepts (kBotNames unless restricted).
  std::vector<std::string> Levels() const;

  // --- The core; every function throws EngineError. ---
  // The table for `sheet` (its blocked rows, R4.2) under `rules`, from
  // `path` (only read) or else the default file of the table folder; through
  // the session's table cache. `objective`: what its values are (the
  // expected score, or a target's probability, solver/objective.h).
  std::shared_ptr<const SolitaireTable> Table(const Rules& rules, const Sheet& sheet,
                                              const std::string& path, Objective objective = {});
  // `finished`: kLastTurns when opponents are given, so that a sheet with two
  // closed columns can still be ranked for its last-round turn (R5.2).
  std::vector<RankedAction> Hint(const Sheet& sheet, const Dice& roll, int rerolls,
                                 const Rules& rules, const std::string& table_path,
                                 FinishedSheet finished = FinishedSheet::kRefuse,
                                 Objective objective = {});
  double Value(const Sheet& sheet, const Rules& rules, const std::string& table_path,
               Objective objective = {});
  // The expected final score and its standard deviation after each of
  // `ranked` (from Hint on the same arguments), the table's policy playing on
  // (solver/score_spread.h; a target's means are not its values). The spread
  // table is read beside the value table, or built (as tables are: saved in
  // the table folder, only when building is on). An error when it cannot be
  // had, or for the last turn of a sheet with two closed columns (with
  // opponents, R5.2): the caller reports it beside the hint (a hint does not
  // fail for its sd). With opponents, the sd of the solitaire-optimal play
  // whose mean is the hint's "value".
  absl::StatusOr<std::vector<ActionMoments>> Moments(const Sheet& sheet, const Dice& roll,
                                                     int rerolls, const Rules& rules,
                                                     const std::string& table_path,
                                                     Objective objective,
                                                     const std::vector<RankedAction>& ranked);
  // Hint and Moments on the same arguments (solitaire: kRefuse), from one
  // solve of the turn when the spread table is there (solver/score_spread.h
  // RankWithMoments): the same ranking, errors and moments as the two calls.
  struct RankedHint {
    std::vector<RankedAction> ranked;
    absl::StatusOr<std::vector<ActionMoments>> moments;
  };
  RankedHint HintWithMoments(const Sheet& sheet, const Dice& roll, int rerolls, const Rules& rules,
                             const std::string& table_path, Objective objective);
  // The same at the start of a turn on `sheet`: {mean, sd}; a finished sheet's
  // score with sd 0. Empty with `error` as above.
  std::optional<ActionMoments> SheetMoments(const Sheet& sheet, const Rules& rules,
                                            const std::string& table_path, Objective objective,
                                            std::string& error);
  // Multiplayer hint (ai/win_ranking.h, as `penk hint --opponent`):
  // re-ranks `ranked` (from Hint) by expert's estimated probability of
  // winning and returns those estimates in the new order. `opponents` are the other sheets in turn order
  // after the mover, `seat` the mover's seat (1-based), `turns` the turns the
  // mover has played (-1: estimated from its sheet).
  WinFigures RankForWinOrFail(const Sheet& sheet, const Dice& roll, int rerolls,
                                 const Rules& rules, const std::vector<Sheet>& opponents,
                                 bool last_round, int seat, int turns,
                                 std::vector<RankedAction>& ranked);

  // Loads, or builds as the build policy allows, the value table of each set
  // of `blocked` rows (bit k-1: row k) under `rules` and `objective`, and
  // with `spreads` its spread table, so that later requests find them ready
  // (protocol 3's prepare). Stops between tables once `cancel` is set
  // (kCancelled, the tables ready so far as "partial"); kTable when one
  // cannot be had. Returns, per set, whether it had to be loaded (false: it
  // was in memory already).
  std::vector<bool> Prepare(const Rules& rules, const std::vector<uint32_t>& blocked,
                            Objective objective, bool spreads, const CancelFlag& cancel,
                            WorkProgress* progress);

  // A new game: 1-4 seats, each "human" or an AI level; from the start, or
  // from `position` (checked: engine/position_check.h, Game::FromPosition).
  GameSession NewGame(const std::vector<std::string>& seats, const Rules& rules, uint64_t seed,
                      DiceSource dice = DiceSource::kEngine, const Position* position = nullptr);
  // The AI's decision for the player to move; `level` empty: the seat's level.
  // `cancel` (null: the session's) stops master's rollouts: kCancelled.
  Action BestAction(GameSession& g, const std::string& level, CancelFlag cancel = nullptr);
  // Applies an action in R7 notation ("stop", a keep, a marking, fail:v).
  static void Apply(GameSession& g, absl::string_view action);
  // The six physical dice of the next roll (games with manual dice).
  static void Roll(GameSession& g, absl::string_view dice);
  // Takes back the last decision or roll.
  static void Undo(GameSession& g);
  // What the advisor says for the player to move, everything taken from the
  // game (sheets, opponents in turn order, seat, turns, last round): the
  // ranking of Hint, re-ranked by RankForWinOrFail with opponents when
  // `with_win` (`win` then filled).
  std::vector<RankedAction> HintForGame(const GameSession& g, const std::string& table_path,
                                        WinFigures& win, bool with_win = true);
  static nlohmann::ordered_json StateJson(const GameSession& g);

  // --- Games kept by the protocol, by id. ---
  // Thread-safe (protocol 3 runs requests on several threads); a game itself
  // is used by one request at a time (the dispatcher's order per game).
  int AddGame(GameSession g);
  GameSession& FindGame(int id);
  void CloseGame(int id);
  size_t game_count() const;

  // The session's table cache, shared with its AI players.
  const std::shared_ptr<TableCache>& tables() const { return tables_; }
  // Building of missing default tables on or off from now on (the C API).
  void SetAllowBuild(bool allow);

  // Forgets every game and the quit request; keeps the loaded tables.
  void Reset();

  bool quit_requested() const { return quit_; }
  void request_quit() { quit_ = true; }

  // The protocol this session speaks (hello's "protocol" sets it), and the
  // latest it may: 2 unless a dispatcher (protocol/dispatch.h) serves it.
  int protocol() const { return protocol_; }
  int max_protocol() const { return max_protocol_; }
  void set_protocol(int p) { protocol_ = p; }
  void set_max_protocol(int p) { max_protocol_ = p; }

 private:
  // Hint's checks of what is asked, before any table is looked at.
  void CheckHintAsked(const Sheet& sheet, int rerolls, FinishedSheet finished);
  // The spread table of the value table of (rules, sheet's blocked rows,
  // path, objective), with the value table; errors as text.
  absl::StatusOr<std::pair<std::shared_ptr<const SolitaireTable>,
                           std::shared_ptr<const SpreadTable>>>
  SpreadsFor(const Rules& rules, const Sheet& sheet, const std::string& path, Objective objective);

  SessionOptions options_;
  // Value and spread tables, under one cap; possibly shared with other
  // sessions (options_.shared_tables), so nothing else here is shared state.
  std::shared_ptr<TableCache> tables_;
  mutable std::mutex games_mutex_;
  std::map<int, GameSession> games_;  // nodes stay put: a found game outlives others' changes
  int next_game_ = 1;
  std::atomic<bool> quit_{false};
  std::atomic<int> protocol_{2};
  std::atomic<int> max_protocol_{2};
};

// A seed for a game asked for without one: random, below 2^53 so that a
// JavaScript client's JSON.parse keeps it exactly and can replay the game
// (a double holds integers up to 2^53). The one source of such seeds, for
// the protocol's new_game and libpenk's penk_game_create_random.
uint64_t RandomGameSeed();

// The table cache of `options` (value and spread tables from its table
// folder, built as its build policy says, under its memory cap): a
// session's own, or the one a server shares among its connections.
std::shared_ptr<TableCache> MakeTableCache(const SessionOptions& options);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_SESSION_H_
