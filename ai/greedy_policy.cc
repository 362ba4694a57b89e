#include "ai/greedy_policy.h"

#include <vector>

#include "ai/bot.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"

namespace penk {
namespace {

class Greedy : public TurnPolicy {
 public:
  Greedy(const Rules& rules, uint32_t blocked_rows)
      : rules_(rules), blocked_rows_(blocked_rows), gain_(MarkingCatalog::Get().size()) {}
  std::unique_ptr<TurnPolicy> Clone() const override {
    return std::make_unique<Greedy>(rules_, blocked_rows_);
  }
  uint32_t blocked_rows() const override { return blocked_rows_; }

  void Decide(const ColumnCodes& codes, TurnChoices& out) override {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    const DiceSpace& space = DiceSpace::Get();
    const Sheet sheet = SheetOfCodes(codes, blocked_rows_);
    for (int n = 1; n <= kRerolls; ++n)
      for (int r = 0; r < kNumRolls; ++r)
        out.keep[n - 1][r] = static_cast<int16_t>(
            space.KeepIndex(bot_.ChooseKeep(sheet, space.roll(r), n, rules_)));
    // GreedyBot::ChooseMarking: the first legal marking of the largest gain
    // (R6), canonical order; the gain is computed once per catalog marking.
    const uint32_t blocked = ~sheet.free();
    const int base = ScoreOfCodes(codes, rules_);
    for (int id = 0; id < catalog.size(); ++id)
      gain_[id] = (catalog.cells(id) & blocked)
                      ? -1
                      : ScoreOfCodes(CodesAfterMarking(codes, catalog.cells(id), blocked_rows_),
                                     rules_) -
                            base;
    const int fail_face = GreedyBot::ChooseFailureColumn(sheet);
    for (int r = 0; r < kNumRolls; ++r) {
      int best = -1;
      for (uint16_t id : catalog.ForRoll(r))
        if (gain_[id] >= 0 && (best < 0 || gain_[id] > gain_[best])) best = id;
      out.action[r] = static_cast<int16_t>(best >= 0 ? best : -fail_face);
    }
  }

 private:
  Rules rules_;
  uint32_t blocked_rows_;
  GreedyBot bot_;
  std::vector<int> gain_;
};

}  // namespace

std::unique_ptr<TurnPolicy> GreedyPolicy(const Rules& rules, uint32_t blocked_rows) {
  return std::make_unique<Greedy>(rules, blocked_rows);
}

}  // namespace penk
