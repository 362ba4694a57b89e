// Scoring (R6).
#ifndef PENK_ENGINE_SCORE_H_
#define PENK_ENGINE_SCORE_H_

#include <array>

#include "engine/rules.h"
#include "engine/sheet.h"

namespace penk {

inline constexpr int kMaxScore = 190;  // all 25 cells circled (R6)

struct ScoreBreakdown {
  std::array<int, kRows> row{};        // row k-1: R6.1
  std::array<int, kColumns> column{};  // column v-1: R6.2
  int total = 0;                       // R6.3
};

ScoreBreakdown ScoreSheet(const Sheet& sheet, const Rules& rules);
inline int Score(const Sheet& sheet, const Rules& rules) { return ScoreSheet(sheet, rules).total; }

}  // namespace penk

#endif  // PENK_ENGINE_SCORE_H_
