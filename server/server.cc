#include "server/server.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
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
#include "server/host_check.h"
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
// Refusals of connections past the limit in progress at once (each waits up
// to the request timeout for the request it answers); past it, plain close.
constexpr size_t kMaxPendingRefusals = 64;
// Requests of one WebSocket received and not yet answered (the page sends
// several at once); past it the server stops reading that socket until one
// is answered, so a client cannot queue unbounded work. Four times the
// dispatcher's requests in flight (16): in protocol 3 those past 16 are
// answered `limit` at once, and a cancel still gets through when 16 run.
constexpr size_t kMaxQueuedRequests = 64;
// A WebSocket message is read in pieces of at most this many bytes.
constexpr size_t kReadPiece = 16 << 10;
// A connection sent away reads what its client still sends this long at most.
constexpr auto kDrainTime = std::chrono::seconds(1);
// How often a stopping server looks whether every connection has closed.
constexpr auto kStopPoll = std::chrono::milliseconds(20);

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

// A header's value, or nullptr when the request has none.
std::optional<std::string_view> Header(const Request& req, http::field f) {
  auto it = req.find(f);
  if (it == req.end()) return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}
const std::string_view* Ptr(const std::optional<std::string_view>& v) {
  return v ? &*v : nullptr;
}

// A connection's place among max_connections: held by its I/O side and its
// worker thread, given back when both have ended.
class Slot {
 public:
  explicit Slot(std::atomic<size_t>& open) : open_(open) { ++open_; }
  ~Slot() { --open_; }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

 private:
  std::atomic<size_t>& open_;
};

// What a stopping server does to a connection (I/O thread).
class Connection {
 public:
  virtual ~Connection() = default;
  // Cancel, answer what is being computed, close soon.
  virtual void Shutdown() = 0;
  // Close at once (stop_grace is over).
  virtual void Abort() = 0;
};

class EngineConnection;

// A WebSocket's requests, shared by the I/O thread (which queues them) and
// the connection's worker thread (which runs them in order).
struct Work {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::string> requests;
  bool closed = false;  // no more requests: the worker ends when the queue is empty
  std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
  // Where replies go; set before the first request is pushed (the worker
  // reads it after Next(), which orders the two).
  std::weak_ptr<EngineConnection> conn;

  void Push(std::string request) {
    std::lock_guard<std::mutex> lock(mutex);
    requests.push_back(std::move(request));
    ready.notify_one();
  }
  // `drop`: the client has gone, nobody waits for the queued requests.
  void Close(bool drop) {
    cancel->store(true);
    std::lock_guard<std::mutex> lock(mutex);
    closed = true;
    if (drop) requests.clear();
    ready.notify_one();
  }
  // The next request, or nullopt once closed and empty.
  std::optional<std::string> Next() {
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [this] { return closed || !requests.empty(); });
    if (requests.empty()) return std::nullopt;
    std::string r = std::move(requests.front());
    requests.pop_front();
    return r;
  }
};

}  // namespace

struct Server::Impl {
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> ended;
  };

  ServerOptions options;
  std::optional<HostCheck> hosts;  // from options, by Listen
  // Before io: the slots of connections that io's handlers still hold are
  // given back while io is destroyed.
  std::atomic<size_t> open{0};
  net::io_context io{1};
  tcp::acceptor acceptor{io};
  std::optional<net::steady_timer> retry, stop_timer;
  std::optional<net::signal_set> signals;
  std::shared_ptr<TableCache> tables;
  // I/O thread only.
  std::list<std::weak_ptr<Connection>> live;
  size_t pending_refusals = 0;
  bool stopping = false;
  std::chrono::steady_clock::time_point stop_deadline;
  // Worker threads, joined once ended (any thread may look: mutex).
  std::mutex workers_mutex;
  std::list<Worker> workers;

  void Accept();
  void Refuse(tcp::socket socket);
  void Reap();
  void JoinAll();
  void CloseAll();
  void PollStop();
  void Register(const std::shared_ptr<Connection>& c);
  // Starts `body` on a thread of its own; the reason when it cannot be
  // created (the caller refuses the connection, the server goes on).
  std::string StartWorker(std::function<void()> body);
};

namespace {

// A WebSocket at /engine: reads and writes on the I/O thread, requests run
// on the worker thread in order; a read is always in progress (queue
// permitting), so a close or a vanished peer is seen while a request runs.
class EngineConnection : public Connection,
                         public std::enable_shared_from_this<EngineConnection> {
 public:
  EngineConnection(Server::Impl& server, beast::tcp_stream stream, std::shared_ptr<Slot> slot,
                   std::shared_ptr<Work> work)
      : server_(server), ws_(std::move(stream)), slot_(std::move(slot)), work_(std::move(work)) {}
  // However it ends, its worker ends too.
  ~EngineConnection() override { work_->Close(/*drop=*/true); }

  // The worker thread of a WebSocket to come, started before the handshake
  // is answered; the reason when it cannot be (the caller refuses).
  static std::string StartWorker(Server::Impl& server, const std::shared_ptr<Work>& work,
                                 const std::shared_ptr<Slot>& slot) {
    protocol::SessionOptions so = server.options.session;
    so.shared_tables = server.tables;
    so.cancel = work->cancel;
    net::io_context& io = server.io;
    return server.StartWorker(
        [so = std::move(so), work, slot, &io] { RunRequests(so, *work, io); });
  }

  // Answers the handshake `req`, then reads.
  void Start(const Request& req) {
    beast::get_lowest_layer(ws_).expires_never();  // the WebSocket's own timeouts from now on
    websocket::stream_base::timeout t;
    t.handshake_timeout = server_.options.request_timeout;
    t.idle_timeout = server_.options.websocket_idle_timeout;
    t.keep_alive_pings = true;
    ws_.set_option(t);
    // A backstop only: Read() stops at max_message_bytes.
    ws_.read_message_max(server_.options.max_message_bytes + 2 * kReadPiece);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "penk"); }));
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->Gone();
      self->accepted_ = true;
      if (self->stopping_) return self->MaybeClose();
      self->Read();
    });
  }

  void Shutdown() override {
    if (gone_ || closing_) return;
    stopping_ = true;  // (a handshake in progress closes once it is done)
    work_->Close(/*drop=*/false);  // queued requests are answered `cancelled` or at once
    MaybeClose();
  }
  void Abort() override { Gone(); }

 private:
  // The worker thread: one Session and its dispatcher (protocol/dispatch.h:
  // protocol 2 in order, protocol 3 side by side), each line it writes
  // posted to the I/O thread. Never throws (a std::thread must not).
  static void RunRequests(const protocol::SessionOptions& so, Work& work, net::io_context& io) {
    // The session is made with the first request: work.conn is set by then.
    std::optional<protocol::Session> session;
    std::optional<protocol::Dispatcher> dispatcher;
    try {
      while (std::optional<std::string> request = work.Next()) {
        const std::weak_ptr<EngineConnection> conn = work.conn;
        if (!session) {
          session.emplace(so);
          dispatcher.emplace(*session, [conn, &io](const std::string& line, bool reply) {
            net::post(io, [conn, line, reply]() mutable {
              if (auto c = conn.lock()) c->OnLine(std::move(line), reply);
            });
          });
        }
        dispatcher->Submit(*request);
        if (session->quit_requested()) {  // after the quit's reply (posts keep their order)
          net::post(io, [conn] {
            if (auto c = conn.lock()) c->OnQuit();
          });
          return;  // ~Dispatcher waits for any work still ending
        }
      }
      // Closed (the client has gone, the server stops): work.cancel is set,
      // which stops what is in flight; ~Dispatcher waits for it.
    } catch (...) {  // out of memory making the session: this connection only
      net::post(io, [conn = work.conn] {
        if (auto c = conn.lock()) c->Gone();
      });
    }
  }

  // Reads a message in pieces and counts its size itself: Beast's own limit
  // (read_message_max) ends in a teardown that, in Boost 1.74, may close with
  // unread data and reset the connection before the client reads the 1009.
  void Read() {
    if (gone_ || closing_ || stopping_ || quit_ || too_big_ || reading_ ||
        queued_ >= kMaxQueuedRequests)
      return;
    reading_ = true;
    ws_.async_read_some(in_, kReadPiece, [self = shared_from_this()](beast::error_code ec,
                                                                        size_t) {
      self->reading_ = false;
      // A close, a reset or the idle timeout: the client has gone (or is
      // sent away), and what it still sends is drained.
      if (ec) return self->Gone(/*drain=*/ec != websocket::error::closed);
      if (self->stopping_ || self->closing_) return;
      if (self->in_.size() > self->server_.options.max_message_bytes) {
        // Closed with status 1009 (message too big): the client is told why.
        self->too_big_ = true;
        self->work_->Close(/*drop=*/true);
        return self->MaybeClose();
      }
      if (self->ws_.is_message_done()) {
        ++self->queued_;
        self->work_->Push(beast::buffers_to_string(self->in_.data()));
        self->in_.consume(self->in_.size());
      }
      self->Read();
    });
  }

  // A line of the dispatcher: a request's reply (one per request read) or
  // a progress message.
  void OnLine(std::string line, bool reply) {
    if (gone_) return;
    if (reply && queued_ > 0) --queued_;
    out_.push_back(std::move(line));
    Write();
    Read();
  }
  void OnQuit() {
    if (gone_) return;
    quit_ = true;
    Write();
  }

  void Write() {
    if (gone_ || writing_ || closing_) return;
    if (out_.empty() || too_big_) return MaybeClose();
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec,
                                                                           size_t) {
      self->writing_ = false;
      if (ec) return self->Gone();
      self->out_.pop_front();
      self->Write();
    });
  }

  // After `quit`, or when the server stops and every reply is written: the
  // closing handshake (normal, or 1001 going away).
  void MaybeClose() {
    if (gone_ || closing_ || writing_ || !accepted_) return;
    if (!too_big_ && !out_.empty()) return;
    if (!too_big_ && !quit_ && !(stopping_ && queued_ == 0)) return;
    closing_ = true;
    work_->Close(/*drop=*/true);
    const websocket::close_reason why =
        too_big_ ? websocket::close_reason(
                       websocket::close_code::too_big,
                       absl::StrCat("message over ", server_.options.max_message_bytes, " bytes"))
        : quit_  ? websocket::close_reason(websocket::close_code::normal)
                 : websocket::close_reason(websocket::close_code::going_away,
                                           "the server is stopping");
    ws_.async_close(why, [self = shared_from_this()](beast::error_code) { self->Gone(); });
  }

  // The client has gone (or must): its work is cancelled, the socket closed.
  // `drain` (no read in progress): first read what the client still sends,
  // for at most kDrainTime, so that closing with unread data does not reset
  // the connection before the client has read the last frame (the 1009).
  void Gone(bool drain = false) {
    if (gone_) return;
    gone_ = true;
    work_->Close(/*drop=*/true);
    beast::tcp_stream& s = beast::get_lowest_layer(ws_);
    beast::error_code ignored;
    if (drain && s.socket().is_open()) {
      s.socket().shutdown(tcp::socket::shutdown_send, ignored);
      s.expires_after(kDrainTime);
      return Drain();
    }
    s.socket().shutdown(tcp::socket::shutdown_both, ignored);
    s.socket().close(ignored);
  }
  void Drain() {
    beast::tcp_stream& s = beast::get_lowest_layer(ws_);
    s.async_read_some(net::buffer(drain_), [self = shared_from_this()](beast::error_code ec,
                                                                        size_t) {
      if (!ec) return self->Drain();
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).socket().close(ignored);
    });
  }

  Server::Impl& server_;
  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<Slot> slot_;
  std::shared_ptr<Work> work_;
  beast::flat_buffer in_;
  char drain_[4096];
  std::deque<std::string> out_;
  size_t queued_ = 0;  // requests read and not yet answered
  bool reading_ = false, writing_ = false, closing_ = false, gone_ = false;
  bool accepted_ = false, quit_ = false, stopping_ = false, too_big_ = false;
};

// HTTP: the page's files, keep-alive, and the way to /engine. Every request
// and every reply has request_timeout to go through.
class HttpConnection : public Connection, public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(Server::Impl& server, tcp::socket socket, std::shared_ptr<Slot> slot)
      : server_(server), stream_(std::move(socket)), slot_(std::move(slot)) {}

  void Read() {
    parser_.emplace();
    parser_->header_limit(kMaxHttpRequestBytes);
    parser_->body_limit(kMaxHttpRequestBytes);
    stream_.expires_after(server_.options.request_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       if (ec) return self->Abort();  // closed, timed out, too large
                       try {
                         self->OnRequest(self->parser_->release());
                       } catch (...) {  // out of memory: this connection only
                         self->Abort();
                       }
                     });
  }

  void Shutdown() override { Abort(); }
  void Abort() override {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

 private:
  void OnRequest(Request req) {
    const auto host = Header(req, http::field::host);
    if (std::string why = server_.hosts->HostError(Ptr(host)); !why.empty())
      return Reply(TextResponse(req, http::status::misdirected_request, why), /*close=*/true);
    if (websocket::is_upgrade(req) && req.target() == "/engine") {
      const auto origin = Header(req, http::field::origin);
      if (std::string why = HostCheck::OriginError(Ptr(origin), Ptr(host)); !why.empty())
        return Reply(TextResponse(req, http::status::forbidden, why), true);
      if (server_.stopping)
        return Reply(TextResponse(req, http::status::service_unavailable,
                                  "the server is stopping"), true);
      auto work = std::make_shared<Work>();
      if (std::string why = EngineConnection::StartWorker(server_, work, slot_); !why.empty())
        return Reply(TextResponse(req, http::status::service_unavailable,
                                  absl::StrCat("cannot start a thread for this connection (", why,
                                               "); try again later")),
                     true);
      std::shared_ptr<EngineConnection> engine;
      try {
        engine = std::make_shared<EngineConnection>(server_, std::move(stream_), slot_, work);
      } catch (...) {
        work->Close(/*drop=*/true);  // out of memory: the worker ends with it
        throw;
      }
      work->conn = engine;
      server_.Register(engine);
      engine->Start(req);
      return;  // the WebSocket owns the socket and the slot now
    }
    Reply(FileResponse(req), !req.keep_alive());
  }

  void Reply(Response res, bool close) {
    if (close) res.keep_alive(false);
    res_ = std::move(res);
    stream_.expires_after(server_.options.request_timeout);
    http::async_write(stream_, res_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec || !self->res_.keep_alive() || self->server_.stopping) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;  // closed when the last handler lets go of the connection
      }
      self->Read();  // the next request of a keep-alive connection, under a new deadline
    });
  }

  Server::Impl& server_;
  beast::tcp_stream stream_;
  std::shared_ptr<Slot> slot_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Response res_;
};

}  // namespace

void Server::Impl::Register(const std::shared_ptr<Connection>& c) {
  for (auto it = live.begin(); it != live.end();) it = it->expired() ? live.erase(it) : std::next(it);
  live.push_back(c);
}

std::string Server::Impl::StartWorker(std::function<void()> body) {
  Reap();
  std::lock_guard<std::mutex> lock(workers_mutex);
  try {
    workers.emplace_back();  // the list's node first: a thread is never left unowned
    Worker& w = workers.back();
    w.ended = std::make_shared<std::atomic<bool>>(false);
    if (options.before_thread_start) options.before_thread_start();
    w.thread = std::thread([body = std::move(body), ended = w.ended] {
      body();
      ended->store(true);
    });
  } catch (const std::exception& e) {  // std::system_error: no threads or memory left
    if (!workers.empty() && !workers.back().thread.joinable()) workers.pop_back();
    return e.what();
  }
  return "";
}

void Server::Impl::Accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {  // e.g. out of file descriptors: try again shortly, do not spin
      retry.emplace(io, std::chrono::milliseconds(100));
      retry->async_wait([this](beast::error_code e) { if (!e) Accept(); });
      return;
    }
    if (!stopping && open.load() < options.max_connections) {
      try {
        auto c = std::make_shared<HttpConnection>(*this, std::move(socket),
                                                  std::make_shared<Slot>(open));
        Register(c);
        c->Read();
      } catch (const std::exception&) {
        // Out of memory for this connection: it is closed; the others go on.
      }
    } else {
      Refuse(std::move(socket));
    }
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
  r->stream.expires_after(options.request_timeout);
  http::async_read(r->stream, r->buffer, r->req, [this, r](beast::error_code ec, size_t) {
    if (ec) {
      --pending_refusals;
      return;
    }
    r->res = TextResponse(r->req, http::status::service_unavailable,
                          absl::StrCat(stopping ? "the server is stopping" : "too many connections",
                                       " (limit ", options.max_connections,
                                       "); try again later"));
    r->res.keep_alive(false);
    r->stream.expires_after(options.request_timeout);
    http::async_write(r->stream, r->res, [this, r](beast::error_code, size_t) {
      beast::error_code ignored;
      r->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
      --pending_refusals;
    });
  });
}

// Joins the threads of ended workers.
void Server::Impl::Reap() {
  std::list<Worker> done;
  {
    std::lock_guard<std::mutex> lock(workers_mutex);
    for (auto it = workers.begin(); it != workers.end();) {
      auto next = std::next(it);
      if (it->ended && it->ended->load()) done.splice(done.end(), workers, it);
      it = next;
    }
  }
  for (auto& w : done) w.thread.join();
}

void Server::Impl::JoinAll() {
  std::list<Worker> all;
  {
    std::lock_guard<std::mutex> lock(workers_mutex);
    all.swap(workers);
  }
  for (auto& w : all)
    if (w.thread.joinable()) w.thread.join();
}

// I/O thread: stop accepting, cancel and close every connection, and end
// the loop once they are closed or stop_grace is over.
void Server::Impl::CloseAll() {
  if (stopping) return;
  stopping = true;
  beast::error_code ignored;
  acceptor.close(ignored);
  if (retry) retry->cancel();
  if (signals) signals->cancel(ignored);
  for (auto& weak : live)
    if (auto c = weak.lock()) c->Shutdown();
  stop_deadline = std::chrono::steady_clock::now() + options.stop_grace;
  PollStop();
}

void Server::Impl::PollStop() {
  bool any = false;
  for (auto& weak : live) any = any || !weak.expired();
  if (!any || std::chrono::steady_clock::now() >= stop_deadline) {
    for (auto& weak : live)
      if (auto c = weak.lock()) c->Abort();
    // Refusals still waiting for their request are dropped with the loop.
    io.stop();
    return;
  }
  stop_timer.emplace(io, kStopPoll);
  stop_timer->async_wait([this](beast::error_code ec) {
    if (!ec) PollStop();
  });
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() {
  // Run() has returned (or never ran): every connection is closed and
  // cancelled; the workers end once their current request does.
  for (auto& weak : impl_->live)
    if (auto c = weak.lock()) c->Abort();
  impl_->JoinAll();
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
  impl->hosts.emplace(impl->options.host, impl->options.allowed_hosts);
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
  for (;;) {
    try {
      impl_->io.run();
      break;
    } catch (...) {
      // A handler's failure (out of memory) is its connection's; the loop goes on.
    }
  }
  // Every worker's request is cancelled and its connection closed: they end
  // as soon as the request in hand does.
  for (auto& weak : impl_->live)
    if (auto c = weak.lock()) c->Abort();
  impl_->JoinAll();
}

void Server::Stop() {
  net::post(impl_->io, [impl = impl_.get()] { impl->CloseAll(); });
}

const TableCache& Server::tables() const { return *impl_->tables; }

size_t Server::connection_count() const { return impl_->open.load(); }

}  // namespace penk::server
