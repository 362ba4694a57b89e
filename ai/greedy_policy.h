// The greedy bot (ai/bot.h) as a TurnPolicy of solver/distribution.h, so that
// its exact score distribution can be computed like the optimal policy's.
#ifndef PENK_AI_GREEDY_POLICY_H_
#define PENK_AI_GREEDY_POLICY_H_

#include <cstdint>
#include <memory>

#include "engine/rules.h"
#include "solver/distribution.h"

namespace penk {

// The greedy bot of ai/bot.h (GreedyBot: one-turn score gain, keep ties
// to stopping, marking ties canonical, failure column by ChooseFailureColumn).
std::unique_ptr<TurnPolicy> GreedyPolicy(const Rules& rules, uint32_t blocked_rows = 0);

}  // namespace penk

#endif  // PENK_AI_GREEDY_POLICY_H_
