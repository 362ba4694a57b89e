#include "ai/sampled_scores.h"

#include <algorithm>
#include <cmath>

#include "ai/bot.h"
#include "engine/rng.h"
#include "engine/score.h"
#include "solver/advisor.h"
#include "solver/solitaire_state.h"
#include "solver/turn_solver.h"

namespace penk {

absl::StatusOr<SampleSummary> SimulateScores(const Sheet& start, const Rules& rules,
                                             const SolitaireTable* table, int64_t games,
                                             uint64_t seed) {
  if (table) {
    if (absl::StatusOr<double> v = table->Value(start); !v.ok()) return v.status();
  } else if (absl::StatusOr<SolitairePosition> p = PositionOfSheet(start); !p.ok()) {
    return p.status();
  }
  if (games < 1) return absl::InvalidArgumentError("the number of games must be positive");
  Rng rng(seed);
  GreedyBot bot;
  double sum = 0, sum2 = 0;
  for (int64_t g = 0; g < games; ++g) {
    Sheet s = start;
    while (s.ClosedColumns() < 2) {  // R5.2
      TurnValues turn;
      if (table) turn = *SolveSolitaireTurn(*table, s);
      Dice dice;
      for (int i = 0; i < kDice; ++i) ++dice.count[rng.Die()];  // R2.1
      for (int n = kRerolls; n >= 1; --n) {                     // R2.2
        const Dice keep = table ? RankActions(turn, *table, s, dice, n).front().action.keep
                                : bot.ChooseKeep(s, dice, n, rules);
        if (keep.size() == kDice) break;  // stop
        dice = keep;
        for (int i = keep.size(); i < kDice; ++i) ++dice.count[rng.Die()];
      }
      const Action a = table ? RankActions(turn, *table, s, dice, 0).front().action
                             : GreedyBot::ChooseMarking(s, dice, rules);
      if (a.kind == Action::kMark)
        s.circled |= a.cells;  // R3.2
      else
        s.crossed |= s.free() & ColumnMask(a.face);  // R3.5
    }
    const double score = Score(s, rules);
    sum += score;
    sum2 += score * score;
  }
  SampleSummary out;
  out.games = games;
  out.mean = sum / games;
  out.sd = std::sqrt(std::max(0.0, sum2 / games - out.mean * out.mean));
  out.half_width_99 = 2.5758 * out.sd / std::sqrt(static_cast<double>(games));
  return out;
}

}  // namespace penk
