// `penk`: the command-line front of the PENK engine and solver.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "ai/calibration_map.h"
#include "ai/ladder.h"
#include "engine/dispatch.h"
#include "penk_version.h"
#include "solver/table_cache.h"
#include "engine/quoted_input.h"
#include "tools/cli_common.h"

namespace {

// "penk hint --help" for an error in `penk hint ...`: the help that lists the
// options of the command that was being parsed (CLI11 records the
// subcommands met so far even when parsing fails).
std::string HelpFor(const CLI::App& app) {
  std::string command = "penk";
  for (const CLI::App* at = &app; !at->get_subcommands().empty();) {
    at = at->get_subcommands().front();
    command += " " + at->get_name();
  }
  return command + " --help";
}

// CLI11 messages quote the value they refuse whole: one line, and a long
// value cut (the rest of penk quotes input through QuotedInput).
std::string OneLine(const std::string& message) {
  constexpr size_t kMax = 160;
  std::string out;
  for (char c : message.substr(0, kMax))
    out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  return message.size() > kMax ? out + "..." : out;
}

}  // namespace

int main(int argc, char** argv) {
  // The measured figures compiled in (data/*.json) are checked before any
  // command runs: a damaged one ends here with its one-line reason. Only the
  // writers of those files run without them: a new level (ai/bot.h kLevels)
  // has no ladder entry until `penk data ladder` writes it.
  const bool writes_data = argc >= 3 && std::string(argv[1]) == "data" &&
                           (std::string(argv[2]) == "ladder" || std::string(argv[2]) == "calibration");
  if (!writes_data) {
    penk::StrengthLadder();
    penk::FittedCalibration();
    penk::FittedNeuralCalibration();
  }
  CLI::App app{"penk: rules engine, optimal solver and AI for the dice game PENK"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("penk " PENK_VERSION_STRING " (") + penk::DispatchLevel() + ")");
  // Messages cite rules by number (R4.2); say where the numbers are defined.
  app.footer("Rules: docs/RULES.md in the source tree; messages cite them by number (R4.2).\n"
             "Tables: $PENK_TABLE_DIR, else tables/ beside the penk binary.");
  penk::cli::RegisterScoreAndMoves(app);
  penk::cli::RegisterPlay(app);
  penk::cli::RegisterSolverCommands(app);
  penk::cli::RegisterSimulate(app);
  penk::cli::RegisterMatch(app);
  penk::cli::RegisterCalibrate(app);
  penk::cli::RegisterEngine(app);
  penk::cli::RegisterServe(app);
  penk::cli::RegisterAnalysisCommands(app);
  penk::cli::RegisterData(app);
  penk::cli::RegisterNeural(app);
  // CLI11 would only say "a subcommand is required"; name the unknown word.
  const std::vector<CLI::App*> commands =
      app.get_subcommands([](CLI::App*) { return true; });
  bool known = argc < 2 || argv[1][0] == '-';
  std::string names;
  for (CLI::App* sub : commands) {
    known = known || sub->get_name() == argv[1];
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  if (!known) {
    std::fprintf(stderr, "penk: unknown command %s; expected one of %s\n",
                 penk::QuotedInput(argv[1]).c_str(), names.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // One line: what was wrong; the command's --help tells what is expected.
    std::fprintf(stderr, "penk: %s (see %s)\n", OneLine(e.what()).c_str(), HelpFor(app).c_str());
    return 2;
  } catch (const penk::cli::UsageError& e) {
    std::fprintf(stderr, "penk: %s\n", e.message.c_str());
    return 2;
  } catch (const penk::TableUnavailable& e) {  // an AI player's table, refused
    std::fflush(stdout);
    std::fprintf(stderr, "penk: %s\n", e.what());
    return 2;
  }
  return 0;
}
