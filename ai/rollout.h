// Rollouts (issue 11, GNU Backgammon's method; Tesauro & Galperin 1996): each
// candidate decision of a position is played out many times to the end of
// the game with one policy in every seat, and gets the share of games the
// mover won (a tie 1/2, R6.4) with its 95% interval and the mean final
// margin (the mover's score minus the best other score).
//
// Variance reduction, as in gnubg:
//  - common dice: trial t of every candidate draws its dice from the same
//    DiceStream (ai/dice_stream.h) keyed by (seed, t), so differences between
//    candidates are much less noisy than the values themselves;
//  - rotated first roll: the first roll after the decision shows the six
//    base-6 digits of (t + an offset of the seed), so over 6^k trials the
//    first k dice of that roll take every value equally often.
// Candidates clearly behind the leader are dropped early: after each round
// of trials, a candidate whose paired difference to the leader (same trials)
// is below zero by more than 3 standard errors plays no more trials.
// A time bound stops the whole analysis; what was played is reported.
//
// Without a time bound the result depends only on the position, the
// candidates and the options, not on the thread count.
#ifndef PENK_AI_ROLLOUT_H_
#define PENK_AI_ROLLOUT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ai/cancel.h"
#include "ai/player.h"
#include "ai/win_ranking.h"
#include "engine/action.h"
#include "engine/dice.h"
#include "engine/game.h"
#include "solver/table_cache.h"
#include "solver/work_progress.h"

namespace penk {

inline constexpr int64_t kMaxRollouts = 1'000'000;
inline constexpr int64_t kMaxRolloutTimeMs = 3'600'000;
inline constexpr int kMaxRolloutThreads = 256;

struct RolloutOptions {
  int64_t trials = 100;          // per candidate, 1..kMaxRollouts
  std::string policy = "expert"; // MakeBot name playing every seat
  uint64_t seed = 1;
  int threads = 1;               // 1..kMaxRolloutThreads
  int64_t time_ms = 0;           // 0: no bound; else 1..kMaxRolloutTimeMs
  bool drop = true;              // drop candidates clearly behind
  std::shared_ptr<TableCache> tables;
  // Once set, the rollout stops within one trial per thread and returns
  // what it has played (RolloutResult::cancelled).
  CancelFlag cancel;
  // If set, told the trials played (dropped candidates' count as played) of
  // all: candidates x trials.
  WorkProgress* progress = nullptr;
};

struct RolloutCandidate {
  Action action;
  int64_t trials = 0;                     // played
  double win = 0;                         // mover's win share
  double win_low = 0, win_high = 0;       // 95% interval
  double margin = 0;                      // mean final margin
  double margin_low = 0, margin_high = 0; // its 95% interval
  bool dropped = false;                   // clearly behind: stopped early
};

struct RolloutResult {
  // Best first: by win share, then mean margin, then the order given.
  std::vector<RolloutCandidate> candidates;
  bool timed_out = false;  // the time bound stopped it before every trial
  bool cancelled = false;  // the cancel flag stopped it (the trials played are kept)
};

// Plays out each candidate (each legal now in `position`) from `position`.
// The game's dice source does not matter: rollouts draw their own dice.
absl::StatusOr<RolloutResult> Rollout(const Game& position, const std::vector<Action>& candidates,
                                      const RolloutOptions& options);

// The pieces of one trial, for players that roll out with players of their
// own (`master`, ai/master.h), keeping them warm across trials.

// `position` as a game whose dice are fed by the caller (DiceSource::kManual);
// refuses a finished game and a pending roll (nothing to decide).
absl::StatusOr<Game> ManualDiceCopy(const Game& position);

// The dice key of trial `trial` of a rollout seeded `seed`: every candidate's
// trial t meets the same dice.
uint64_t TrialKey(uint64_t seed, int64_t trial);

struct TrialOutcome {
  int share_units = 0;  // the mover's win share in twelfths (Winners::ShareUnits, R6.4)
  int margin = 0;  // the mover's score minus the best other score
  bool done = false;
};

// Called after each decision of a trial (not the candidate): the seat that
// decided, its turn count and the phase it decided in, as they were before.
using DecisionObserver = std::function<void(int seat, int turn, Phase phase)>;

// Plays `candidate` (legal in `start`, a manual-dice game) and then `seats`
// (one player per seat) to the end of the game: later dice from
// DiceStream(key), the first roll after the decision the six base-6 digits of
// `first_roll`. Throws what the players throw (TableUnavailable) and
// std::logic_error if a player breaks the rules.
TrialOutcome PlayOut(const Game& start, const Action& candidate, const std::vector<Player*>& seats,
                     uint64_t key, uint64_t first_roll, const DecisionObserver& observer = nullptr);

// The game of a hint with opponents (`penk hint --opponent`, the engine's
// hint): the query's sheets in seat order, the mover to play `roll` with
// `rerolls` left; turns from the query (-1: the fast estimate's guess from
// the mover's filled cells, else the fewest the sheets allow),
// the last round as the sheets say (R5.2). Refuses what Game::FromPosition
// refuses.
absl::StatusOr<Game> GameOfWinQuery(const WinQuery& query, const Dice& roll, int rerolls);

}  // namespace penk

#endif  // PENK_AI_ROLLOUT_H_
