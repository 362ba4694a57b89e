// `penk serve` (issue 12): the page of web/ over HTTP and the engine protocol
// over a WebSocket at /engine, one protocol::Session per connection.
//
// One thread per connection: a request may take seconds (an expert move, a
// table build), and a thread of its own keeps it from delaying the other
// connections; max_connections bounds the threads. All sessions share one
// table cache, so its memory cap holds for the whole server.
#ifndef PENK_SERVER_SERVER_H_
#define PENK_SERVER_SERVER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

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
  // Serves until Stop() (or SIGINT/SIGTERM when `handle_signals`), then closes
  // every connection and returns once their threads have ended.
  void Run(bool handle_signals = false);
  // Thread-safe; Run() returns soon after.
  void Stop();
  // Connections open now (tests).
  size_t connection_count() const;

  struct Impl;

 private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace penk::server

#endif  // PENK_SERVER_SERVER_H_
