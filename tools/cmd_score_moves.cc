// `penk score` and `penk moves`: the rules engine from the command line.
#include <cstdio>
#include <memory>

#include "absl/strings/str_cat.h"
#include "engine/marking.h"
#include "engine/score.h"
#include "nlohmann/json.hpp"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct ScoreArgs {
  std::string sheet, rules;
  bool json = false;
};

void RunScore(const ScoreArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Rules rules = OrFail(ParseRules(a.rules));
  ScoreBreakdown s = ScoreSheet(sheet, rules);
  if (a.json) {  // the names of a player in the engine's state (docs/PROTOCOL.md)
    nlohmann::ordered_json closed = nlohmann::ordered_json::array();
    for (int v = 1; v <= kColumns; ++v)
      if (sheet.ColumnClosed(v)) closed.push_back(v);
    nlohmann::ordered_json out = {{"sheet", FormatSheet(sheet)},   {"rules", FormatRules(rules)},
                                  {"score", s.total},              {"row_scores", s.row},
                                  {"column_scores", s.column},     {"closed_columns", closed}};
    std::printf("%s\n", out.dump().c_str());
    return;
  }
  for (int k = 1; k <= kRows; ++k)
    std::printf("row %d (%s a cell): %d circled -> %d\n", k,
                Plural(kRowPoints[k - 1], "point", "points").c_str(),
                std::popcount(sheet.circled & RowMask(k)), s.row[k - 1]);
  for (int v = 1; v <= kColumns; ++v)
    std::printf("column %d: %d circled -> %d\n", v, std::popcount(sheet.circled & ColumnMask(v)),
                s.column[v - 1]);
  std::printf("total: %d\n", s.total);
}

struct MovesArgs {
  std::string sheet = kEmptySheetText, roll;
};

void RunMoves(const MovesArgs& a) {
  Sheet sheet = OrFail(ParseSheet(a.sheet));
  Dice roll = OrFail(ParseRoll(a.roll));
  // Nothing to list is an answer nobody can tell from a mistake: say why.
  if (sheet.free() == 0)
    throw UsageError{absl::StrCat("sheet ", FormatSheet(sheet),
                                  " has no free cell: its player does nothing on a turn (R3.6)")};
  if (sheet.ClosedColumns() >= 2)
    throw UsageError{absl::StrCat("sheet ", FormatSheet(sheet),
                                  " has two closed columns: the game is over (R5.2)")};
  std::vector<uint32_t> markings = LegalMarkings(sheet, roll);
  for (uint32_t m : markings) std::printf("%s\n", FormatMarking(m).c_str());
  if (markings.empty())
    for (int v : FailureColumns(sheet)) std::printf("fail:%d\n", v);
}

}  // namespace

void RegisterScoreAndMoves(CLI::App& app) {
  auto score = std::make_shared<ScoreArgs>();
  CLI::App* s = app.add_subcommand("score", "score a sheet (R6), by row and by column");
  s->add_option("sheet", score->sheet, "sheet in R7.3 notation, e.g. ooo.o/..o.x/....x/..o.x/....x")
      ->required();
  AddRulesOption(s, &score->rules);
  s->add_flag("--json", score->json,
              "one JSON object: score, row_scores, column_scores, closed_columns (as the engine's state)");
  s->callback([score] { RunScore(*score); });

  auto moves = std::make_shared<MovesArgs>();
  CLI::App* m = app.add_subcommand(
      "moves", "every legal marking of a roll on a sheet (R3), or the failure choices (R3.5)");
  m->add_option("--sheet", moves->sheet, "sheet in R7.3 notation")
      ->default_str(kEmptySheetText);
  m->add_option("--roll", moves->roll, "six dice from 1-5 and J, e.g. 3335JJ")->required();
  m->callback([moves] { RunMoves(*moves); });
}

}  // namespace penk::cli
