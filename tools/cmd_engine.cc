// `penk engine`: the engine protocol on stdin/stdout (docs/PROTOCOL.md).
//
// One JSON request per line in, one JSON reply per line out, flushed after
// each reply; nothing else is written to stdout (table builds report on
// stderr). Requests run through the dispatcher (protocol/dispatch.h): after
// a hello with "protocol":3 lines are read while earlier requests run, and
// replies (and progress messages) come in completion order. Ends on
// {"cmd":"quit"} or at the end of input, once every request is answered.
// Bounds (request line 1 MiB, requests in flight, AI levels per game, table
// memory) are in docs/PROTOCOL.md.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "tools/cli_common.h"
#include "protocol/dispatch.h"
#include "protocol/protocol.h"

namespace penk::cli {
namespace {

struct EngineArgs {
  std::string table_dir;
  bool no_build = false;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
};

// HandleLine refuses lines longer than 1 MiB; a line is read up to one byte
// past that, so it is refused as such, and the rest of it is skipped without
// being kept: a 1 GiB line costs 1 MiB.
constexpr size_t kKeptLineBytes = (size_t{1} << 20) + 1;

// The next line without its '\n' (at most kKeptLineBytes of it); false at
// the end of input with nothing read.
bool ReadBoundedLine(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) return any;
    any = true;
    if (c == '\n') return true;
    if (line.size() < kKeptLineBytes) line.push_back(static_cast<char>(c));
  }
}

void RunEngine(const EngineArgs& a) {
  protocol::SessionOptions options;
  options.table_dir = a.table_dir;
  options.build.allow = !a.no_build;
  options.table_cache_mb = a.table_cache_mb;
  protocol::Session session(options);
  std::ios::sync_with_stdio(false);
  // Called by one thread at a time (the dispatcher's lock).
  protocol::Dispatcher dispatcher(session, [](const std::string& line, bool) {
    std::cout << line << '\n' << std::flush;
  });
  std::string line;
  while (!session.quit_requested() && ReadBoundedLine(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines are ignored
    dispatcher.Submit(line);
  }
  dispatcher.Drain();  // the end of input: every request answered first
}

}  // namespace

void RegisterEngine(CLI::App& app) {
  auto args = std::make_shared<EngineArgs>();
  CLI::App* e = app.add_subcommand(
      "engine",
      "JSON line protocol on stdin/stdout for other frontends (docs/PROTOCOL.md; protocol 3 "
      "after {\"cmd\":\"hello\",\"protocol\":3}: requests in flight, progress, cancel); limits: "
      "request lines of 1 MiB, 16 requests in flight, 256 open games, 8 distinct AI levels per game");
  e->add_option("--table-dir", args->table_dir,
                "folder of the value tables (default: $PENK_TABLE_DIR or tables/ beside penk)");
  e->add_flag("--no-build", args->no_build,
              "never build a missing table (requests that need one, AI moves included, get "
              "table_error naming the file; see penk tables build --all)");
  AddTableCacheOption(e, &args->table_cache_mb);
  e->callback([args] { RunEngine(*args); });
}

}  // namespace penk::cli
