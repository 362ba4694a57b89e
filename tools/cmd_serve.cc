// `penk serve`: the web app (docs/WEB.md): the page of web/, compiled in,
// and the engine protocol over a WebSocket at /engine (server/server.h).
#include <cstdio>
#include <memory>
#include <string>

#include "server/server.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct ServeArgs {
  server::ServerOptions options;
  std::string table_dir;
  bool no_build = false;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
  size_t max_games = 16;
  size_t max_message_kb = 64;
};

void RunServe(ServeArgs& a) {
  a.options.session.table_dir = a.table_dir;
  a.options.session.allow_build = !a.no_build;
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
