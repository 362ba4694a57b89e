// `penk serve` (issue 12): the page of web/ over HTTP and the engine protocol
// over a WebSocket at /engine, one protocol::Session per connection.
//
// One I/O thread does every read and write, asynchronously, each under a
// deadline (issue 20 item 2: a silent client cannot hold a connection for
// ever). Each WebSocket has a worker thread of its own that runs its requests
// one after another: a request may take seconds (an expert move, a table
// build), and a thread of its own keeps it from delaying other connections;
// while it runs, the I/O thread goes on reading that socket, so a client that
// has gone is noticed and its work cancelled (item 6). max_connections bounds
// the threads. All sessions share one table cache, so its memory cap holds
// for the whole server.
#ifndef PENK_SERVER_SERVER_H_
#define PENK_SERVER_SERVER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "protocol/protocol.h"

namespace penk::server {

struct ServerOptions {
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  uint16_t port = 8080;            // 0: any free port (Server::port() says which)
  // Open connections (HTTP or WebSocket); one more is answered 503 and closed.
  size_t max_connections = 64;
  // Largest WebSocket message; a larger one closes that connection with
  // status 1009 (message too big). Requests are a few hundred bytes.
  size_t max_message_bytes = 64 << 10;
  // A client must send each whole HTTP request (the first, the next on a
  // keep-alive connection, or a WebSocket handshake) within this time of the
  // connection's start or of the last reply, or the connection is closed.
  // Writes of a reply are bounded alike.
  std::chrono::milliseconds request_timeout{30'000};
  // A WebSocket that receives nothing for half this time is pinged; one that
  // receives nothing (not even the pong) for the whole of it is closed.
  // Browsers answer pings by themselves: an open page is never closed.
  std::chrono::milliseconds websocket_idle_timeout{60'000};
  // Stop(): connections still open this long after it are closed hard.
  std::chrono::milliseconds stop_grace{2'000};
  // Host names served (the Host header, port aside) besides the loopback
  // names (localhost, 127.0.0.1, [::1]) and `host` itself: a page of any other
  // name is refused (421), so DNS rebinding cannot reach the engine.
  std::vector<std::string> allowed_hosts;
  // Tests: called where a WebSocket's worker thread is created; throwing
  // (std::system_error, as std::thread does without threads or memory)
  // stands for a failed creation.
  std::function<void()> before_thread_start;
  // Each connection's engine session (max_games: games per connection).
  // table_dir, allow_build and table_cache_mb make the shared table cache.
  protocol::SessionOptions session;
};

class Server {
 public:
  // Binds and listens; an unusable host or a port in use is an error.
  static absl::StatusOr<std::unique_ptr<Server>> Listen(ServerOptions options);
  ~Server();

  uint16_t port() const;
  // Serves until Stop() (or SIGINT/SIGTERM when `handle_signals`), then
  // cancels the requests running, closes every connection (within
  // stop_grace) and returns once the worker threads have ended (a table build
  // cannot be interrupted: it finishes first).
  void Run(bool handle_signals = false);
  // Thread-safe; Run() returns soon after.
  void Stop();
  // Connections open now (tests).
  size_t connection_count() const;
  // The table cache every connection shares (tests, diagnostics).
  const TableCache& tables() const;

  struct Impl;

 private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace penk::server

#endif  // PENK_SERVER_SERVER_H_
