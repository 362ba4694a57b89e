// `penk engine`: the engine protocol on stdin/stdout (docs/PROTOCOL.md).
//
// One JSON request per line in, one JSON reply per line out, flushed after
// each reply; nothing else is written to stdout (table builds report on
// stderr). Ends on {"cmd":"quit"} or at the end of input.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "tools/cli_common.h"
#include "tools/engine_protocol.h"

namespace penk::cli {
namespace {

struct EngineArgs {
  std::string table_dir;
  bool no_build = false;
};

void RunEngine(const EngineArgs& a) {
  engine::SessionOptions options;
  options.table_dir = a.table_dir;
  options.allow_build = !a.no_build;
  engine::InstallAiTableLoader(options);
  engine::Session session(options);
  std::ios::sync_with_stdio(false);
  std::string line;
  while (!session.quit_requested() && std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines are ignored
    std::string reply = engine::HandleLine(session, line);
    std::cout << reply << '\n' << std::flush;
  }
}

}  // namespace

void RegisterEngine(CLI::App& app) {
  auto args = std::make_shared<EngineArgs>();
  CLI::App* e = app.add_subcommand(
      "engine", "JSON line protocol on stdin/stdout for other frontends (docs/PROTOCOL.md)");
  e->add_option("--table-dir", args->table_dir,
                "folder of the value tables (default: $PENK_TABLE_DIR or tables/ beside penk)");
  e->add_flag("--no-build", args->no_build,
              "never build a missing table (requests that need one get table_error)");
  e->callback([args] { RunEngine(*args); });
}

}  // namespace penk::cli
