// `penk strategy`, `penk distribution`, `penk stats`: what the solitaire
// solver knows, as tables, exact score distributions and figures (issue 5).
//
//   penk strategy --sheet S [--rerolls N] [--format md|csv|json]
//   penk distribution --sheet S [--policy optimal|greedy] [--json] [--svg FILE]
//   penk stats --sheet S [--policy optimal|greedy]
//
// All take --rules (R4.3, R6.5) and --table; a table file of another variant
// is refused (the table stores its rules).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "engine/dice_space.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "ai/greedy_policy.h"
#include "ai/sampled_scores.h"
#include "solver/distribution.h"
#include "solver/solitaire_state.h"
#include "solver/strategy.h"
#include "tables/table_store.h"
#include "tables/progress_line.h"
#include "tools/charts.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

constexpr double kPercentiles[] = {1, 5, 10, 25, 50, 75, 90, 95, 99};

// ---------------------------------------------------------------- strategy

struct StrategyArgs {
  std::string sheet = kEmptySheetText, rules, table, format = "md", objective;
  int rerolls = 2;
};

void RunStrategy(const StrategyArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Rules rules = OrFail(ParseRules(a.rules));
  if (a.format != "md" && a.format != "csv" && a.format != "json")
    throw UsageError{absl::StrCat("--format must be md, csv or json; got ", QuotedInput(a.format))};
  const Objective objective = OrFail(ParseObjective(a.objective));
  SolitaireTable table = TableForSheet(sheet, rules, a.table, objective);
  StrategyTable t = OrFail(MakeStrategyTable(table, sheet, a.rerolls));
  if (a.format == "csv") {
    std::fputs(StrategyCsv(t).c_str(), stdout);
  } else if (a.format == "json") {
    std::fputs(StrategyJson(t, FormatRules(rules)).c_str(), stdout);
  } else {
    std::printf("Sheet `%s`, rules `%s`, %d reroll%s left. %s of the position at the start "
                "of the turn: %.4f.\n\n",
                FormatSheet(sheet).c_str(), FormatRules(rules).c_str(), a.rerolls,
                a.rerolls == 1 ? "" : "s",
                objective.is_target()
                    ? absl::StrCat("Objective `", FormatObjective(objective),
                                   "`: values are probabilities of a final score of at least ",
                                   objective.target, ". Value")
                          .c_str()
                    : "Value",
                t.value);
    std::fputs(StrategyMarkdown(t).c_str(), stdout);
  }
}

// ------------------------------------------------------------ distribution

// "50,100" -> {50, 100}.
std::vector<int> ParseScoreList(const std::string& text) {
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    int x;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &x) || x < 0 || x > kMaxScore)
      throw UsageError{absl::StrCat("--at-least must be scores 0..", kMaxScore,
                                    " separated by commas; got ", QuotedInput(text))};
    out.push_back(x);
  }
  return out;
}

// Multiples of 10 from the 5th to the 95th percentile, when none are given.
std::vector<int> DefaultThresholds(const ScoreDistribution& d) {
  std::vector<int> out;
  const int lo = d.Percentile(0.05), hi = d.Percentile(0.95);
  for (int x = (lo + 9) / 10 * 10; x <= hi; x += 10) out.push_back(x);
  if (out.empty()) out.push_back(d.Percentile(0.5));
  return out;
}

struct DistributionArgs {
  std::string sheet = kEmptySheetText, rules, table, policy = "optimal", svg, at_least, compare,
      compare_table;
  bool json = false;
  int64_t simulate = 0;
  uint64_t seed = 1;
};

// The objective a table-driven policy plays for: "optimal" is the expected
// score, "target=X" the probability of reaching X; nullopt for "greedy".
std::optional<Objective> PolicyObjective(const std::string& policy) {
  if (policy == "greedy") return std::nullopt;
  if (policy == "optimal") return Objective{};
  absl::StatusOr<Objective> o = ParseObjective(policy);
  if (policy.rfind("target=", 0) == 0 && o.ok()) return *o;
  throw UsageError{absl::StrCat("--policy must be optimal, greedy or target=X (X in 0..",
                                kMaxTarget, "); got ", QuotedInput(policy))};
}
bool IsGreedy(const std::string& policy) { return !PolicyObjective(policy).has_value(); }

// Progress of a distribution on stderr, layer by layer of free cells: on a
// terminal one line redrawn, in a log one line per layer; nothing for a
// propagation that ends within a second.
BuildProgress DistributionProgress(const std::string& policy) {
  const auto start = std::chrono::steady_clock::now();
  auto line = std::make_shared<ProgressLine>(absl::StrCat("distribution (", policy, " play) "),
                                             "layers of free cells");
  return [start, line, shown = false](int64_t done, int64_t total) mutable {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed < 1 && !shown) return;
    shown = true;
    line->Update(done, total);
  };
}

// The exact distribution of `policy` on `sheet`; the table is loaded (or
// built) only for a table-driven policy, into `table` (the expected-score
// table is kept there for `value (table)`; a target table only when the
// policy is the command's own).
ScoreDistribution Distribution(const Sheet& sheet, const Rules& rules, const std::string& policy,
                               const std::string& table_path,
                               std::optional<SolitaireTable>& table) {
  const std::optional<Objective> objective = PolicyObjective(policy);
  if (!objective) {
    std::unique_ptr<TurnPolicy> p = GreedyPolicy(rules, OrFail(PositionOfSheet(sheet)).blocked_rows);
    return OrFail(PropagateScores(sheet, rules, *p, DistributionProgress(policy)));
  }
  if (table && table->objective() == *objective)
    return OrFail(OptimalScoreDistribution(*table, sheet, DistributionProgress(policy)));
  SolitaireTable own = TableForSheet(sheet, rules, table_path, *objective);
  ScoreDistribution d = OrFail(OptimalScoreDistribution(own, sheet, DistributionProgress(policy)));
  if (!table) table = std::move(own);
  return d;
}

void RunDistribution(const DistributionArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Rules rules = OrFail(ParseRules(a.rules));
  const bool greedy = IsGreedy(a.policy);
  if (!a.compare.empty()) IsGreedy(a.compare);
  std::vector<int> thresholds = ParseScoreList(a.at_least);
  std::optional<SolitaireTable> table;
  const ScoreDistribution d = Distribution(sheet, rules, a.policy, a.table, table);
  std::optional<ScoreDistribution> other;
  if (!a.compare.empty()) {
    // The compared policy's own file when it plays by another table.
    std::optional<SolitaireTable> none;
    other = a.compare_table.empty()
                ? Distribution(sheet, rules, a.compare, a.table, table)
                : Distribution(sheet, rules, a.compare, a.compare_table, none);
  }
  if (thresholds.empty()) thresholds = DefaultThresholds(d);
  // A target policy is judged by P(score >= its target): always shown.
  for (const std::string* p : {&a.policy, &a.compare})
    if (!p->empty())
      if (std::optional<Objective> o = PolicyObjective(*p); o && o->is_target() &&
          std::find(thresholds.begin(), thresholds.end(), o->target) == thresholds.end())
        thresholds.push_back(o->target);
  std::sort(thresholds.begin(), thresholds.end());
  if (!a.svg.empty()) {
    std::string title = absl::StrFormat("PENK solitaire from %s (%s): exact final score distribution",
                                        FormatSheet(sheet), FormatRules(rules));
    std::string svg = ScoreDistributionSvg(d, title, a.policy + " play", other ? &*other : nullptr,
                               a.compare + " play");
    std::ofstream out(a.svg);
    out << svg;
    out.close();
    if (!out) throw UsageError{absl::StrCat("cannot write ", a.svg)};
  }
  if (a.json) {
    std::string s = absl::StrFormat(R"({"mean":%.9f,"sd":%.9f,"pmf":{)", d.Mean(), d.StdDev());
    bool first = true;
    for (int x = 0; x <= kMaxScore; ++x)
      if (d.pmf[x] > 0) {
        absl::StrAppendFormat(&s, R"(%s"%d":%.12g)", first ? "" : ",", x, d.pmf[x]);
        first = false;
      }
    s += R"(},"percentiles":{)";
    for (size_t i = 0; i < std::size(kPercentiles); ++i)
      absl::StrAppendFormat(&s, R"(%s"%g":%d)", i ? "," : "", kPercentiles[i],
                            d.Percentile(kPercentiles[i] / 100));
    s += R"(},"at_least":{)";
    for (size_t i = 0; i < thresholds.size(); ++i)
      absl::StrAppendFormat(&s, R"(%s"%d":%.9f)", i ? "," : "", thresholds[i],
                            d.AtLeast(thresholds[i]));
    absl::StrAppendFormat(&s,
                          R"(},"sheet":"%s","rules":"%s","policy":"%s","total":%.12f,)"
                          R"("expected_turns":%.9f,"expected_failures":%.9f,"positions":%d})",
                          FormatSheet(sheet), FormatRules(rules), a.policy, d.Total(),
                          d.ExpectedTurns(), d.ExpectedFailures(), d.positions);
    std::printf("%s\n", s.c_str());
  } else {
    std::printf("sheet: %s\nrules: %s\npolicy: %s\n", FormatSheet(sheet).c_str(),
                FormatRules(rules).c_str(), a.policy.c_str());
    std::printf("positions visited: %lld\n", static_cast<long long>(d.positions));
    std::printf("total probability: %.12f\n", d.Total());
    int mode = 0;
    for (int x = 0; x <= kMaxScore; ++x) mode = d.pmf[x] > d.pmf[mode] ? x : mode;
    int top = 0;
    for (int x = 0; x <= kMaxScore; ++x) top = d.pmf[x] > 0 ? x : top;
    std::printf("most likely score: %d (%.6f); highest possible: %d (%.3g)\n", mode, d.pmf[mode],
                top, d.pmf[top]);
    std::printf("mean: %.6f\n", d.Mean());
    if (table && !greedy && table->objective() == *PolicyObjective(a.policy)) {
      if (table->objective().is_target())
        std::printf("P(score >= %d) (table): %.6f\n", table->objective().target,
                    OrFail(table->Value(sheet)));
      else
        std::printf("value (table): %.6f\n", OrFail(table->Value(sheet)));
    }
    std::printf("sd: %.6f\n", d.StdDev());
    std::printf("expected turns: %.4f\nexpected failure turns: %.4f\n", d.ExpectedTurns(),
                d.ExpectedFailures());
    std::printf("percentiles:");
    for (double p : kPercentiles) std::printf(" %g%%:%d", p, d.Percentile(p / 100));
    std::printf("\n");
    for (int x : thresholds) std::printf("P(score >= %d): %.6f\n", x, d.AtLeast(x));
    if (other) {
      std::printf("%s: mean %.6f, sd %.6f; difference of means %.6f\n", a.compare.c_str(),
                  other->Mean(), other->StdDev(), d.Mean() - other->Mean());
      for (int x : thresholds)
        std::printf("P(score >= %d): %s %.6f, %s %.6f\n", x, a.policy.c_str(), d.AtLeast(x),
                    a.compare.c_str(), other->AtLeast(x));
    }
  }
  if (a.simulate > 0) {
    if (!greedy && !table) table = TableForSheet(sheet, rules, a.table);
    SampleSummary s = OrFail(
        SimulateScores(sheet, rules, greedy ? nullptr : &*table, a.simulate, a.seed));
    // On stderr with --json, so stdout stays one JSON object.
    std::fprintf(a.json ? stderr : stdout,
                 "simulation (%s, seed %llu): mean %.4f +- %.4f (99%% CI), sd %.4f\n",
                 Plural(s.games, "game", "games").c_str(), static_cast<unsigned long long>(a.seed),
                 s.mean, s.half_width_99, s.sd);
  }
}

// ------------------------------------------------------------------- stats

struct StatsArgs {
  std::string sheet = kEmptySheetText, rules, table, policy = "optimal";
};

// The largest group (R3.1) a keep can form: n dice of one face plus one J.
int LargestGroup(const Dice& keep) {
  int n = 0;
  for (int f = 0; f < kNumberFaces; ++f) n = std::max<int>(n, keep.count[f]);
  if (n == 0) return 0;  // jollies alone are no group
  return std::min(5, n + (keep.count[kJolly] > 0 ? 1 : 0));
}

void RunStats(const StatsArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Rules rules = OrFail(ParseRules(a.rules));
  const bool greedy = IsGreedy(a.policy);
  SolitaireTable table = TableForSheet(sheet, rules, a.table);
  const double value = OrFail(table.Value(sheet));
  std::printf("sheet: %s\nrules: %s\nvalue: %.4f\n", FormatSheet(sheet).c_str(),
              FormatRules(rules).c_str(), value);

  // Marginal value of each free cell: circled now, for free.
  std::printf("\nvalue of circling one more cell now (value after - value before):\n");
  std::printf("%8s", "");
  for (int v = 1; v <= kColumns; ++v) std::printf("   face %d", v);
  std::printf("\n");
  for (int k = 1; k <= kRows; ++k) {
    std::printf("row %d %2s", k, "");
    for (int v = 1; v <= kColumns; ++v) {
      if (!sheet.IsFree(v, k)) {
        std::printf("%9s", sheet.circled & CellBit(v, k) ? "o" : "x");
        continue;
      }
      Sheet after = sheet;
      after.circled |= CellBit(v, k);
      std::printf("%9.3f", OrFail(table.Value(after)) - value);
    }
    std::printf("\n");
  }
  std::printf("%-8s", "cross");
  for (int v = 1; v <= kColumns; ++v) {
    if (sheet.ColumnClosed(v)) {
      std::printf("%9s", "closed");
      continue;
    }
    Sheet after = sheet;
    after.crossed |= after.free() & ColumnMask(v);  // R3.5
    std::printf("%9.3f", OrFail(table.Value(after)) - value);
  }
  std::printf("   (a failure crossing the column, R3.5)\n");

  // The first decision of the turn.
  if (sheet.ClosedColumns() < 2) {
    StrategyTable first = OrFail(MakeStrategyTable(table, sheet, kRerolls));
    double stop = 0, by_size[kDice + 1] = {}, by_group[6] = {}, jolly = 0, jolly_kept = 0,
           tie = 0;
    for (const StrategyRow& row : first.rows) {
      const Dice& keep = row.best.action.keep;
      if (keep.size() == kDice) stop += row.probability;
      else by_size[keep.size()] += row.probability;
      by_group[LargestGroup(keep)] += row.probability;
      if (row.roll.count[kJolly] > 0) jolly += row.probability;
      if (keep.count[kJolly] > 0) jolly_kept += row.probability;
      if (row.second && row.Margin() == 0) tie += row.probability;
    }
    std::printf("\nfirst roll of the turn, optimal keep (probability over the 462 rolls):\n");
    std::printf("  stop at once: %.4f\n", stop);
    for (int n = 0; n < kDice; ++n)
      std::printf("  keep %s: %.4f\n", Plural(n, "die", "dice").c_str(), by_size[n]);
    std::printf("  largest group the kept dice form (n of a face + J):");
    for (int g = 0; g <= 5; ++g) std::printf(" %d:%.4f", g, by_group[g]);
    std::printf("\n  the roll shows a J: %.4f; the best keep keeps a J: %.4f\n", jolly, jolly_kept);
    std::printf("  the best keep ties with another (margin 0): %.4f\n", tie);
  }

  std::optional<SolitaireTable> loaded = std::move(table);
  const ScoreDistribution d = Distribution(sheet, rules, a.policy, a.table, loaded);
  std::printf("\n%s play, exact (forward propagation): mean %.4f, expected turns %.4f, "
              "expected failure turns %.4f\n",
              greedy ? "greedy" : "optimal", d.Mean(), d.ExpectedTurns(), d.ExpectedFailures());
  double multi = 0;
  for (double p : d.multi_at) multi += p;
  std::printf("expected turns circling 2 or 3 cells at once: %.4f\n", multi);
  std::printf("%10s %12s %19s %21s\n", "free cells", "P(turn)", "P(failure | turn)",
              "P(2+ cells | turn)");
  for (int f = kRows * kColumns; f >= 0; --f)
    if (d.turn_at[f] > 0)
      std::printf("%10d %12.6f %19.6f %21.6f\n", f, d.turn_at[f], d.failure_at[f] / d.turn_at[f],
                  d.multi_at[f] / d.turn_at[f]);
}

}  // namespace

void RegisterAnalysisCommands(CLI::App& app) {
  auto strategy = std::make_shared<StrategyArgs>();
  CLI::App* s = app.add_subcommand(
      "strategy", "what to keep (or mark) for every one of the 462 rolls of a position");
  s->add_option("--sheet", strategy->sheet, "sheet in R7.3 notation")->default_str(kEmptySheetText);
  s->add_option("--rerolls", strategy->rerolls, "rerolls left: 2, 1 or 0 (0: the marking)")
      ->default_val(2)
      ->check(CLI::Range(0, 2));
  s->add_option("--format", strategy->format, "md, csv or json")->default_str("md");
  AddRulesOption(s, &strategy->rules);
  s->add_option("--table", strategy->table, "table file (default: built on first use)");
  AddObjectiveOption(s, &strategy->objective);
  s->callback([strategy] { RunStrategy(*strategy); });

  auto dist = std::make_shared<DistributionArgs>();
  CLI::App* d = app.add_subcommand(
      "distribution", "exact distribution of the final solitaire score (forward propagation)");
  d->add_option("--sheet", dist->sheet, "sheet in R7.3 notation")->default_str(kEmptySheetText);
  d->add_option("--policy", dist->policy,
                "optimal (the table), greedy (the greedy bot) or target=X (the policy that "
                "maximises P(score >= X))")
      ->default_str("optimal");
  d->add_flag("--json", dist->json, "one JSON object: mean, sd, pmf, percentiles, ...");
  d->add_option("--at-least", dist->at_least,
                "scores X for P(score >= X), comma-separated (default: multiples of 10)");
  d->add_option("--svg", dist->svg, "also write a bar chart of the distribution to FILE");
  d->add_option("--compare", dist->compare,
                "another policy (optimal, greedy or target=X) to compare, also drawn in the SVG");
  d->add_option("--compare-table", dist->compare_table,
                "table file of the --compare policy, only read (default: --table, or the "
                "table folder's)");
  d->add_option("--simulate", dist->simulate,
                "also play N seeded games on the real sheet as a Monte Carlo check")
      ->check(CLI::NonNegativeNumber);
  d->add_option("--seed", dist->seed, "seed of --simulate")->default_val(1)->check(SeedNotNegative());
  AddRulesOption(d, &dist->rules);
  d->add_option("--table", dist->table, "table file (default: built on first use)");
  d->callback([dist] { RunDistribution(*dist); });

  auto stats = std::make_shared<StatsArgs>();
  CLI::App* st = app.add_subcommand(
      "stats", "cell values, first-roll keeps and failure chances by stage of a position");
  st->add_option("--sheet", stats->sheet, "sheet in R7.3 notation")->default_str(kEmptySheetText);
  st->add_option("--policy", stats->policy, "policy of the failure statistics: optimal or greedy")
      ->default_str("optimal");
  AddRulesOption(st, &stats->rules);
  st->add_option("--table", stats->table, "table file (default: built on first use)");
  st->callback([stats] { RunStats(*stats); });
}

}  // namespace penk::cli
