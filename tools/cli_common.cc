#include "tools/cli_common.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "engine/quoted_input.h"
#include "solver/solitaire_state.h"
#include "tables/table_store.h"

namespace penk::cli {

void AddRulesOption(CLI::App* app, std::string* text) {
  app->add_option("--rules", *text,
                  "rule variants: penk-lines=all|columns (R4.3), line-min=1..5 (R6.5), "
                  "comma-separated (docs/RULES.md)")
      ->default_str("line-min=3,penk-lines=all");
}

void AddObjectiveOption(CLI::App* app, std::string* text) {
  app->add_option("--objective", *text,
                  "what the solver optimises: mean (the expected final score) or target=X "
                  "(the probability that the final score is at least X, 0..190)")
      ->default_str("mean");
}

void AddTableCacheOption(CLI::App* app, size_t* mb) {
  app->add_option("--table-cache-mb", *mb,
                  "memory for exact tables (14.5 MB each), least recently used dropped first")
      ->default_val(TableCache::kDefaultCapMegabytes)
      ->check(CLI::Range(size_t{1}, TableCache::kMaxCapMegabytes));
}

SolitaireTable TableForSheet(const Sheet& sheet, const Rules& rules, const std::string& path,
                             Objective objective) {
  SolitairePosition position = OrFail(PositionOfSheet(sheet));
  return OrFail(LoadOrBuildTable(rules, path, position.blocked_rows, objective));
}

std::shared_ptr<TableCache> CommandTableCache(size_t mb) {
  return std::make_shared<TableCache>(FileTableLoader("", /*allow_build=*/true), mb << 20);
}

CLI::Validator SeedNotNegative() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const size_t start = text.find_first_not_of(" \t");
        if (start != std::string::npos && text[start] == '-')
          return "a seed is a number from 0 to 2^64-1; got " + QuotedInput(text);
        return "";
      },
      "SEED");
}

void WriteFileAtomically(const std::string& path, const std::string& text,
                         const std::string& what) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw UsageError{absl::StrCat(what, "cannot write ", QuotedInput(tmp))};
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw UsageError{absl::StrCat(what, "cannot write ", QuotedInput(path), ": ", ec.message())};
}

std::string Plural(long long n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 || n == -1 ? one : many);
}

std::string WinFiguresHeader(const nlohmann::ordered_json& answer, const std::string& indent) {
  const std::string estimate = answer.value("estimate", std::string("expert"));
  std::string out = indent;
  if (estimate == "exact")
    out += "win: the exact probability of winning (the last round of a two-player game: the "
           "opponent's last turn solved, or its final score known); score: the final score\n";
  else if (estimate == "neural")
    out += absl::StrCat("win: the neural net's chance of winning (a tie shared), trained on "
                        "self-play and calibrated on its outcomes (docs/AI.md)",
                        answer.value("last_round", false)
                            ? "; last round: each later seat's final turn modelled on its own"
                            : "",
                        "; score: expected final score in this game\n");
  else
    out += "win: expert's fast estimate, calibrated on self-play (docs/AI.md; the net is "
           "trained for line-min=3 only); no expected score in this game\n";
  out += indent +
         "ranked by win, then score, then solitaire value, then fewer dice rerolled; '=': the same "
         "win and score as the line above (a tie)\n";
  return out;
}

}  // namespace penk::cli
