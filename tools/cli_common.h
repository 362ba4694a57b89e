// Shared pieces of the `penk` command line: option parsing helpers and the
// single way a command reports bad input (one line on stderr, exit code 2).
#ifndef PENK_TOOLS_CLI_COMMON_H_
#define PENK_TOOLS_CLI_COMMON_H_

#include <memory>
#include <string>

#include "nlohmann/json.hpp"

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/table_cache.h"

namespace penk::cli {

// Thrown by commands for bad input; main prints "penk: <message>" and exits 2.
struct UsageError {
  std::string message;
};

// Value of a StatusOr, or a UsageError with its message.
template <class T>
T OrFail(absl::StatusOr<T> value) {
  if (!value.ok()) throw UsageError{std::string(value.status().message())};
  return *std::move(value);
}
inline void OrFail(const absl::Status& status) {
  if (!status.ok()) throw UsageError{std::string(status.message())};
}

// Adds `--rules` to a subcommand, bound to `text`.
void AddRulesOption(CLI::App* app, std::string* text);

// Adds `--objective mean|target=X` (solver/objective.h), bound to `text`.
void AddObjectiveOption(CLI::App* app, std::string* text);

// Adds `--table-cache-mb` (1..TableCache::kMaxCapMegabytes), bound to `mb`.
void AddTableCacheOption(CLI::App* app, size_t* mb);
// The command's table cache for the AI players and the advisor: table files
// of the default folder, built and saved there on first use; at most `mb` MB
// of tables in memory.
std::shared_ptr<TableCache> CommandTableCache(size_t mb);

// The table for the sheet's rule variant and blocked rows (rows crossed by
// opponents' PENKs, R4.2; none in solitaire): the named file, else the table
// folder's (built there if missing); a one-line error and exit 2 otherwise.
SolitaireTable TableForSheet(const Sheet& sheet, const Rules& rules, const std::string& path,
                             Objective objective = {});
// For a seed option: refuses a negative number, which CLI11 would otherwise
// wrap to 2^64-1 in an unsigned seed.
CLI::Validator SeedNotNegative();

// The lines above a ranking with opponents (`penk hint`, `penk play`'s ?):
// what "win" and "score" are (the hint's "estimate"), the order, and what a
// tie mark means; each line starts with `indent`.
std::string WinFiguresHeader(const nlohmann::ordered_json& answer, const std::string& indent = "");

// "1 point", "2 points": a count with its noun in the right number.
std::string Plural(long long n, const std::string& one, const std::string& many);

// Writes `text` to `path` through a temporary file beside it, so that a
// failed write leaves the old file whole; a failure is a UsageError starting
// with `what` ("--save: ", or "" for a command's output file).
void WriteFileAtomically(const std::string& path, const std::string& text,
                         const std::string& what = "");

// Each file of tools/ registers its subcommands here.
void RegisterScoreAndMoves(CLI::App& app);
void RegisterPlay(CLI::App& app);
void RegisterSolverCommands(CLI::App& app);
void RegisterSimulate(CLI::App& app);
void RegisterMatch(CLI::App& app);
void RegisterCalibrate(CLI::App& app);
void RegisterAnalysisCommands(CLI::App& app);
void RegisterEngine(CLI::App& app);
void RegisterServe(CLI::App& app);
void RegisterData(CLI::App& app);
void RegisterNeural(CLI::App& app);

}  // namespace penk::cli

#endif  // PENK_TOOLS_CLI_COMMON_H_
