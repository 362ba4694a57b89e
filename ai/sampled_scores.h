// Solitaire games played with real dice: the Monte Carlo check of the exact
// distributions (solver/distribution.h), for the optimal policy or the greedy bot.
#ifndef PENK_AI_SAMPLED_SCORES_H_
#define PENK_AI_SAMPLED_SCORES_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/solitaire_dp.h"

namespace penk {

// A seeded Monte Carlo check of the above, on real sheets (no canonical
// labelling): `games` solitaire games from `sheet` with dice from Rng(seed),
// played by the optimal policy when `table` is given (the first action of
// RankActions, as `penk hint`), else by the greedy bot (GreedyBot, as in
// `penk play`).
struct SampleSummary {
  int64_t games = 0;
  double mean = 0, sd = 0;
  double half_width_99 = 0;  // of the 99% normal confidence interval of the mean
};
absl::StatusOr<SampleSummary> SimulateScores(const Sheet& sheet, const Rules& rules,
                                             const SolitaireTable* table, int64_t games,
                                             uint64_t seed);

}  // namespace penk

#endif  // PENK_AI_SAMPLED_SCORES_H_
