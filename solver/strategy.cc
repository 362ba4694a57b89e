#include "solver/strategy.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/dice_space.h"
#include "solver/turn_solver.h"

namespace penk {

absl::StatusOr<StrategyTable> MakeStrategyTable(const SolitaireTable& table, const Sheet& sheet,
                                                int rerolls) {
  if (rerolls < 0 || rerolls > kRerolls)
    return absl::InvalidArgumentError(
        absl::StrCat("rerolls left must be 0, 1 or 2 (R2.2); got ", rerolls));
  absl::StatusOr<TurnValues> turn = SolveSolitaireTurn(table, sheet);  // validates the sheet
  if (!turn.ok()) return turn.status();
  const DiceSpace& space = DiceSpace::Get();
  StrategyTable t;
  t.sheet = sheet;
  t.rerolls = rerolls;
  t.value = turn->start;
  for (int r = 0; r < kNumRolls; ++r) {
    std::vector<RankedAction> ranked = RankActions(*turn, table, sheet, space.roll(r), rerolls);
    StrategyRow row;
    row.roll = space.roll(r);
    row.probability = space.RollProbability(r);
    row.best = ranked.front();
    if (ranked.size() > 1) row.second = ranked[1];
    t.rows.push_back(row);
  }
  return t;
}

std::string StrategyActionText(const RankedAction& a, bool mark_stop) {
  std::string s = FormatAction(a.action);
  if (mark_stop && a.action.kind == Action::kKeep && a.action.keep.size() == kDice)
    s += " (stop)";
  return s;
}

std::string StrategyCsv(const StrategyTable& t) {
  std::string s = "roll,best,value,second,second_value,margin\n";
  for (const StrategyRow& row : t.rows) {
    absl::StrAppendFormat(&s, "%s,%s,%.6f,", FormatDice(row.roll),
                          StrategyActionText(row.best, false), row.best.value);
    if (row.second)
      absl::StrAppendFormat(&s, "%s,%.6f,%.6f\n", StrategyActionText(*row.second, false),
                            row.second->value, row.Margin());
    else
      s += ",,\n";
  }
  return s;
}

std::string StrategyJson(const StrategyTable& t, const std::string& rules) {
  std::string s = absl::StrFormat(R"({"sheet":"%s","rerolls":%d,"rules":"%s","value":%.6f,"rolls":[)",
                                  FormatSheet(t.sheet), t.rerolls, rules, t.value);
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const StrategyRow& row = t.rows[i];
    absl::StrAppendFormat(&s, R"(%s{"roll":"%s","probability":%.10f,"best":"%s","value":%.6f,)",
                          i ? "," : "", FormatDice(row.roll), row.probability,
                          StrategyActionText(row.best, false), row.best.value);
    if (row.second)
      absl::StrAppendFormat(&s, R"("second":"%s","second_value":%.6f,"margin":%.6f})",
                            StrategyActionText(*row.second, false), row.second->value,
                            row.Margin());
    else
      s += R"("second":null,"second_value":null,"margin":null})";
  }
  return s + "]}\n";
}

std::string StrategyMarkdown(const StrategyTable& t) {
  std::string s = absl::StrFormat(
      "| roll | P(roll) | best %s | value | second | second value | margin |\n"
      "|---|---:|---|---:|---|---:|---:|\n",
      t.rerolls > 0 ? "keep" : "marking");
  for (const StrategyRow& row : t.rows) {
    absl::StrAppendFormat(&s, "| `%s` | %.5f | `%s` | %.4f | ", FormatDice(row.roll),
                          row.probability, StrategyActionText(row.best, true), row.best.value);
    if (row.second)
      absl::StrAppendFormat(&s, "`%s` | %.4f | %.4f |\n", StrategyActionText(*row.second, true),
                            row.second->value, row.Margin());
    else
      s += "- | - | - |\n";
  }
  return s;
}

}  // namespace penk
