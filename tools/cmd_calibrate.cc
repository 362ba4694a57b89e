// `penk calibrate`: is the fast win estimate a probability? (issue 11, item 4;
// ai/calibration.h)
//
//   penk calibrate --players expert,expert [expert,greedy ...] --games N
//                  [--seed S] [--threads T] [--json] [--svg FILE] [--fit]
//
// Plays the games (line-ups in turn, seats rotated), and at every decision
// compares the mover's fast estimate of the action taken with the outcome:
// the reliability table (10 buckets) and the Brier score of the raw estimate
// and of the calibrated one (CalibratedWin, the figure hints show). --fit
// prints the logistic maps fitted on these games; `penk data calibration`
// turns the --json record (its "fit") into data/calibration.json, the map
// hints use. Progress goes to stderr.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/calibration.h"
#include "engine/quoted_input.h"
#include "ai/player_list.h"
#include "tables/progress_line.h"
#include "tools/charts.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct CalibrateArgs {
  std::vector<std::string> lineups = {"expert,expert"};
  std::string rules, svg;
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 1;
  bool json = false, fit = false;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
};

std::string TableJson(const ReliabilityTable& t) {
  std::string s = absl::StrFormat(
      R"({"games":%d,"positions":%d,"brier":%.6f,"brier_base":%.6f,"log_loss":%.6f,"max_gap":%.6f,"buckets":[)",
      t.games, t.positions, t.brier, t.brier_base, t.log_loss, t.max_gap);
  for (int b = 0; b < kCalibrationBuckets; ++b) {
    const BucketStats& x = t.buckets[b];
    absl::StrAppendFormat(
        &s, R"(%s{"low":%.1f,"high":%.1f,"positions":%d,"predicted":%.6f,"observed":%.6f,"observed_ci95":[%.6f,%.6f]})",
        b ? "," : "", b / 10.0, (b + 1) / 10.0, x.positions, x.predicted, x.observed, x.ci_low,
        x.ci_high);
  }
  return s + "]}";
}

// Fitted maps (win or score: both have seven weights) as `penk data
// calibration` reads them: [{"players","w"}...].
template <typename Map>
std::string FitJson(const std::array<Map, 3>& fit) {
  std::string s = "[";
  for (int p = 0; p < 3; ++p) {
    absl::StrAppendFormat(&s, R"(%s{"players":%d,"w":[)", p ? "," : "", p + 2);
    for (size_t i = 0; i < fit[p].w.size(); ++i)
      absl::StrAppendFormat(&s, "%s%.6f", i ? "," : "", fit[p].w[i]);
    s += "]}";
  }
  return s + "]";
}

// The same as C++ initialisers, one line per player count (--fit).
template <typename Map>
void PrintFit(const std::array<Map, 3>& fit) {
  for (int p = 0; p < 3; ++p) {
    std::printf("    {{{");
    for (size_t i = 0; i < fit[p].w.size(); ++i) std::printf("%s%.6f", i ? ", " : "", fit[p].w[i]);
    std::printf("}}},  // %d players\n", p + 2);
  }
}

std::string ScoreTableJson(const ScoreTable& t) {
  std::string s = absl::StrFormat(R"({"positions":%d,"mean_abs_error":%.4f,"buckets":[)",
                                  t.positions, t.mean_abs_error);
  bool first = true;
  for (int b = 0; b < kScoreBuckets; ++b) {
    const ScoreBucket& x = t.buckets[b];
    if (x.positions == 0) continue;
    absl::StrAppendFormat(
        &s, R"(%s{"low":%d,"high":%d,"positions":%d,"predicted":%.4f,"observed":%.4f,"observed_ci95":[%.4f,%.4f]})",
        first ? "" : ",", 10 * b, 10 * (b + 1), x.positions, x.predicted, x.observed, x.ci_low,
        x.ci_high);
    first = false;
  }
  return s + "]}";
}

void PrintScoreTable(const ScoreTable& t) {
  std::printf("neural's expected final score in this game: %lld positions; mean |expected - "
              "final| %.2f points\n",
              static_cast<long long>(t.positions), t.mean_abs_error);
  std::printf("%11s %10s %10s %9s %19s %7s\n", "expected", "positions", "predicted", "final",
              "95% CI (by game)", "gap");
  for (int b = 0; b < kScoreBuckets; ++b) {
    const ScoreBucket& x = t.buckets[b];
    if (x.positions == 0) continue;
    std::printf("%4d-%4d %12lld %10.2f %9.2f [%7.2f, %7.2f] %+6.2f\n", 10 * b, 10 * (b + 1),
                static_cast<long long>(x.positions), x.predicted, x.observed, x.ci_low, x.ci_high,
                x.observed - x.predicted);
  }
}

void PrintTable(const char* title, const ReliabilityTable& t) {
  std::printf("%s: %lld positions from %lld games; Brier %.4f (constant prediction: %.4f); "
              "log loss %.4f; largest gap %.1f points\n",
              title, static_cast<long long>(t.positions), static_cast<long long>(t.games),
              t.brier, t.brier_base, t.log_loss, 100 * t.max_gap);
  std::printf("%11s %10s %10s %9s %19s %7s\n", "bucket", "positions", "predicted", "observed",
              "95% CI (by game)", "gap");
  for (int b = 0; b < kCalibrationBuckets; ++b) {
    const BucketStats& x = t.buckets[b];
    if (x.positions == 0) {
      std::printf("%4.0f-%3.0f%% %10d %10s\n", 10.0 * b, 10.0 * (b + 1), 0, "-");
      continue;
    }
    std::printf("%4.0f-%3.0f%% %10lld %9.2f%% %8.2f%% [%6.2f%%, %6.2f%%] %+6.2f\n", 10.0 * b,
                10.0 * (b + 1), static_cast<long long>(x.positions), 100 * x.predicted,
                100 * x.observed, 100 * x.ci_low, 100 * x.ci_high,
                100 * (x.observed - x.predicted));
  }
}

void RunCalibrateCommand(const CalibrateArgs& a) {
  CalibrationOptions o;
  for (const std::string& text : a.lineups) {
    absl::StatusOr<std::vector<std::string>> lineup =
        ParsePlayerList(text, PlayerListBounds{.min_players = 2});
    if (!lineup.ok()) throw UsageError{absl::StrCat("--players: ", lineup.status().message())};
    o.lineups.push_back(*std::move(lineup));
  }
  if (a.games < 1 || a.games > kMaxCalibrationGames)
    throw UsageError{absl::StrCat("--games must be 1..", kMaxCalibrationGames, "; got ", a.games)};
  if (a.threads < 1 || a.threads > kMaxCalibrationThreads)
    throw UsageError{absl::StrCat("--threads must be 1..", kMaxCalibrationThreads, "; got ", a.threads)};
  o.games = a.games;
  o.seed = a.seed;
  o.threads = a.threads;
  o.rules = OrFail(ParseRules(a.rules));
  o.tables = CommandTableCache(a.table_cache_mb);
  OrFail(o.tables->Get(TableKey{o.rules, 0, "", {}}).status());  // before the clock starts
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress("", "games");
  o.progress = [&](int64_t done, int64_t total) { progress.Update(done, total); };
  const CalibrationResult r = OrFail(RunCalibration(o));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!a.svg.empty()) {
    std::ofstream out(a.svg);
    out << ReliabilitySvg({{"neural (shown)", r.neural},
                           {"expert raw", r.raw},
                           {"expert calibrated", r.calibrated}},
                          absl::StrCat("Win estimate reliability: ", r.raw.positions,
                                       " positions, ", a.games, " games, seed ", a.seed));
    if (!out) throw UsageError{absl::StrCat("cannot write ", QuotedInput(a.svg))};
  }
  if (a.json) {
    // With the rules, the record is reproducible (`penk data calibration` reads it).
    std::string s = absl::StrFormat(R"({"games":%d,"seed":%d,"rules":"%s","players":[)", a.games,
                                    a.seed, FormatRules(o.rules));
    for (size_t i = 0; i < o.lineups.size(); ++i) {
      s += i ? "," : "";
      s += "[";
      for (size_t j = 0; j < o.lineups[i].size(); ++j)
        absl::StrAppendFormat(&s, R"(%s"%s")", j ? "," : "", o.lineups[i][j]);
      s += "]";
    }
    s += "],\"neural\":" + TableJson(r.neural) + ",\"neural_by_players\":{";
    for (int p = 0; p < 3; ++p)
      absl::StrAppendFormat(&s, R"(%s"%d":%s)", p ? "," : "", p + 2, TableJson(r.neural_by_players[p]));
    s += "},\"neural_raw\":" + TableJson(r.neural_raw);
    s += ",\"neural_score\":" + ScoreTableJson(r.neural_score);
    s += ",\"neural_fit\":" + FitJson(r.neural_fit);
    s += ",\"neural_score_fit\":" + FitJson(r.neural_score_fit);
    s += absl::StrFormat(R"(,"neural_score_fit_positions":%d)", r.neural_score_fit_positions);
    // The net whose figures were fitted: its map is for this net only.
    s += absl::StrFormat(R"(,"net":"%016x")", r.net_checksum);
    s += ",\"raw\":" + TableJson(r.raw) + ",\"calibrated\":" + TableJson(r.calibrated);
    s += ",\"calibrated_by_players\":{";
    for (int p = 0; p < 3; ++p)
      absl::StrAppendFormat(&s, R"(%s"%d":%s)", p ? "," : "", p + 2,
                            TableJson(r.calibrated_by_players[p]));
    s += "},\"fit\":" + FitJson(r.fit);
    std::printf("%s}\n", s.c_str());
    return;
  }
  std::vector<std::string> names;
  for (const auto& l : o.lineups) names.push_back(absl::StrJoin(l, ","));
  std::printf("%s (line-ups %s, seats rotated), seed %llu, rules %s, %s, %.1f s\n",
              Plural(a.games, "game", "games").c_str(), absl::StrJoin(names, " ").c_str(),
              static_cast<unsigned long long>(a.seed), FormatRules(o.rules).c_str(),
              Plural(a.threads, "thread", "threads").c_str(), secs);
  std::printf("position: a decision; predicted: the mover's fast estimate of the action taken; "
              "observed: the mover's win share (k tied winners: 1/k each)\n\n");
  if (r.neural.positions > 0) {
    PrintTable("neural's win share through its map (what hints show)", r.neural);
    std::printf("\n");
    PrintTable("neural's win share unmapped (the net's figure)", r.neural_raw);
    for (int p = 0; p < 3; ++p) {
      if (r.neural_by_players[p].positions == 0) continue;
      std::printf("\n");
      PrintTable(absl::StrCat("neural, ", p + 2, " players").c_str(), r.neural_by_players[p]);
    }
    std::printf("\n");
    PrintScoreTable(r.neural_score);
    std::printf("\n");
  }
  PrintTable("raw fast estimate", r.raw);
  std::printf("\n");
  PrintTable("calibrated fast estimate (what hints showed before the net)", r.calibrated);
  for (int p = 0; p < 3; ++p) {
    if (r.calibrated_by_players[p].positions == 0) continue;
    std::printf("\n");
    PrintTable(absl::StrCat("calibrated, ", p + 2, " players").c_str(), r.calibrated_by_players[p]);
  }
  if (a.fit) {
    std::printf("\nmaps of the neural figure fitted on these games (`--json` and `penk data "
                "calibration --estimate neural` make them data/neural_calibration.json):\n");
    PrintFit(r.neural_fit);
    std::printf("\nits score maps (score / 50 = w . (1, u, t, u t, max(0, u - 0.8), max(0, u - 1.4), "
                "max(0, u - 2)); u = the net's score / 50), fitted on %lld markings:\n",
                static_cast<long long>(r.neural_score_fit_positions));
    PrintFit(r.neural_score_fit);
    std::printf("\nlogistic maps fitted on these games (logit p = w . (1, x, t, x t, max(0, x + 2), "
                "max(0, x), max(0, x - 2)); x = logit raw, t = min(turns, 20) / 10); "
                "`--json` and `penk data calibration` make them data/calibration.json:\n");
    PrintFit(r.fit);
  }
}

}  // namespace

void RegisterCalibrate(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* c = app.add_subcommand(
      "calibrate", "check the win estimate against self-play outcomes: reliability table, Brier "
                   "score, fitted recalibration");
  c->add_option("--players", args->lineups,
                "line-ups, each 2-4 comma-separated players, played in turn, e.g. "
                "expert,expert expert,greedy expert,greedy,greedy (default expert,expert)");
  c->add_option("--games", args->games,
                absl::StrCat("number of games, 1..", kMaxCalibrationGames,
                             " (memory does not grow with it)"))
      ->default_val(1000);
  c->add_option("--seed", args->seed, "random seed (same seed: same result, any thread count)")
      ->default_val(1)
      ->check(SeedNotNegative());
  c->add_option("--threads", args->threads,
                absl::StrCat("OpenMP threads across games, 1..", kMaxCalibrationThreads))
      ->default_val(1);
  c->add_flag("--json", args->json, "one JSON object instead of tables");
  c->add_option("--svg", args->svg, "also write the reliability diagram to this SVG file");
  c->add_flag("--fit", args->fit, "print the logistic recalibration fitted on these games");
  AddRulesOption(c, &args->rules);
  AddTableCacheOption(c, &args->table_cache_mb);
  c->callback([args] { RunCalibrateCommand(*args); });
}

}  // namespace penk::cli
