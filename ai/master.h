// Master (issue 11): a fast player improved by rollouts where it is unsure,
// the on-line policy improvement of Tesauro & Galperin (1996). The fast
// player, its base, is `neural` unless named (base=expert: master as it was
// before the net; issue 21 item 3, the default is the strongest fast player:
// master:base=neural beat master:base=expert by +113 Elo, docs/AI.md).
//
// Each decision the base ranks every legal action by its fast win estimate
// (ExpertPlayer::Ranked). When some other actions come within `window` of
// the base's choice, the closest (at most `candidates` in all, the base's
// choice included) are each played out `trials` times to the end of the
// game with the base in every seat, on common dice (ai/rollout.h: PlayOut),
// and master takes the one with the best win share -- leaving the base's
// choice only for an action whose paired lead over it (same dice) exceeds
// `z` standard errors. A rival clearly behind the base's choice stops early.
// Far from the decision's close calls master plays exactly as its base, so
// it is the base plus one step of policy iteration where that step can
// matter.
//
// Deterministic: the rollout dice are keyed by the position (and `seed`), so
// the same game gives the same decision whatever the thread count, unless a
// time bound (`ms`) cuts a rollout short.
#ifndef PENK_AI_MASTER_H_
#define PENK_AI_MASTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ai/ai_players.h"
#include "ai/player.h"
#include "engine/action.h"
#include "engine/game.h"
#include "solver/table_cache.h"

namespace penk {

inline constexpr int kMaxMasterThreads = 64;

// The fast player master ranks with and rolls out (base=NAME).
enum class MasterBase { kExpert, kNeural };

struct MasterParams {
  MasterBase base = MasterBase::kNeural;
  int64_t trials = 216;   // rollouts per candidate, at most (1..100000)
  double window = 0.03;   // rivals within this of the base's win estimate are rolled out
  int candidates = 3;     // at most this many actions rolled out, the base's choice included (2..16)
  double z = 0.5;         // lead over the base's choice needed to switch, in standard errors
  // Rollout threads (1..kMaxMasterThreads); the decision does not depend on
  // it. Inside a parallel loop (penk match --threads T) OpenMP runs the
  // nested region on the calling thread alone.
  int threads = 2;
  int64_t time_ms = 0;    // per decision, 0: none (then deterministic)
  uint64_t seed = 0;      // mixed into the rollout dice
  // Also roll out the exact solitaire policy's choice, however far behind
  // the base's estimate puts it (beyond `candidates`).
  bool solitaire = true;
};

// Parses "master" or "master:key=value:...": keys base (neural, the
// default, or expert: the fast player ranked and rolled out), trials,
// window, cands, z, threads, ms, seed, solitaire (0/1).
absl::StatusOr<MasterParams> ParseMasterName(absl::string_view name);

// What a master player did, for measurements (docs/AI.md).
struct MasterStats {
  int64_t decisions = 0;  // Decide calls
  int64_t rolled = 0;     // decisions with a rollout
  int64_t switched = 0;   // of those, where master left the base's choice
  int64_t trials = 0;     // games played out in all
};

class MasterPlayer : public Player {
 public:
  // `net`: the base's net when params.base is kNeural (MakeBot gives it;
  // none: the built-in net); ignored for base=expert.
  MasterPlayer(std::shared_ptr<TableCache> tables, const MasterParams& params = MasterParams{},
               std::string name = "master", std::shared_ptr<const NeuralNet> net = nullptr);
  std::string name() const override { return name_; }
  Action Decide(const Game& game) override;
  const MasterStats& stats() const { return stats_; }
  // Decide throws Cancelled soon (within one trial per thread) once set.
  void set_cancel(CancelFlag flag) override { cancel_ = std::move(flag); }

 private:
  // The rolled-out choice among `candidates` (the base's first) in `game`;
  // `values` are the base's estimates of them.
  Action Choose(const Game& game, const std::vector<Action>& candidates,
                const std::vector<double>& values);

  std::shared_ptr<TableCache> tables_;
  MasterParams params_;
  std::string name_;
  ExpertParams base_params_;
  std::shared_ptr<const NeuralNet> net_;
  ExpertPlayer base_;  // the base player (expert, or neural with net_)
  // Players of the rollouts, per thread and seat, kept warm across trials
  // (the base is deterministic: its caches change no decision).
  std::vector<std::vector<std::unique_ptr<ExpertPlayer>>> seats_;
  MasterStats stats_;
  CancelFlag cancel_;
};

}  // namespace penk

#endif  // PENK_AI_MASTER_H_
