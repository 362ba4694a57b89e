// `penk tables build`, `penk value`, `penk hint`: the solitaire solver.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "absl/strings/str_format.h"
#include "engine/position_check.h"
#include "engine/quoted_input.h"
#include "solver/advisor.h"
#include "ai/win_ranking.h"
#include "solver/solitaire_state.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"
#include "tables/table_store.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

constexpr char kEmptySheet[] = "...../...../...../...../.....";

struct TableArgs {
  std::string out, rules, blocked, table_dir;
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

// The table for the sheet's blocked rows (crossed by opponents' PENKs, R4.2).
SolitaireTable TableForSheet(const Sheet& sheet, const Rules& rules, const std::string& path) {
  SolitairePosition position = OrFail(PositionOfSheet(sheet));
  return OrFail(LoadOrBuildTable(rules, path, position.blocked_rows));
}

// `tables build --all`: every blocked-row table of the rule set into the table
// folder, for deployments that must never build at request time
// (`penk engine --no-build`). Valid tables already there are kept.
void RunTablesBuildAll(const TableArgs& a, const Rules& rules) {
  if (!a.out.empty() || !a.blocked.empty())
    throw UsageError{"--all builds every set of blocked rows into the table folder: "
                     "give --table-dir instead of --out and --blocked-rows"};
  const std::string dir = a.table_dir.empty() ? DefaultTableDir() : a.table_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw UsageError{absl::StrCat("cannot create the table folder ", dir, ": ", ec.message())};
  OrFail(CheckTableWritable(TablePathIn(dir, rules, 0)));
  const std::vector<uint32_t> sets = BlockedRowSets(rules);
  int built = 0, kept = 0;
  for (size_t i = 0; i < sets.size(); ++i) {
    const std::string path = TablePathIn(dir, rules, sets[i]);
    const std::string rows = sets[i] ? BlockedRowsDigits(sets[i]) : "none";
    absl::StatusOr<SolitaireTable> present = ReadTable(path, rules, sets[i]);
    if (present.ok() && present->max_free() >= a.max_free) {
      std::fprintf(stderr, "[%zu/%zu] blocked rows %s: %s is valid, kept\n", i + 1, sets.size(),
                   rows.c_str(), path.c_str());
      ++kept;
      continue;
    }
    std::fprintf(stderr, "[%zu/%zu] blocked rows %s: building %s\n", i + 1, sets.size(),
                 rows.c_str(), path.c_str());
    OrFail(WriteTable(BuildTableWithProgress(rules, a.max_free, true, sets[i]), path));
    ++built;
  }
  std::printf("rules: %s\ntables: %d built, %d kept, in %s\n", FormatRules(rules).c_str(), built,
              kept, dir.c_str());
}

void RunTablesBuild(const TableArgs& a) {
  Rules rules = OrFail(ParseRules(a.rules));
  if (a.all) return RunTablesBuildAll(a, rules);
  if (!a.table_dir.empty()) throw UsageError{"--table-dir goes with --all (else use --out)"};
  const uint32_t blocked = ParseBlockedRows(a.blocked);
  std::string path = a.out.empty() ? DefaultTablePath(rules, blocked) : a.out;
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::filesystem::create_directories(dir, ec);
  OrFail(CheckTableWritable(path));  // before a build of seconds, not after
  SolitaireTable table = BuildTableWithProgress(rules, a.max_free, true, blocked);
  OrFail(WriteTable(table, path));
  // The spread of every choice (penk hint's sd), beside it.
  const std::string spread_path = SpreadPathFor(path);
  if (!a.no_spread) OrFail(WriteSpreadTable(BuildSpreadWithProgress(table, true), spread_path));
  std::printf("rules: %s\nstates: %lld\n", FormatRules(rules).c_str(),
              static_cast<long long>(kNumSolitaireStates));
  if (blocked) std::printf("blocked rows: %s\n", a.blocked.c_str());
  if (a.max_free == kRows * kColumns && !blocked)
    std::printf("value of the empty sheet: %.6f\n", *table.Value(Sheet{}));
  else
    std::printf("solved: positions with at most %d free cells\n", a.max_free);
  std::printf("table: %s\n", path.c_str());
  if (!a.no_spread) std::printf("spread table: %s\n", spread_path.c_str());
}

struct ValueArgs {
  std::string sheet = kEmptySheet, rules, table;
};

void RunValue(const ValueArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Rules rules = OrFail(ParseRules(a.rules));
  SolitaireTable table = TableForSheet(sheet, rules, a.table);
  double v = OrFail(table.Value(sheet));
  std::printf("sheet: %s\n", FormatSheet(sheet).c_str());
  if (sheet.ClosedColumns() >= 2) std::printf("finished (R5.2): the value is the score\n");
  // The standard deviation of the final score under optimal play (a finished
  // game's score is certain); the value line stays last (scripts read it).
  double variance = 0;
  if (sheet.ClosedColumns() < 2)
    variance = OrFail(SheetVariance(table, OrFail(LoadOrBuildSpreadTable(table, a.table)), sheet));
  std::printf("sd: %.6f\n", std::sqrt(variance));
  std::printf("value: %.6f\n", v);
}

struct HintArgs {
  std::string sheet = kEmptySheet, roll, rules, table;
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
};

// The heading of a ranking's action column: what is being chosen.
const char* ChoiceHeading(int rerolls, const std::vector<RankedAction>& ranked) {
  if (rerolls > 0) return "keep";
  return ranked.front().action.kind == Action::kFail ? "failure" : "marking";
}

// An action as a table shows it: keeping all six dice is stopping (R2.2).
std::string ShownAction(const Action& action, int rerolls) {
  std::string name = FormatAction(action);
  if (rerolls > 0 && action.keep.size() == kDice) name += " (stop)";
  return name;
}

// With opponents: expert's estimate of the probability of winning for each
// ranked action (ai/win_ranking.h), the actions re-ranked by it.
std::vector<double> ExpertEstimates(const HintArgs& a, const Sheet& sheet, const Dice& roll,
                                    const Rules& rules, std::vector<RankedAction>& ranked) {
  WinQuery query;
  query.sheet = sheet;
  for (const std::string& text : a.opponents) query.opponents.push_back(OrFail(ParseSheet(text)));
  query.rules = rules;
  query.last_round = a.last_round;
  query.seat = a.seat;
  query.turns = a.turns;
  std::vector<double> win;
  OrFail(RankForWin(query, roll, a.rerolls, ranked, win, CommandTableCache(a.table_cache_mb)));
  return win;
}

void RunMultiplayerHint(const HintArgs& a, const Sheet& sheet, const Dice& roll,
                        const Rules& rules, std::vector<RankedAction>& ranked) {
  const std::vector<double> win = ExpertEstimates(a, sheet, roll, rules, ranked);
  size_t shown = a.top > 0 ? std::min<size_t>(a.top, ranked.size()) : ranked.size();
  if (a.json) {
    std::string s = absl::StrFormat(R"({"sheet":"%s","roll":"%s","rerolls":%d,"opponents":[)",
                                    FormatSheet(sheet), FormatDice(roll), a.rerolls);
    for (size_t i = 0; i < a.opponents.size(); ++i)
      absl::StrAppendFormat(&s, R"(%s"%s")", i ? "," : "", FormatSheet(*ParseSheet(a.opponents[i])));
    absl::StrAppendFormat(&s, R"(],"last_round":%s,"actions":[)", a.last_round ? "true" : "false");
    for (size_t i = 0; i < shown; ++i)
      absl::StrAppendFormat(&s, R"(%s{"action":"%s","win":%.6f,"value":%.6f})", i ? "," : "",
                            FormatAction(ranked[i].action), win[i], ranked[i].value);
    std::printf("%s]}\n", s.c_str());
    return;
  }
  std::printf("sheet %s  roll %s  rerolls left %d\n", FormatSheet(sheet).c_str(),
              FormatDice(roll).c_str(), a.rerolls);
  for (const std::string& o : a.opponents) std::printf("opponent %s\n", o.c_str());
  std::printf("ranked by expert's estimate of the probability of winning%s, then value, then "
              "fewer dice rerolled; value: expected final score (solitaire-optimal)\n",
              a.last_round ? " (last round: exact)" : "");
  const char* what = ChoiceHeading(a.rerolls, ranked);
  std::printf("%4s  %-12s %8s %12s\n", "rank", what, "win", "value");
  for (size_t i = 0; i < shown; ++i) {
    const std::string name = ShownAction(ranked[i].action, a.rerolls);
    std::printf("%4zu  %-12s %7.2f%% %12.6f\n", i + 1, name.c_str(), 100 * win[i],
                ranked[i].value);
  }
  if (shown < ranked.size()) std::printf("(%zu more; --top 0 shows all)\n", ranked.size() - shown);
}

void RunHint(const HintArgs& a) {
  if (a.top < 0)
    throw UsageError{absl::StrCat("--top must be 0 (show all) or a number of actions; got ", a.top)};
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Dice roll = OrFail(ParseRoll(a.roll));
  Rules rules = OrFail(ParseRules(a.rules));
  if (!a.opponents.empty()) {  // before any table is read: an impossible position gets its reason
    std::vector<Sheet> opponents;
    for (const std::string& text : a.opponents) opponents.push_back(OrFail(ParseSheet(text)));
    OrFail(CheckMoverAndOpponents(sheet, opponents, rules, a.last_round));
  }
  SolitaireTable table = TableForSheet(sheet, rules, a.table);
  // With opponents a sheet with two closed columns may still play the last
  // round (R5.2); alone, its game is over.
  std::vector<RankedAction> ranked = OrFail(RankActions(
      table, sheet, roll, a.rerolls,
      a.opponents.empty() ? FinishedSheet::kRefuse : FinishedSheet::kLastTurns));
  if (!a.opponents.empty()) {
    RunMultiplayerHint(a, sheet, roll, rules, ranked);
    return;
  }
  size_t shown = a.top > 0 ? std::min<size_t>(a.top, ranked.size()) : ranked.size();
  // The standard deviation of the final score after each action.
  const SpreadTable spreads = OrFail(LoadOrBuildSpreadTable(table, a.table));
  const std::vector<double> sd = OrFail(ActionSds(table, spreads, sheet, roll, a.rerolls, ranked));
  if (a.json) {
    std::string s = absl::StrFormat(R"({"sheet":"%s","roll":"%s","rerolls":%d,"actions":[)",
                                    FormatSheet(sheet), FormatDice(roll), a.rerolls);
    for (size_t i = 0; i < shown; ++i)
      absl::StrAppendFormat(&s, R"(%s{"action":"%s","value":%.6f,"sd":%.6f})", i ? "," : "",
                            FormatAction(ranked[i].action), ranked[i].value, sd[i]);
    std::printf("%s]}\n", s.c_str());
    return;
  }
  std::printf("sheet %s  roll %s  rerolls left %d\n", FormatSheet(sheet).c_str(),
              FormatDice(roll).c_str(), a.rerolls);
  const char* what = ChoiceHeading(a.rerolls, ranked);
  std::printf("%4s  %-12s %12s %10s %10s\n", "rank", what, "value", "loss", "sd");
  for (size_t i = 0; i < shown; ++i) {
    const std::string name = ShownAction(ranked[i].action, a.rerolls);
    std::printf("%4zu  %-12s %12.6f %10.6f %10.6f\n", i + 1, name.c_str(), ranked[i].value,
                ranked.front().value - ranked[i].value, sd[i]);
  }
  if (shown < ranked.size()) std::printf("(%zu more; --top 0 shows all)\n", ranked.size() - shown);
}

}  // namespace

void RegisterSolverCommands(CLI::App& app) {
  CLI::App* tables = app.add_subcommand("tables", "solitaire value tables");
  tables->require_subcommand(1);
  auto build = std::make_shared<TableArgs>();
  CLI::App* b = tables->add_subcommand("build", "solve every solitaire position and save the table");
  b->add_option("--out", build->out, "table file (default: " + DefaultTableDir() + "/...)");
  AddRulesOption(b, &build->rules);
  b->add_option("--max-free", build->max_free,
                "solve only positions with at most N free cells (endgame tables, tests)")
      ->check(CLI::Range(4, 25));
  b->add_option("--blocked-rows", build->blocked,
                "rows crossed by opponents' PENKs, as digits (e.g. 13); default none (solitaire)");
  b->add_flag("--all", build->all,
              "every set of blocked rows of the rules (32; 1 with penk-lines=columns) into the "
              "table folder, keeping valid ones (for penk engine --no-build)");
  b->add_flag("--no-spread", build->no_spread,
              "only the value table, not the spread table beside it (penk hint's sd; built on "
              "first use then)");
  b->add_option("--table-dir", build->table_dir,
                "with --all: the table folder (default: $PENK_TABLE_DIR or tables/ beside penk)");
  b->callback([build] { RunTablesBuild(*build); });

  auto value = std::make_shared<ValueArgs>();
  CLI::App* v = app.add_subcommand(
      "value",
      "optimal expected final score from the start of a turn (solitaire), and its standard "
      "deviation (sd)");
  v->add_option("--sheet", value->sheet, "sheet in R7.3 notation")->default_str(kEmptySheet);
  AddRulesOption(v, &value->rules);
  v->add_option("--table", value->table,
                "table file, only read (default: the table folder's, built on first use)");
  v->callback([value] { RunValue(*value); });

  auto hint = std::make_shared<HintArgs>();
  CLI::App* h = app.add_subcommand(
      "hint",
      "what to keep (or mark): every action ranked by expected final score, with the standard "
      "deviation (sd) of the final score after it");
  h->add_option("--sheet", hint->sheet, "sheet in R7.3 notation")->default_str(kEmptySheet);
  h->add_option("--roll", hint->roll, "the six dice, e.g. 3335JJ")->required();
  h->add_option("--rerolls", hint->rerolls, "rerolls left: 2, 1 or 0 (0: choose the marking)")
      ->default_val(2)
      ->check(CLI::Range(0, 2));
  // Checked in RunHint: CLI11's NonNegativeNumber names its bound, a
  // 300-digit number, in its error.
  h->add_option("--top", hint->top, "show only the best K actions (0: all)")->default_val(0);
  h->add_flag("--json", hint->json, "one JSON object instead of a table");
  AddRulesOption(h, &hint->rules);
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
  AddTableCacheOption(h, &hint->table_cache_mb);
  h->callback([hint, last_round, seat, turn] {
    // Alone there is no seat, turn count or last round to speak of: an option
    // that would change nothing is refused rather than ignored.
    if (hint->opponents.empty())
      for (const CLI::Option* o : {last_round, seat, turn})
        if (o->count() > 0)
          throw UsageError{absl::StrCat(o->get_name(),
                                        " describes a game with opponents: give their sheets "
                                        "with --opponent, or leave it out")};
    RunHint(*hint);
  });
}

}  // namespace penk::cli
