#include "server/server.h"

#include <sys/socket.h>

#include <atomic>
#include <list>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "absl/strings/str_cat.h"
#include "server/web_files.h"
#include "tables/table_store.h"

namespace penk::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// Requests of the page are small; a larger header or body is refused.
constexpr size_t kMaxHttpRequestBytes = 16 << 10;
// A client must send its HTTP request (or WebSocket handshake) within this
// time; an open WebSocket may then stay idle as long as it likes.
constexpr int kRequestTimeoutSeconds = 30;
// Refusals of connections past the limit in progress at once (each waits up
// to the request timeout for the request it answers); past it, plain close.
constexpr size_t kMaxPendingRefusals = 64;

Response TextResponse(const Request& req, http::status status, std::string text) {
  Response res{status, req.version()};
  res.set(http::field::server, "penk");
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(text) + "\n";
  res.prepare_payload();
  return res;
}

// The page's files; nothing else is ever served.
Response FileResponse(const Request& req) {
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return TextResponse(req, http::status::method_not_allowed, "only GET and HEAD are served");
  if (req.target() == "/engine")
    return TextResponse(req, http::status::upgrade_required,
                        "/engine is a WebSocket speaking the engine protocol (docs/PROTOCOL.md)");
  const WebFile* file = FindWebFile(std::string_view(req.target().data(), req.target().size()));
  if (file == nullptr) return TextResponse(req, http::status::not_found, "not found");
  Response res{http::status::ok, req.version()};
  res.set(http::field::server, "penk");
  res.set(http::field::content_type, std::string(file->content_type));
  res.set(http::field::cache_control, "no-cache");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Content-Security-Policy",
          "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:");
  res.keep_alive(req.keep_alive());
  if (req.method() == http::verb::get) res.body() = std::string(file->body);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.content_length(file->body.size());
  return res;
}

// A page of another site must not drive the engine from the user's browser
// (cross-site WebSocket hijacking): an Origin, when sent, names this host.
bool SameOrigin(const Request& req) {
  auto origin = req.find(http::field::origin);
  if (origin == req.end()) return true;  // not a browser: no ambient authority
  std::string_view o(origin->value().data(), origin->value().size());
  const size_t scheme = o.find("://");
  if (scheme == std::string_view::npos) return false;
  o.remove_prefix(scheme + 3);
  auto host = req.find(http::field::host);
  return host != req.end() && o == std::string_view(host->value().data(), host->value().size());
}

void SetReceiveTimeout(tcp::socket& socket, int seconds) {
  timeval tv{};
  tv.tv_sec = seconds;
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

}  // namespace

struct Server::Impl {
  struct Connection {
    std::thread thread;
    std::atomic<bool> done{false};
    int fd = -1;  // the socket while open (guarded by mutex): Stop shuts it down
  };

  ServerOptions options;
  net::io_context io{1};
  tcp::acceptor acceptor{io};
  std::optional<net::steady_timer> retry;
  std::optional<net::signal_set> signals;
  std::shared_ptr<TableCache> tables;
  mutable std::mutex mutex;
  std::list<std::unique_ptr<Connection>> connections;
  size_t pending_refusals = 0;  // io thread only
  bool stopping = false;

  void Accept();
  void Refuse(tcp::socket socket);
  void Reap();
  void CloseAll();
  void Serve(tcp::socket socket, Connection* c);
  void ServeEngine(tcp::socket& socket, Request req);
};

void Server::Impl::Accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {  // e.g. out of file descriptors: try again shortly, do not spin
      retry.emplace(io, std::chrono::milliseconds(100));
      retry->async_wait([this](beast::error_code e) { if (!e) Accept(); });
      return;
    }
    Reap();
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!stopping && connections.size() < options.max_connections) {
        auto c = std::make_unique<Connection>();
        Connection* raw = c.get();
        raw->fd = socket.native_handle();
        connections.push_back(std::move(c));
        raw->thread = std::thread(&Impl::Serve, this, std::move(socket), raw);
        socket = tcp::socket(io);
      }
    }
    if (socket.is_open()) Refuse(std::move(socket));
    Accept();
  });
}

// Past the limit: read the request (so that closing does not reset the
// connection before the client reads the answer), answer 503, close.
void Server::Impl::Refuse(tcp::socket socket) {
  if (pending_refusals >= kMaxPendingRefusals) return;  // closed on return
  ++pending_refusals;
  struct Refusal {
    beast::tcp_stream stream;
    beast::flat_buffer buffer;
    Request req;
    Response res;
    explicit Refusal(tcp::socket s) : stream(std::move(s)) {}
  };
  auto r = std::make_shared<Refusal>(std::move(socket));
  r->stream.expires_after(std::chrono::seconds(kRequestTimeoutSeconds));
  http::async_read(r->stream, r->buffer, r->req, [this, r](beast::error_code ec, size_t) {
    if (ec) {
      --pending_refusals;
      return;
    }
    r->res = TextResponse(r->req, http::status::service_unavailable,
                          absl::StrCat("too many connections (limit ", options.max_connections,
                                       "); try again later"));
    r->res.keep_alive(false);
    http::async_write(r->stream, r->res, [this, r](beast::error_code, size_t) {
      beast::error_code ignored;
      r->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
      --pending_refusals;
    });
  });
}

// Joins the threads of closed connections.
void Server::Impl::Reap() {
  std::list<std::unique_ptr<Connection>> done;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = connections.begin(); it != connections.end();) {
      auto next = std::next(it);
      if ((*it)->done) done.splice(done.end(), connections, it);
      it = next;
    }
  }
  for (auto& c : done) c->thread.join();
}

void Server::Impl::CloseAll() {
  std::lock_guard<std::mutex> lock(mutex);
  stopping = true;
  beast::error_code ignored;
  acceptor.close(ignored);
  if (retry) retry->cancel();
  if (signals) signals->cancel(ignored);
  // Wakes every connection thread blocked on its socket; one busy with a
  // request ends when its reply cannot be written.
  for (auto& c : connections)
    if (c->fd >= 0) ::shutdown(c->fd, SHUT_RDWR);
  // Refusals still waiting for their request are dropped with the loop.
  io.stop();
}

void Server::Impl::Serve(tcp::socket socket, Connection* c) {
  try {
    SetReceiveTimeout(socket, kRequestTimeoutSeconds);
    beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(kMaxHttpRequestBytes);
      parser.body_limit(kMaxHttpRequestBytes);
      beast::error_code ec;
      http::read(socket, buffer, parser, ec);
      if (ec) break;
      Request req = parser.release();
      if (websocket::is_upgrade(req) && req.target() == "/engine") {
        if (!SameOrigin(req)) {
          http::write(socket, TextResponse(req, http::status::forbidden,
                                           "the engine serves pages of this host only"), ec);
          break;
        }
        SetReceiveTimeout(socket, 0);
        ServeEngine(socket, std::move(req));
        break;
      }
      Response res = FileResponse(req);
      http::write(socket, res, ec);
      if (ec || !res.keep_alive()) break;
    }
  } catch (...) {
    // A connection's failure (even out of memory) is its own; others go on.
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    c->fd = -1;
    beast::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }
  c->done = true;
}

void Server::Impl::ServeEngine(tcp::socket& socket, Request req) {
  websocket::stream<tcp::socket&> ws(socket);
  ws.read_message_max(options.max_message_bytes);
  ws.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "penk"); }));
  beast::error_code ec;
  ws.accept(req, ec);
  if (ec) return;
  protocol::SessionOptions session_options = options.session;
  session_options.shared_tables = tables;
  protocol::Session session(session_options);
  beast::flat_buffer message;
  for (;;) {
    // A message over max_message_bytes fails here, and Beast closes the
    // WebSocket with status 1009 (too big): the client is told why.
    ws.read(message, ec);
    if (ec) return;
    const std::string request = beast::buffers_to_string(message.data());
    message.consume(message.size());
    const std::string reply = protocol::HandleLine(session, request);
    ws.text(true);
    ws.write(net::buffer(reply), ec);
    if (ec) return;
    if (session.quit_requested()) {
      ws.close(websocket::close_code::normal, ec);
      return;
    }
  }
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() {
  Stop();
  impl_->Reap();
  for (auto& c : impl_->connections) c->thread.join();
}

absl::StatusOr<std::unique_ptr<Server>> Server::Listen(ServerOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  const protocol::SessionOptions& so = impl->options.session;
  impl->tables = protocol::MakeTableCache(so);
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(impl->options.host, ec);
  if (ec)
    return absl::InvalidArgumentError(absl::StrCat("host \"", impl->options.host,
                                                   "\" is not an IP address (e.g. 127.0.0.1)"));
  const tcp::endpoint endpoint(address, impl->options.port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return absl::UnavailableError(absl::StrCat("cannot listen on ", impl->options.host, ":",
                                               impl->options.port, ": ", ec.message()));
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

uint16_t Server::port() const {
  beast::error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

void Server::Run(bool handle_signals) {
  if (handle_signals) {
    impl_->signals.emplace(impl_->io, SIGINT, SIGTERM);
    impl_->signals->async_wait([this](beast::error_code ec, int) {
      if (!ec) impl_->CloseAll();
    });
  }
  impl_->Accept();
  impl_->io.run();
  // Every connection thread ends once its socket is shut down.
  impl_->CloseAll();
  std::list<std::unique_ptr<Impl::Connection>> all;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    all.swap(impl_->connections);
  }
  for (auto& c : all) c->thread.join();
}

void Server::Stop() {
  net::post(impl_->io, [impl = impl_.get()] { impl->CloseAll(); });
}

size_t Server::connection_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  size_t open = 0;
  for (const auto& c : impl_->connections) open += c->done ? 0 : 1;
  return open;
}

}  // namespace penk::server
