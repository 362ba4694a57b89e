// What a solitaire table optimises (issue 13, item 3).
//
// The default is the expected final score (R6). A target objective asks
// instead for the probability that the final solitaire score is at least X:
// the same backward induction (solver/solitaire_dp.h) with the finished
// position worth 1 if its score reaches X and 0 otherwise, so every value of
// such a table is a probability (to 1e-10, see Leaf) and its policy maximises
// P(score >= X), then the score among equally likely actions (timpalpant's
// ScoreToBeat, Holderied's threshold objective).
#ifndef PENK_SOLVER_OBJECTIVE_H_
#define PENK_SOLVER_OBJECTIVE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace penk {

// The largest score a sheet can have: all 25 cells circled (R6).
inline constexpr int kMaxTarget = 190;

struct Objective {
  // -1: the expected final score; 0..kMaxTarget: P(final score >= target).
  int target = -1;

  bool is_target() const { return target >= 0; }
  // Among actions that reach the target equally often, a player wants the
  // higher score (once X is sure, play on for points, not at random): the
  // target's leaf carries this much of the score as a tie-break. It moves a
  // value by at most 1e-10, far below the 6 decimals shown, and still
  // separates scores 0.0004 points apart at a probability near 1 (ulp 2.2e-16).
  static constexpr double kScoreTieBreak = 1e-10 / kMaxTarget;

  // The value of a finished position of this score (the DP's leaf).
  double Leaf(int score) const {
    if (target < 0) return score;
    return (score >= target ? 1.0 : 0.0) + kScoreTieBreak * score;
  }
  bool operator==(const Objective&) const = default;
  bool operator<(const Objective& o) const { return target < o.target; }
};

// "mean" or "target=X": the text of the command-line option `--objective`,
// the engine's "objective" field, table file names and headers' messages.
std::string FormatObjective(const Objective& objective);

// Parses "mean" (or empty: the default) and "target=X" with X in 0..190.
absl::StatusOr<Objective> ParseObjective(absl::string_view text);

}  // namespace penk

#endif  // PENK_SOLVER_OBJECTIVE_H_
