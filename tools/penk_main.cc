// `penk`: the command-line front of the PENK engine and solver.
#include <cstdio>

#include "CLI/CLI.hpp"
#include "tools/cli_common.h"

int main(int argc, char** argv) {
  CLI::App app{"penk: rules engine, optimal solver and AI for the dice game PENK"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "penk 0.1.0");
  penk::cli::RegisterScoreAndMoves(app);
  penk::cli::RegisterPlay(app);
  penk::cli::RegisterSolverCommands(app);
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
