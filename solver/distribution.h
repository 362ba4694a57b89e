// The exact distribution of the final solitaire score under a policy, by
// forward propagation of state probabilities (issue 5, item 2).
//
// No sampling: probability 1 starts on the given position; positions are
// taken in order of decreasing free-cell count (every turn removes at least
// one free cell, R3.2-R3.5, so a position is complete once every position with
// more free cells has been processed). For a position with mass, the policy's
// transition distribution is computed on the dice space:
//   - the first roll (R2.1) has DiceSpace::RollProbability;
//   - for each of the two rerolls (R2.2), each roll's mass goes to the keep the
//     policy chooses; keeping all six dice is stopping, the mass goes straight
//     to the final roll; a keep's mass is pushed up the keep lattice to its
//     supersets one die at a time, 1/6 per face (DiceSpace::Add), O(924 * 6);
//   - each final roll's mass goes to the successor of the policy's marking or
//     failure (R3); a successor with two closed columns has ended (R5.2) and
//     its mass is added to its score (R6).
// A game visits at most one position per free-cell count, so the mass of a
// position is the probability that the game passes through it.
//
// Positions are canonical (sorted column codes, solitaire_state.h); each is
// played as the sheet SheetOfCodes(codes), except the starting sheet, which
// is played as given. Policies act on that sheet; among actions of equal value
// they choose as `penk hint` does (the first in RankActions order), so a tie
// between mirror-image actions is broken on the canonical labelling. The
// result is deterministic: the parallel part only computes each position's
// transitions; masses are added in a fixed order, whatever the thread count.
#ifndef PENK_SOLVER_DISTRIBUTION_H_
#define PENK_SOLVER_DISTRIBUTION_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/dice_space.h"
#include "engine/rules.h"
#include "engine/score.h"
#include "engine/sheet.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "solver/turn_solver.h"

namespace penk {

// One turn of a deterministic policy at one position.
struct TurnChoices {
  // keep[n-1][r]: the DiceSpace keep index chosen from roll r with n rerolls
  // left (R2.2); r + kNumKeepsBelowSix (the whole roll) is stopping.
  std::array<std::array<int16_t, kNumRolls>, kRerolls> keep;
  // What each final roll r becomes: a marking, as its MarkingCatalog id
  // (>= 0, R3.3), or a failure crossing column v, as -v (R3.5).
  std::array<int16_t, kNumRolls> action;
};

// A deterministic turn policy. Decide is called from several threads, each on
// its own Clone().
class TurnPolicy {
 public:
  virtual ~TurnPolicy() = default;
  virtual std::unique_ptr<TurnPolicy> Clone() const = 0;
  // Rows crossed by opponents' PENKs (R4.2) in the game it plays; 0 in
  // solitaire. Columns close when no free cell is left (ColumnCode).
  virtual uint32_t blocked_rows() const = 0;
  // The choices on the live sheet whose column v is codes[v-1] (codes in any
  // order, at most one closed column).
  virtual void Decide(const ColumnCodes& codes, TurnChoices& out) = 0;
  // The same for count <= kTurnBatch positions at once (the optimal policy
  // decides them together, one per SIMD lane): out[j] for codes[j].
  virtual void DecideBatch(const ColumnCodes* codes, int count, TurnChoices* out) {
    for (int j = 0; j < count; ++j) Decide(codes[j], out[j]);
  }
  // The successors of the last DecideBatch's markings, if the policy found
  // them (as OptimalDecider::successors), else null.
  virtual const int32_t* Successors() const { return nullptr; }
};

// Optimal solitaire play by the table's values (and its blocked rows), choosing exactly as
// RankActions ranks (first best; keeps in DiceSpace::SubKeeps order, markings
// in canonical order, failures by face).
std::unique_ptr<TurnPolicy> OptimalPolicy(const SolitaireTable& table);

struct DecideScratch;

// The optimal policy's turns under `table` (its argmax, as OptimalPolicy
// plays): shared by the distributions and the score spreads
// (solver/score_spread.h), so both follow one policy. One per thread: it owns
// the lanes of its last batch (about 120 KB), which final_values() and
// successors() show until the next.
class OptimalDecider {
 public:
  explicit OptimalDecider(const SolitaireTable& table);
  ~OptimalDecider();
  OptimalDecider(const OptimalDecider&) = delete;
  OptimalDecider& operator=(const OptimalDecider&) = delete;

  const SolitaireTable& table() const { return table_; }

  // The turn on the live position of `codes` (any order: the turn is played
  // on that labelling): the solved turn (its values) and the choices.
  void Turn(const ColumnCodes& codes, TurnValues& turn, TurnChoices& out);
  // The same for count <= kTurnBatch positions at once, one per SIMD lane
  // (SolveTurnsWithKeeps): the same values and choices, faster.
  void Turns(const ColumnCodes* codes, int count, TurnValues* turns, TurnChoices* out);
  // The choices alone, the same ones, faster (OptimalPolicy's batches).
  void Choices(const ColumnCodes* codes, int count, TurnChoices* out);

  // Of the last Turns or Choices (Turn keeps no lanes): final_values()[r * kTurnBatch +
  // j] is final roll r's value in lane j, as the turn solver's lanes hold
  // them (idle lanes repeat lane 0); successors()[id * kTurnBatch + j] the
  // state index after catalog marking id in lane j, or -1 where it ends the
  // game, written only for the markings legal in lane j (lanes < count).
  const double* final_values() const;
  const int32_t* successors() const;

 private:
  const SolitaireTable& table_;
  std::unique_ptr<DecideScratch> scratch_;
};

// For a decided turn: the probability of each final roll, by the keep lattice.
std::array<double, kNumRolls> FinalRollMass(const TurnChoices& choices);
// The same for count <= kTurnBatch turns at once (one per SIMD lane): out[j]
// for choices[j], equal to FinalRollMass(choices[j]) to rounding.
void FinalRollMasses(const TurnChoices* choices, int count, std::array<double, kNumRolls>* out);

struct ScoreDistribution {
  // pmf[s]: probability that the final score is s (R6).
  std::array<double, kMaxScore + 1> pmf{};
  // By free cells f at the start of a turn (index f = 0..25): the probability
  // that some turn starts with f free cells, that such a turn is a failure
  // (R3.5), and that it circles two or three cells at once (R3.3). Their sums
  // are the expected numbers of turns, of failures and of multi-cell turns.
  std::array<double, kRows * kColumns + 1> turn_at{}, failure_at{}, multi_at{};
  int64_t positions = 0;  // live positions visited

  double Total() const;
  double Mean() const;
  double StdDev() const;
  // Smallest score s with P(score <= s) >= p (p in (0, 1]).
  int Percentile(double p) const;
  // P(score >= x).
  double AtLeast(int x) const;
  double ExpectedTurns() const;
  double ExpectedFailures() const;
};

// The distribution of the final score of `sheet` (a solitaire sheet, R7.3, or
// one with rows blocked by PENKs, R4.2, if the policy plays with them) when
// `policy` plays every turn. A finished sheet (R5.2) has its score with
// probability 1.
// `progress`, if any, is called after each layer of free cells with the
// layers done and the layers in all (the sheet's free cells + 1).
absl::StatusOr<ScoreDistribution> PropagateScores(const Sheet& sheet, const Rules& rules,
                                                  const TurnPolicy& policy,
                                                  const BuildProgress& progress = nullptr);

// The same for the optimal policy, checking that the table solves the sheet.
absl::StatusOr<ScoreDistribution> OptimalScoreDistribution(
    const SolitaireTable& table, const Sheet& sheet, const BuildProgress& progress = nullptr);

}  // namespace penk

#endif  // PENK_SOLVER_DISTRIBUTION_H_
