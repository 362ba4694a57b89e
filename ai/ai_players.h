// The table-based AI players (issue 4): `optimal`, the exact solitaire-optimal
// policy on the player's own sheet, and `expert`, which plays to win.
//
// Both solve each turn with the turn expectimax (solver/turn_solver.h); only
// the leaf -- the value of the position after the marking or failure (R3) --
// differs. The exact solitaire tables come from the TableCache the player is
// given (solver/table_cache.h), one table per set of rows blocked by
// opponents' PENKs (R4.2); Decide throws TableUnavailable when a table it
// needs cannot be had. A solved turn is kept until the position changes, so the keeps of a
// turn (R2.2) and its marking cost one solve.
#ifndef PENK_AI_AI_PLAYERS_H_
#define PENK_AI_AI_PLAYERS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/action.h"
#include "engine/game.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "ai/calibration_map.h"
#include "ai/neural_features.h"
#include "ai/neural_net.h"
#include "ai/player.h"
#include "ai/win_ranking.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"
#include "solver/turn_solver.h"

namespace penk {

// Optimal: maximises its own expected final score as if alone (the solitaire
// DP), on the table of its sheet's blocked rows. Ignores the other sheets and
// the end of the game by other players (R5.2).
class OptimalPlayer : public Player {
 public:
  explicit OptimalPlayer(std::shared_ptr<TableCache> tables);
  std::string name() const override { return "optimal"; }
  Action Decide(const Game& game) override;

  // On a hand-made sheet (tests, hints): the value of the turn about to start,
  // and the value after circling `cells` (0: after failing on column `face`).
  double StartValue(const Sheet& sheet, const Rules& rules);
  double ValueAfter(const Sheet& sheet, const Rules& rules, uint32_t cells, int face = 0);

 private:
  void Solve(const Sheet& sheet, const Rules& rules);
  double MarkValue(uint32_t cells) const;
  double FailValue(int face) const;

  std::shared_ptr<TableCache> tables_;
  std::unique_ptr<TurnValues> turn_;
  bool solved_ = false;
  Sheet sheet_;
  Rules rules_;
  std::shared_ptr<const SolitaireTable> table_;  // kept while used, evicted or not
  ColumnCodes codes_{};
};

// What `expert` takes into account; each part can be switched off to measure
// what it gains (MakeBot names such as "expert:lambda=0:race=0").
struct ExpertParams {
  // Weight of our sheet's solitaire potential (table value minus score) in
  // its worth: 0 = score only (fast, greedy-like), 1 = full solitaire value
  // (patient). Measured: any weight above 0 loses games (docs/AI.md).
  double lambda = 0;
  // The same weight for the opponents' sheets (negative: = lambda). Their
  // potential is what our PENKs take from them (R4.2): this is the weight of
  // denial. Tuned by self-play against greedy (docs/AI.md).
  double lambda_opp = 0.3;
  // Count only the change of the opponents' potential by our PENKs (their
  // potential now is subtracted): the estimate is then 1/2 at 0-0.
  bool relative = true;
  // Points per remaining turn: the win-probability estimate is
  // Phi((M_me - M_opp) / (sigma * sqrt(R))), R = max(1, horizon - turns played)
  // an estimate of the turns left to us.
  double sigma = 9;
  double horizon = 10;
  // Count the opponents' worth (and so their losses from our PENKs, R4.2).
  bool opponents = true;
  // Last round (R5.2): maximise the exact probability of winning.
  bool exact_final = true;
  // A marking that starts the last round: value it by the exact final-turn
  // model (we play no more; later seats get one best-response turn each).
  bool race = true;
};

// Parses "expert" or "expert:key=value:...": keys lambda, lopp (lambda_opp),
// sigma, horizon, opp, final, race (0/1 for the switches).
absl::StatusOr<ExpertParams> ParseExpertName(absl::string_view name);
// "neural" or "neural:key=value:...": the same keys; the net is the leaf.
absl::StatusOr<ExpertParams> ParseNeuralName(absl::string_view name);

// Probability-like share of the win of a player whose final score is
// `threshold`, against one opponent on `sheet` who plays one last turn to beat
// it: the opponent maximises P(score > threshold) + P(score == threshold) / 2
// (R6.4 with two winners: half each), and this returns 1 minus that maximum. `turn` is
// scratch space.
double ShareAgainstFinalTurn(const Sheet& sheet, int threshold, const Rules& rules,
                             TurnValues& turn);

// Expert: plays to win. Each turn is a turn expectimax whose leaf estimates
// the probability of winning after the marking (docs/AI.md):
//  - worth of a sheet M = score + lambda * (solitaire value - score), from the
//    exact table of its blocked rows (lambda_opp for the opponents' sheets);
//  - the margin's scale grows with the square root of the turns left;
//  - opponents' sheets after our PENKs cross their free cells (R4.2);
//  - estimate = prod over opponents of Phi((M_me - M_opp) / sigma);
//  - a position after which we play no more (last round, or the marking
//    starts it, R5.2): the win share given our final score, the fixed scores
//    of seats that have finished and one best-response turn for each later
//    seat (exact with two players).
// Solitaire (one player): plays like `optimal`.
// What expert looks at (from a Game, or hand-made by `penk hint`).
struct ExpertView {
  std::array<Sheet, kMaxPlayers> sheets{};  // by seat
  int players = 2;
  int me = 0;              // seat to move
  bool last_round = false; // R5.2; seats before `me` have then finished
  int turns = 0;           // turns `me` has played
  Rules rules;
  bool operator==(const ExpertView&) const = default;
  static ExpertView Of(const Game& game);
};

// With a net (`neural`, issue 21) the leaf of every position after which
// the game goes on is the net's win share of our seat (ai/neural_net.h)
// instead of the normal model; the last round and the marking that starts it
// keep the exact final-turn model above, which the net cannot beat.
class ExpertPlayer : public Player {
 public:
  explicit ExpertPlayer(std::shared_ptr<TableCache> tables,
                        const ExpertParams& params = ExpertParams{}, std::string name = "expert",
                        std::shared_ptr<const NeuralNet> net = nullptr);
  std::string name() const override { return name_; }
  Action Decide(const Game& game) override;
  // Every legal action of a multiplayer game's current decision, best first
  // by the rule Decide uses (front() is its choice), each with its win
  // estimate: the candidates `master` (ai/master.h) rolls out.
  std::vector<WinRankedAction> Ranked(const Game& game);
  // After a decision of a multiplayer game: the win estimate of the action
  // chosen, and the turn's start value (the estimate's expectation before
  // the turn's first roll under expert's own play of the turn). Their
  // difference at a turn's marking is the turn's luck as expert sees it:
  // zero on average, which master's rollouts use to cancel dice noise.
  double last_value() const { return last_value_; }
  // The exact solitaire policy's choice here (optimal's): the other view of
  // the decision, which values the sheet's whole future where expert's
  // estimate counts mostly the score (lambda = 0).
  Action SolitaireChoice(const Game& game) { return solitaire_.Decide(game); }
  double turn_start() const { return turn_->start; }
  const std::shared_ptr<const NeuralNet>& net() const { return net_; }
  const ExpertParams& params() const { return params_; }

  // The leaf of the solved turn for the current position of `game`: the
  // estimated win probability after circling `cells` (or failing on column
  // `face`). Solves the turn first if needed. For tests and `penk hint`.
  double MarkValue(const Game& game, uint32_t cells);
  double FailValue(const Game& game, int face);
  // The value of keeping `keep` now (keep phase), for ranking.
  double KeepValue(const Game& game, const Dice& keep);
  // The same on a view (multiplayer only): keep from `roll` with `rerolls`
  // (1-2) left; the whole roll is stopping (R2.2).
  double MarkValue(const ExpertView& view, uint32_t cells);
  double FailValue(const ExpertView& view, int face);
  double KeepValue(const ExpertView& view, const Dice& roll, int rerolls, const Dice& keep);

  // With a net only (NaN otherwise): our expected final score in this game
  // after each action of the view's turn, our play going on by the win
  // share (as Decide plays: at each roll the keep and the marking of the best
  // win share; among equal shares the solver's keep rule and the first
  // marking in canonical order). A leaf after which we play no more has our
  // final score itself; any other leaf has the net's score output.
  double MarkScore(const ExpertView& view, uint32_t cells);
  double FailScore(const ExpertView& view, int face);
  double KeepScore(const ExpertView& view, const Dice& roll, int rerolls, const Dice& keep);
  // The net's own score output at that leaf, before the score map: NaN where
  // the leaf is our final score (or without a net). What the map is fitted on.
  double MarkNetScore(const ExpertView& view, uint32_t cells);
  double FailNetScore(const ExpertView& view, int face);
  // The map from the net's score output to the score the figures above give
  // (ai/calibration_map.h; FittedNeuralScoreCalibration is the committed
  // net's). Without one the net's figure is given as it is. Decisions never
  // read scores, so play is the same either way.
  void SetScoreMap(const std::array<ScoreMap, 3>& maps) {
    score_map_ = maps;
    solved_ = false;  // leaves already evaluated carry the old map
  }

 private:
  using Key = ExpertView;
  struct LinesEffect {  // opponents after our PENKs on some lines
    bool known = false;
    std::array<Sheet, kMaxPlayers> sheets{};
    std::array<double, kMaxPlayers> worth{};
    bool ends = false;  // some opponent then has two closed columns (R5.2)
    // With a net: the changes of the opponents' inputs from the base (Prepare).
    std::vector<std::pair<int, float>> net_delta;
  };
  void Prepare(const ExpertView& view);
  double Leaf(uint32_t cells, int face);
  const LinesEffect& Effect(uint32_t rows, uint32_t columns);
  double Worth(const Sheet& sheet);
  double FinalShare(int my_score, const LinesEffect& effect);
  double BeatShare(const Sheet& sheet, int threshold);
  void PrepareNet();
  void SolveScores();
  double LeafScore(uint32_t cells, int face, bool net_score = false);
  int NextTurns(int seat) const;  // turns of `seat` once our turn is over
  NeuralOutput NetLeaf(const Sheet& me, ColumnCodes next, const LinesEffect& effect);

  std::shared_ptr<TableCache> tables_;
  ExpertParams params_;
  std::string name_;
  Key key_;
  bool solved_ = false;
  std::unique_ptr<TurnValues> turn_, scratch_turn_;
  std::shared_ptr<const SolitaireTable> my_table_;
  ColumnCodes my_codes_{};
  double scale_ = 1;  // sigma * sqrt(R) of this turn
  double last_value_ = 0;
  std::vector<LinesEffect> effects_;  // by rows | columns << 5
  std::array<double, kMaxPlayers> potential_now_{};  // opponents' potential now
  std::unordered_map<uint64_t, double> beat_cache_;
  OptimalPlayer solitaire_;
  std::shared_ptr<const NeuralNet> net_;
  int next_mover_ = 0;              // the seat after ours: the net's mover at our leaves
  FeatureLayout layout_;            // the net's (its constructor)
  NeuralFeatures base_{};           // the inputs before our marking, seen by next_mover_
  NeuralNet::Accumulator base_acc_, leaf_acc_;
  // With a net: our win share and expected final score at each leaf of the
  // solved turn (cells, or kFailKey | face), filled by Leaf; and the turn's
  // scores under its policy.
  static constexpr uint32_t kFailKey = 1u << 31;
  struct LeafFigures {
    double win = 0, score = 0;
    double net_score = 0;  // the net's output before score_map_ (NaN: our final score)
  };
  std::array<ScoreMap, 3> score_map_{};  // the identity
  std::unordered_map<uint32_t, LeafFigures> leaf_figures_;
  std::unique_ptr<TurnValues> score_turn_;
  bool scores_solved_ = false;
};

}  // namespace penk

#endif  // PENK_AI_AI_PLAYERS_H_
