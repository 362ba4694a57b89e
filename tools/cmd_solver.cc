// `penk tables build`, `penk value`, `penk hint`: the solitaire solver.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/rollout.h"
#include "ai/win_ranking.h"
#include "engine/position_check.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "solver/advisor.h"
#include "solver/solitaire_state.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"
#include "tables/table_store.h"
#include "protocol/errors.h"
#include "protocol/hint.h"
#include "protocol/session.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {


struct TableArgs {
  std::string out, rules, blocked, table_dir, objective;
  int max_free = kRows * kColumns;
  bool all = false;
  bool no_spread = false;
};

// "13" -> rows 1 and 3 (bits 0 and 2); "" or "-" -> none.
uint32_t ParseBlockedRows(const std::string& text) {
  uint32_t rows = 0;
  for (char c : text) {
    if (c == '-' && text.size() == 1) break;
    if (c < '1' || c > '5' || (rows >> (c - '1') & 1))
      throw UsageError{absl::StrCat("--blocked-rows must be distinct row digits 1-5, e.g. 13; got ",
                                    QuotedInput(text))};
    rows |= 1u << (c - '1');
  }
  return rows;
}

// `tables build --all`: every blocked-row table of the rule set into the table
// folder, for deployments that must never build at request time
// (`penk engine --no-build`). Valid tables already there are kept.
void RunTablesBuildAll(const TableArgs& a, const Rules& rules, Objective objective) {
  if (!a.out.empty() || !a.blocked.empty())
    throw UsageError{"--all builds every set of blocked rows into the table folder: "
                     "give --table-dir instead of --out and --blocked-rows"};
  const std::string dir = a.table_dir.empty() ? DefaultTableDir() : a.table_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw UsageError{absl::StrCat("cannot create the table folder ", dir, ": ", ec.message())};
  OrFail(CheckTableWritable(TablePathIn(dir, rules, 0, objective)));
  const std::vector<uint32_t> sets = BlockedRowSets(rules);
  int built = 0, kept = 0;
  for (size_t i = 0; i < sets.size(); ++i) {
    const std::string path = TablePathIn(dir, rules, sets[i], objective);
    const std::string rows = sets[i] ? BlockedRowsDigits(sets[i]) : "none";
    absl::StatusOr<SolitaireTable> present = ReadTable(path, rules, sets[i], objective);
    if (present.ok() && present->max_free() >= a.max_free) {
      std::fprintf(stderr, "[%zu/%zu] blocked rows %s: %s is valid, kept\n", i + 1, sets.size(),
                   rows.c_str(), path.c_str());
      ++kept;
      continue;
    }
    std::fprintf(stderr, "[%zu/%zu] blocked rows %s: building %s\n", i + 1, sets.size(),
                 rows.c_str(), path.c_str());
    OrFail(WriteTable(BuildTableWithProgress(rules, a.max_free, true, sets[i], objective), path));
    ++built;
  }
  std::printf("rules: %s\ntables: %d built, %d kept, in %s\n", FormatRules(rules).c_str(), built,
              kept, dir.c_str());
}

void RunTablesBuild(const TableArgs& a) {
  Rules rules = OrFail(ParseRules(a.rules));
  const Objective objective = OrFail(ParseObjective(a.objective));
  if (a.all) return RunTablesBuildAll(a, rules, objective);
  if (!a.table_dir.empty()) throw UsageError{"--table-dir goes with --all (else use --out)"};
  const uint32_t blocked = ParseBlockedRows(a.blocked);
  // The default path holds full tables only: every door and player reads
  // it as the whole game's values (issue 24).
  if (a.max_free < kRows * kColumns && a.out.empty())
    throw UsageError{absl::StrCat("--max-free ", a.max_free,
                                  " makes a partial table (positions with at most ", a.max_free,
                                  " free cells): give it a file of its own with --out FILE; "
                                  "the default path holds full tables only")};
  std::string path = a.out.empty() ? DefaultTablePath(rules, blocked, objective) : a.out;
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::filesystem::create_directories(dir, ec);
  OrFail(CheckTableWritable(path));  // before a build of seconds, not after
  SolitaireTable table = BuildTableWithProgress(rules, a.max_free, true, blocked, objective);
  OrFail(WriteTable(table, path));
  // The spread of every choice (penk hint's sd), beside it, under the table's
  // policy; a target's also has its means (its values are probabilities).
  const std::string spread_path = SpreadPathFor(path);
  const std::string mean_path = objective.is_target() ? MeanPathFor(path) : "";
  const bool spread = !a.no_spread;
  if (spread)
    OrFail(WriteSpreadTable(BuildSpreadWithProgress(table, true), spread_path, mean_path));
  std::printf("rules: %s\nstates: %lld\n", FormatRules(rules).c_str(),
              static_cast<long long>(table.values().size()));
  if (objective.is_target()) std::printf("objective: %s\n", FormatObjective(objective).c_str());
  if (blocked) std::printf("blocked rows: %s\n", a.blocked.c_str());
  if (a.max_free == kRows * kColumns && !blocked)
    std::printf("value of the empty sheet: %.6f\n", *table.Value(Sheet{}));
  else
    std::printf("solved: positions with at most %d free cells\n", a.max_free);
  std::printf("table: %s\n", path.c_str());
  if (spread) std::printf("spread table: %s\n", spread_path.c_str());
  if (spread && !mean_path.empty()) std::printf("mean table: %s\n", mean_path.c_str());
}

struct ValueArgs {
  std::string sheet = kEmptySheetText, rules, table, objective;
};

void RunValue(const ValueArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Rules rules = OrFail(ParseRules(a.rules));
  const Objective objective = OrFail(ParseObjective(a.objective));
  SolitaireTable table = TableForSheet(sheet, rules, a.table, objective);
  double v = OrFail(table.Value(sheet));
  std::printf("sheet: %s\n", FormatSheet(sheet).c_str());
  if (objective.is_target())
    std::printf("objective: %s (the value is the probability that the final score is at "
                "least %d, playing for it)\n",
                FormatObjective(objective).c_str(), objective.target);
  if (sheet.ClosedColumns() >= 2)
    std::printf(objective.is_target() ? "finished (R5.2): the value is 1 if the score reaches the "
                                        "target, else 0\n"
                                      : "finished (R5.2): the value is the score\n");
  // The standard deviation of the final score under the table's policy (a
  // finished game's score is certain); the value line stays last (scripts
  // read it). A target's value is a probability: its expected final score
  // under the same policy is printed too.
  // As the engine's value: the value does not fail for its sd (a damaged
  // or missing spread file is said on the sd line, and the exit is 0).
  absl::StatusOr<double> variance = 0.0;
  if (sheet.ClosedColumns() < 2) {
    const absl::StatusOr<SpreadTable> spreads = LoadOrBuildSpreadTable(table, a.table);
    variance = spreads.ok() ? SheetVariance(table, *spreads, sheet)
                            : absl::StatusOr<double>(spreads.status());
    if (spreads.ok() && objective.is_target())
      std::printf("mean: %.6f\n", OrFail(SheetMean(table, *spreads, sheet)));
  } else if (objective.is_target()) {
    std::printf("mean: %.6f\n", static_cast<double>(Score(sheet, rules)));
  }
  if (variance.ok())
    std::printf("sd: %.6f\n", std::sqrt(*variance));
  else
    std::printf("sd: not available: %s\n", std::string(variance.status().message()).c_str());
  std::printf("value: %.6f\n", v);
}

struct HintArgs {
  std::string sheet = kEmptySheetText, roll, rules, table, objective;
  int rerolls = 2;
  int top = 0;
  bool json = false;
  // Multiplayer (issue 4): the other sheets in turn order after the player to
  // move, whether the last round has begun (R5.2), the mover's seat (1-based)
  // and the turns it has played (-1: estimated from its sheet).
  std::vector<std::string> opponents;
  bool last_round = false;
  int seat = 1;
  int turns = -1;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
  // Rollouts (issue 11, ai/rollout.h): trials per candidate (0: none), the
  // best K candidates by the fast estimate (0: all), a time bound (0: none).
  int64_t rollouts = 0;
  int candidates = 0;
  int64_t time_ms = 0;
  std::string policy = "expert";
  uint64_t seed = 1;
  int threads = 1;
};

// The heading of a ranking's action column: what is being chosen.
const char* ChoiceHeading(int rerolls, const nlohmann::ordered_json& actions) {
  if (rerolls > 0) return "keep";
  return !actions.empty() && absl::StartsWith(actions[0]["action"].get<std::string>(), "fail")
             ? "failure"
             : "marking";
}

// An action as a table shows it: keeping all six dice is stopping (R2.2).
std::string ShownAction(const nlohmann::ordered_json& action, int rerolls) {
  std::string name = action["action"].get<std::string>();
  if (rerolls > 0 && name.size() == kDice) name += " (stop)";  // a keep of six dice
  return name;
}

double Number(const nlohmann::ordered_json& j, const char* key) { return j[key].get<double>(); }

// The width of the action column: the longest name shown ("11335J (stop)"
// is 13 characters), at least 12, so that every row stays in line.
int ActionWidth(const nlohmann::ordered_json& actions, size_t shown, int rerolls) {
  size_t width = 12;
  for (size_t i = 0; i < shown && i < actions.size(); ++i)
    width = std::max(width, ShownAction(actions[i], rerolls).size());
  return static_cast<int>(width);
}

void PrintPosition(const nlohmann::ordered_json& answer) {
  std::printf("sheet %s  roll %s  rerolls left %d\n", answer["sheet"].get<std::string>().c_str(),
              answer["roll"].get<std::string>().c_str(), answer["rerolls"].get<int>());
  if (answer.contains("opponents"))
    for (const auto& o : answer["opponents"]) std::printf("opponent %s\n", o.get<std::string>().c_str());
}

// `--rollouts N`: the best K candidates by the fast estimate, played out.
void PrintRolloutHint(const nlohmann::ordered_json& answer) {
  const nlohmann::ordered_json& r = answer["rollouts"];
  const int rerolls = answer["rerolls"].get<int>();
  PrintPosition(answer);
  std::printf("rollouts: the best %lld of %lld by expert's estimate, each played out %lld times by "
              "%s in every seat (same dice for every candidate, first roll rotated), seed %llu%s\n",
              r["candidates"].get<long long>(), answer["count"].get<long long>(),
              r["trials"].get<long long>(), r["policy"].get<std::string>().c_str(),
              r["seed"].get<unsigned long long>(),
              r["timed_out"].get<bool>() ? "; stopped by --time-ms" : "");
  std::printf("win: rollout win share with its 95%% interval; margin: mean final score minus the "
              "best opponent's; estimate: the fast estimate, calibrated on self-play (docs/AI.md)\n");
  const nlohmann::ordered_json& actions = answer["actions"];
  const int w = ActionWidth(actions, actions.size(), rerolls);
  std::printf("%4s  %-*s %8s %19s %8s %7s %9s\n", "rank", w, ChoiceHeading(rerolls, actions), "win",
              "95% CI", "margin", "trials", "estimate");
  for (size_t i = 0; i < actions.size(); ++i) {
    const nlohmann::ordered_json& c = actions[i]["rollout"];
    std::printf("%4zu  %-*s %7.2f%% [%6.2f%%, %6.2f%%] %8.2f %7lld %8.2f%%%s\n", i + 1, w,
                ShownAction(actions[i], rerolls).c_str(), 100 * Number(c, "win"),
                100 * c["win_ci95"][0].get<double>(), 100 * c["win_ci95"][1].get<double>(),
                Number(c, "margin"), c["trials"].get<long long>(), 100 * Number(actions[i], "win"),
                c["dropped"].get<bool>() ? "  (dropped: clearly behind)" : "");
  }
}

// The ranking as a table: the answer's actions (all of them: `top` cuts the
// table, not the question), with the win estimate against opponents, or
// alone the loss against the best and a target's mean.
void PrintHintTable(const nlohmann::ordered_json& answer, int top, Objective objective) {
  if (answer.contains("rollouts")) return PrintRolloutHint(answer);
  const bool multi = answer.contains("opponents");
  const int rerolls = answer["rerolls"].get<int>();
  const nlohmann::ordered_json& actions = answer["actions"];
  const bool has_moments = !answer.contains("sd_error");
  const bool show_mean = objective.is_target() && has_moments;
  PrintPosition(answer);
  if (multi) {
    std::printf("%s", WinFiguresHeader(answer).c_str());
    std::printf("solitaire: expected final score alone (solitaire-optimal), sd: its standard "
                "deviation under that play; --rollouts N plays the candidates out for a win "
                "share with its 95%% interval\n");
  } else if (objective.is_target()) {
    std::printf("objective %s: value is the probability that the final score is at least %d, "
                "playing for it\n",
                FormatObjective(objective).c_str(), objective.target);
  }
  if (!has_moments)
    std::printf("sd: not available: %s\n", answer["sd_error"].get<std::string>().c_str());
  const size_t shown = top > 0 ? std::min<size_t>(top, actions.size()) : actions.size();
  const int w = ActionWidth(actions, shown, rerolls);
  std::printf("%4s  %-*s", "rank", w, ChoiceHeading(rerolls, actions));
  if (multi) std::printf(" %8s %9s  ", "win", "score");
  std::printf(" %12s", multi ? "solitaire" : "value");
  if (!multi) std::printf(" %10s", "loss");
  if (show_mean) std::printf(" %12s", "mean");
  if (has_moments) std::printf(" %10s", "sd");
  std::printf("\n");
  for (size_t i = 0; i < shown; ++i) {
    const nlohmann::ordered_json& a = actions[i];
    std::printf("%4zu  %-*s", i + 1, w, ShownAction(a, rerolls).c_str());
    if (multi)
      std::printf(" %7.2f%% %9s %s", 100 * Number(a, "win"),
                  a.contains("score") ? absl::StrFormat("%.2f", Number(a, "score")).c_str() : "-",
                  a["tied"].get<bool>() ? "=" : " ");
    std::printf(" %12.6f", Number(a, "value"));
    if (!multi) std::printf(" %10.6f", Number(actions[0], "value") - Number(a, "value"));
    if (show_mean) std::printf(" %12.6f", Number(a, "mean"));
    if (has_moments) std::printf(" %10.6f", Number(a, "sd"));
    std::printf("\n");
  }
  if (shown < actions.size()) std::printf("(%zu more; --top 0 shows all)\n", actions.size() - shown);
}

// The hint of every door (protocol/hint.h): the flags read into its
// question, its answer printed (--json) or drawn as a table.
void RunHint(const HintArgs& a) {
  if (a.top < 0)
    throw UsageError{absl::StrCat("--top must be 0 (show all) or a number of actions; got ", a.top)};
  protocol::HintQuestion q;
  q.sheet = OrFail(ParseSheet(a.sheet));
  q.roll = OrFail(ParseRoll(a.roll));
  q.rerolls = a.rerolls;
  q.rules = OrFail(ParseRules(a.rules));
  q.objective = OrFail(ParseObjective(a.objective));
  if (q.objective.is_target() && !a.opponents.empty())
    throw UsageError{"--objective target=X is a solitaire objective (the final score to reach); "
                     "with --opponent hints rank by the chance of winning: leave one out"};
  for (const std::string& text : a.opponents) q.opponents.push_back(OrFail(ParseSheet(text)));
  q.last_round = a.last_round;
  q.seat = a.seat;
  q.turns = a.turns;
  q.table = a.table;
  q.top = a.json ? a.top : 0;
  if (a.rollouts > 0) {
    q.rollouts.trials = a.rollouts;
    q.rollouts.candidates = a.candidates;
    q.rollouts.time_ms = a.time_ms;  // 0: no bound at a terminal
    q.rollouts.policy = absl::AsciiStrToLower(a.policy);
    q.rollouts.seed = a.seed;
    q.rollouts.threads = a.threads;
  }
  protocol::SessionOptions options;  // the table folder's tables, built on first use
  options.table_cache_mb = a.table_cache_mb;
  protocol::Session session(options);
  nlohmann::ordered_json answer;
  try {
    answer = protocol::AnswerHint(session, q);
  } catch (const protocol::EngineError& e) {
    throw UsageError{e.message};
  }
  if (a.json) {
    std::printf("%s\n", answer.dump().c_str());
    return;
  }
  PrintHintTable(answer, a.top, q.objective);
}

}  // namespace

void RegisterSolverCommands(CLI::App& app) {
  CLI::App* tables = app.add_subcommand("tables", "solitaire value tables");
  tables->require_subcommand(1);
  auto build = std::make_shared<TableArgs>();
  CLI::App* b = tables->add_subcommand("build", "solve every solitaire position and save the table");
  b->add_option("--out", build->out, "table file (default: " + DefaultTableDir() + "/...)");
  AddRulesOption(b, &build->rules);
  AddObjectiveOption(b, &build->objective);
  b->add_option("--max-free", build->max_free,
                "solve only positions with at most N free cells (endgame tables, tests)")
      ->check(CLI::Range(4, 25));
  b->add_option("--blocked-rows", build->blocked,
                "rows crossed by opponents' PENKs, as digits (e.g. 13); default none (solitaire)");
  b->add_flag("--all", build->all,
              "every set of blocked rows of the rules (32; 1 with penk-lines=columns) into the "
              "table folder, keeping valid ones (for penk engine --no-build)");
  b->add_flag("--no-spread", build->no_spread,
              "only the value table, not the spread table beside it (penk hint's sd; with a "
              "target also the mean table, its mean; built on first use then)");
  b->add_option("--table-dir", build->table_dir,
                "with --all: the table folder (default: $PENK_TABLE_DIR or tables/ beside penk)");
  b->callback([build] { RunTablesBuild(*build); });

  auto value = std::make_shared<ValueArgs>();
  CLI::App* v = app.add_subcommand(
      "value",
      "optimal expected final score from the start of a turn (solitaire), and its standard "
      "deviation (sd); with --objective target=X the probability of reaching X, with the "
      "expected final score (mean) and sd under that policy");
  v->add_option("--sheet", value->sheet, "sheet in R7.3 notation")->default_str(kEmptySheetText);
  AddRulesOption(v, &value->rules);
  AddObjectiveOption(v, &value->objective);
  v->add_option("--table", value->table,
                "table file, only read (default: the table folder's, built on first use)");
  v->callback([value] { RunValue(*value); });

  auto hint = std::make_shared<HintArgs>();
  CLI::App* h = app.add_subcommand(
      "hint",
      "what to keep (or mark): every action ranked by expected final score, with the standard "
      "deviation (sd) of the final score after it (with --objective target=X: ranked by the "
      "probability of reaching X, with the expected final score (mean) and sd under that policy)");
  h->add_option("--sheet", hint->sheet, "sheet in R7.3 notation")->default_str(kEmptySheetText);
  h->add_option("--roll", hint->roll, "the six dice, e.g. 3335JJ")->required();
  h->add_option("--rerolls", hint->rerolls, "rerolls left: 2, 1 or 0 (0: choose the marking)")
      ->default_val(2)
      ->check(CLI::Range(0, 2));
  // Checked in RunHint: CLI11's NonNegativeNumber names its bound, a
  // 300-digit number, in its error.
  h->add_option("--top", hint->top, "show only the best K actions (0: all)")->default_val(0);
  h->add_flag("--json", hint->json, "one JSON object instead of a table");
  AddRulesOption(h, &hint->rules);
  AddObjectiveOption(h, &hint->objective);
  h->add_option("--table", hint->table,
                "table file, only read (default: the table folder's, built on first use)");
  h->add_option("--opponent", hint->opponents,
                "another player's sheet (repeatable, in turn order after the player to move): "
                "rank by expert's estimated win probability");
  CLI::Option* last_round = h->add_flag(
      "--last-round", hint->last_round,
      "with --opponent: the last round has begun (R5.2): this is the mover's final turn (exact)");
  CLI::Option* seat = h->add_option("--seat", hint->seat,
                                    "with --opponent: the mover's seat 1-4 (seats before it have "
                                    "finished the last round)")
                          ->default_val(1);
  CLI::Option* turn = h->add_option(
      "--turn", hint->turns,
      "with --opponent: turns the mover has played (default: estimated from the sheet)");
  CLI::Option* rollouts = h->add_option(
      "--rollouts", hint->rollouts,
      absl::StrCat("with --opponent: play each candidate out N times to the end (1..",
                   kMaxRollouts, "), same dice for every candidate"));
  CLI::Option* candidates = h->add_option(
      "--candidates", hint->candidates,
      "with --rollouts: roll out only the best K by the fast estimate (0: all)")
                                ->check(CLI::Range(0, 1000));
  CLI::Option* time_ms = h->add_option(
      "--time-ms", hint->time_ms,
      absl::StrCat("with --rollouts: bound the whole analysis, 1..", kMaxRolloutTimeMs,
                   " ms (0: none); what was played is shown"));
  CLI::Option* policy = h->add_option("--policy", hint->policy,
                                      "with --rollouts: the player of every seat (default expert)");
  CLI::Option* seed = h->add_option("--seed", hint->seed, "with --rollouts: the dice seed")
                          ->check(SeedNotNegative());
  CLI::Option* threads = h->add_option(
      "--threads", hint->threads,
      absl::StrCat("with --rollouts: OpenMP threads, 1..", kMaxRolloutThreads));
  AddTableCacheOption(h, &hint->table_cache_mb);
  h->callback([hint, last_round, seat, turn, rollouts, candidates, time_ms, policy, seed, threads] {
    // Alone there is no seat, turn count or last round to speak of: an option
    // that would change nothing is refused rather than ignored.
    if (hint->opponents.empty())
      for (const CLI::Option* o : {last_round, seat, turn})
        if (o->count() > 0)
          throw UsageError{absl::StrCat(o->get_name(),
                                        " describes a game with opponents: give their sheets "
                                        "with --opponent, or leave it out")};
    if (hint->opponents.empty() && rollouts->count() > 0)
      throw UsageError{"--rollouts plays games against opponents: give their sheets with --opponent"};
    if (rollouts->count() > 0 && (hint->rollouts < 1 || hint->rollouts > kMaxRollouts))
      throw UsageError{absl::StrCat("--rollouts must be 1..", kMaxRollouts, "; got ", hint->rollouts)};
    if (rollouts->count() == 0)
      for (const CLI::Option* o : {candidates, time_ms, policy, seed, threads})
        if (o->count() > 0)
          throw UsageError{absl::StrCat(o->get_name(), " sets up rollouts: give --rollouts N too")};
    if (hint->time_ms < 0 || hint->time_ms > kMaxRolloutTimeMs)
      throw UsageError{absl::StrCat("--time-ms must be 0..", kMaxRolloutTimeMs, "; got ", hint->time_ms)};
    if (hint->threads < 1 || hint->threads > kMaxRolloutThreads)
      throw UsageError{absl::StrCat("--threads must be 1..", kMaxRolloutThreads, "; got ", hint->threads)};
    if (rollouts->count() > 0) {
      const std::string name = absl::AsciiStrToLower(hint->policy);
      OrFail(CheckBotName(name));
    }
    RunHint(*hint);
  });
}

}  // namespace penk::cli
