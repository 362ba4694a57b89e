// `penk serve`: the web app (docs/WEB.md): the page of web/, compiled in,
// and the engine protocol over a WebSocket at /engine (server/server.h).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "server/server.h"
#include "solver/objective.h"
#include "tables/build_policy.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct ServeArgs {
  server::ServerOptions options;
  std::string table_dir;
  bool no_build = false;
  bool build_any = false;
  std::vector<std::string> build_rules;       // empty: the default rules
  std::vector<std::string> build_objectives;  // empty: mean
  size_t table_disk_mb = 2048;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
  size_t max_games = 16;
  size_t max_message_kb = 64;
};

void RunServe(ServeArgs& a) {
  a.options.session.table_dir = a.table_dir;
  // Web clients may ask for any rules and objective: only those the
  // operator names are built (issue 20, item 7), the others must be in the
  // folder already; a disk budget bounds what building adds.
  BuildPolicy& policy = a.options.session.build;
  policy.allow = !a.no_build;
  if (!a.build_any) {
    if (a.build_rules.empty()) policy.rules.push_back(Rules{});
    for (const std::string& r : a.build_rules) {
      absl::StatusOr<Rules> rules = ParseRules(r);
      OrFail(rules.status());
      policy.rules.push_back(*rules);
    }
    if (a.build_objectives.empty()) policy.objectives.push_back(Objective{});
    for (const std::string& o : a.build_objectives) {
      absl::StatusOr<Objective> objective = ParseObjective(o);
      OrFail(objective.status());
      policy.objectives.push_back(*objective);
    }
  }
  policy.disk_budget_bytes = static_cast<uint64_t>(a.table_disk_mb) << 20;
  a.options.session.table_cache_mb = a.table_cache_mb;
  a.options.session.max_games = a.max_games;
  a.options.max_message_bytes = a.max_message_kb << 10;
  // A page never names table files of the server's machine.
  a.options.session.allow_table_paths = false;
  auto server = server::Server::Listen(a.options);
  OrFail(server.status());
  std::fprintf(stderr, "penk serve: open http://%s:%u (Ctrl-C stops)\n",
               a.options.host.find(':') == std::string::npos
                   ? a.options.host.c_str()
                   : ("[" + a.options.host + "]").c_str(),
               static_cast<unsigned>((*server)->port()));
  std::fprintf(stderr, "penk serve: builds missing %s\n", DescribeBuildPolicy(policy).c_str());
  (*server)->Run(/*handle_signals=*/true);
  std::fprintf(stderr, "penk serve: stopped\n");
}

}  // namespace

void RegisterServe(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* s = app.add_subcommand(
      "serve",
      "the web app: play against the AI and ask the advisor in a browser (docs/WEB.md); "
      "serves the page and the engine protocol on a WebSocket at /engine");
  s->add_option("--host", args->options.host,
                "IP address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every "
                "interface)");
  s->add_option("--port", args->options.port, "TCP port (default 8080; 0: any free port)")
      ->check(CLI::Range(0, 65535));
  s->add_option("--table-dir", args->table_dir,
                "folder of the value tables (default: $PENK_TABLE_DIR or tables/ beside penk)");
  s->add_flag("--no-build", args->no_build,
              "never build a missing table (requests that need one get table_error)");
  s->add_option("--build-rules", args->build_rules,
                "rules whose missing tables are built (repeatable; default: the default rules "
                "only); tables of other rules must be in the folder (penk tables build)");
  s->add_option("--build-objective", args->build_objectives,
                "objectives whose missing tables are built (repeatable, e.g. target=150; "
                "default: mean only)");
  s->add_flag("--build-any", args->build_any,
              "build missing tables of any rules and objective a client asks for");
  s->add_option("--table-disk-mb", args->table_disk_mb,
                "no table is built once the table folder holds this many MB (default 2048)")
      ->check(CLI::Range(1, 1 << 24));
  AddTableCacheOption(s, &args->table_cache_mb);
  s->add_option("--max-connections", args->options.max_connections,
                "open connections at once (default 64); one more gets 503")
      ->check(CLI::Range(1, 10000));
  s->add_option("--max-games", args->max_games,
                "open games per WebSocket connection (default 16); one more gets `limit`")
      ->check(CLI::Range(1, 256));
  s->add_option("--max-message-kb", args->max_message_kb,
                "largest WebSocket message in KiB (default 64); a larger one closes the "
                "connection with status 1009")
      ->check(CLI::Range(1, 1024));
  s->add_option("--allow-host", args->options.allowed_hosts,
                "a host name (or address) pages may be served as, besides localhost, 127.0.0.1, "
                "[::1] and --host (repeatable; e.g. the machine's name on the network); a "
                "request naming another Host gets 421, which stops DNS rebinding");
  s->footer(
      "Bounds: a client has 30 s to send each HTTP request (also between keep-alive requests "
      "and for the WebSocket handshake); an open WebSocket is pinged after 30 s of silence and "
      "closed after 60 s without even a pong (browsers answer pings: an open page stays); a "
      "closed connection's work (rollouts, master) is cancelled; SIGINT/SIGTERM cancel running "
      "work, answer it `cancelled` and stop within about 2 s (a table build in progress, 5-10 s, "
      "finishes first). docs/WEB.md lists every limit.");
  s->callback([args] { RunServe(*args); });
}

}  // namespace penk::cli
