// `penk`: the command-line front of the PENK engine and solver.
#include <cstdio>
#include <string>

#include "CLI/CLI.hpp"
#include "engine/dispatch.h"
#include "tools/cli_common.h"

int main(int argc, char** argv) {
  CLI::App app{"penk: rules engine, optimal solver and AI for the dice game PENK"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("penk 0.1.0 (") + penk::DispatchLevel() + ")");
  // Messages cite rules by number (R4.2); say where the numbers are defined.
  app.footer("Rules: docs/RULES.md in the source tree; messages cite them by number (R4.2).\n"
             "Tables: $PENK_TABLE_DIR, else tables/ beside the penk binary.");
  penk::cli::RegisterScoreAndMoves(app);
  penk::cli::RegisterPlay(app);
  penk::cli::RegisterSolverCommands(app);
  penk::cli::RegisterSimulate(app);
  penk::cli::RegisterEngine(app);
  penk::cli::RegisterAnalysisCommands(app);
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
    std::fprintf(stderr, "penk: unknown command \"%s\"; expected one of %s\n", argv[1], names.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // One line: what was wrong; --help tells what is expected.
    std::fprintf(stderr, "penk: %s (see penk --help)\n", e.what());
    return 2;
  } catch (const penk::cli::UsageError& e) {
    std::fprintf(stderr, "penk: %s\n", e.message.c_str());
    return 2;
  }
  return 0;
}
