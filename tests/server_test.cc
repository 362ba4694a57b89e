// `penk serve`'s server (server/server.h, issue 12) from a real client over
// loopback: the compiled-in files and nothing else, the engine protocol on
// /engine, and its safety: message size, connection and game limits, other
// sites' pages refused, one connection's bad input never touching another;
// and (issue 20) deadlines for silent clients, a failed thread creation
// refused, work of a client that has gone cancelled, DNS rebinding refused.
// Deadlines are short here and every wait has a generous cap: the tests
// assert what happens, not how fast.
#include "server/server.h"

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>
#include <thread>

// Before Boost: 1.74's asio/awaitable.hpp uses std::exchange without it.
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "scratch_dir.h"
#include "server/web_files.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tables/table_store.h"
#include "tests/completed_tables.h"

namespace penk::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using json = nlohmann::json;

// A server on a free loopback port, run on a thread of its own.
class RunningServer {
 public:
  // `keep_build`: the caller's build policy; otherwise nothing is built
  // (most tests use greedy: no tables).
  explicit RunningServer(ServerOptions options = {}, bool keep_build = false) {
    options.host = "127.0.0.1";
    options.port = 0;
    if (!keep_build) options.session.build.allow = false;
    if (options.session.table_dir.empty())
      options.session.table_dir = testing::TempDir() + "penk_server_test_no_tables";
    auto server = Server::Listen(options);
    EXPECT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    thread_ = std::thread([this] { server_->Run(); });
  }
  ~RunningServer() {
    server_->Stop();
    thread_.join();
  }
  uint16_t port() const { return server_->port(); }
  Server& server() { return *server_; }

 private:
  std::unique_ptr<Server> server_;
  std::thread thread_;
};

struct HttpReply {
  unsigned status = 0;
  std::string content_type, body;
};

HttpReply Get(uint16_t port, const std::string& target) {
  net::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  req.keep_alive(false);
  http::write(socket, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(socket, buffer, res);
  return {res.result_int(), std::string(res[http::field::content_type]), res.body()};
}

class Client {
 public:
  explicit Client(uint16_t port, const std::string& origin = "",
                  const std::string& host_name = "127.0.0.1")
      : ws_(io_) {
    ws_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    const std::string host = host_name + ":" + std::to_string(port);
    ws_.set_option(websocket::stream_base::decorator([origin](websocket::request_type& req) {
      if (!origin.empty()) req.set(http::field::origin, origin);
    }));
    ws_.handshake(host, "/engine");
  }
  // Sends one message; returns the reply message.
  std::string Send(const std::string& message, bool binary = false) {
    ws_.text(!binary);
    ws_.write(net::buffer(message));
    beast::flat_buffer buffer;
    ws_.read(buffer);
    return beast::buffers_to_string(buffer.data());
  }
  json Call(json request) { return json::parse(Send(request.dump())); }
  websocket::stream<tcp::socket>& ws() { return ws_; }

 private:
  net::io_context io_;
  websocket::stream<tcp::socket> ws_;
};

TEST(Server, ServesTheCompiledInFiles) {
  RunningServer s;
  ASSERT_GT(WebFileCount(), 0u);
  const WebFile* index = FindWebFile("/index.html");
  ASSERT_NE(index, nullptr);
  const HttpReply root = Get(s.port(), "/");
  EXPECT_EQ(root.status, 200u);
  EXPECT_EQ(root.body, std::string(index->body));
  EXPECT_EQ(root.content_type, "text/html; charset=utf-8");
  for (size_t i = 0; i < WebFileCount(); ++i) {
    const WebFile& f = WebFiles()[i];
    const HttpReply r = Get(s.port(), std::string(f.path) + "?v=1");
    EXPECT_EQ(r.status, 200u) << f.path;
    EXPECT_EQ(r.body, std::string(f.body)) << f.path;
    EXPECT_EQ(r.content_type, std::string(f.content_type)) << f.path;
  }
  const HttpReply js = Get(s.port(), "/app.js");
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
}

TEST(Server, NoRequestPathReachesTheFileSystem) {
  RunningServer s;
  for (const char* target :
       {"/../etc/passwd", "/%2e%2e/etc/passwd", "/..%2fetc%2fpasswd", "//etc/passwd",
        "/web/../../etc/passwd", "/etc/passwd", "/./index.html/../../etc/passwd",
        "/CMakeLists.txt", "/server/server.cc", "/index.html%00.js"}) {
    const HttpReply r = Get(s.port(), target);
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
  // A raw request line with a traversal (not URL-shaped at all) alike.
  net::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), s.port()));
  net::write(socket, net::buffer(std::string("GET ../../../../etc/passwd HTTP/1.0\r\n\r\n")));
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(socket, buffer, res, ec);
  if (!ec) {
    EXPECT_EQ(res.result_int(), 404u);
  }
  EXPECT_EQ(res.body().find("root:"), std::string::npos);
}

TEST(Server, EngineSpeaksTheProtocolOneReplyPerMessage) {
  RunningServer s;
  Client c(s.port());
  const json hello = c.Call({{"id", "h"}, {"cmd", "hello"}});
  EXPECT_EQ(hello["id"], "h");
  EXPECT_EQ(hello["result"]["protocol"], 2);
  const json game = c.Call({{"id", 2}, {"cmd", "new_game"}, {"players", {"human", "greedy"}},
                            {"seed", 7}});
  ASSERT_TRUE(game.contains("result")) << game.dump();
  // The transcript of docs/PROTOCOL.md: seed 7 rolls 11335J first.
  EXPECT_EQ(game["result"]["dice"], "11335J");
  const int id = game["result"]["game"];
  const json stop = c.Call({{"id", 3}, {"cmd", "apply"}, {"game", id}, {"action", "1135"}});
  EXPECT_EQ(stop["result"]["dice"], "113555");
  const json bad = c.Call({{"id", 4}, {"cmd", "apply"}, {"game", id}, {"action", "5:5"}});
  EXPECT_EQ(bad["error"]["code"], "illegal_action");
}

TEST(Server, TooLargeMessageClosesOnlyThatConnection) {
  ServerOptions options;
  options.max_message_bytes = 1024;
  RunningServer s(options);
  Client other(s.port());
  const json game = other.Call({{"id", 1}, {"cmd", "new_game"}, {"players", "greedy"}, {"seed", 3}});
  ASSERT_TRUE(game.contains("result"));

  Client big(s.port());
  EXPECT_EQ(json::parse(big.Send(std::string(1000, ' ') + "{\"cmd\":\"hello\"}"))["result"]["protocol"], 2);
  big.ws().text(true);
  big.ws().write(net::buffer(std::string(2048, ' ')));
  beast::flat_buffer buffer;
  beast::error_code ec;
  big.ws().read(buffer, ec);
  EXPECT_EQ(ec, websocket::error::closed);
  EXPECT_EQ(big.ws().reason().code, websocket::close_code::too_big);

  const json state = other.Call({{"id", 2}, {"cmd", "state"}, {"game", game["result"]["game"]}});
  EXPECT_EQ(state["result"], game["result"]);
}

TEST(Server, ConnectionsPastTheLimitAreRefused) {
  ServerOptions options;
  options.max_connections = 2;
  RunningServer s(options);
  auto a = std::make_unique<Client>(s.port());
  Client b(s.port());
  const HttpReply refused = Get(s.port(), "/");
  EXPECT_EQ(refused.status, 503u);
  EXPECT_NE(refused.body.find("too many connections (limit 2)"), std::string::npos) << refused.body;
  EXPECT_THROW(Client(s.port()), beast::system_error);
  EXPECT_EQ(json::parse(b.Send(R"({"cmd":"hello"})"))["result"]["name"], "penk");
  // A closed connection frees its place.
  a->ws().close(websocket::close_code::normal);
  a.reset();
  for (int i = 0; i < 200 && s.server().connection_count() > 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Get(s.port(), "/").status, 200u);
}

TEST(Server, GamesPerConnectionAreLimited) {
  ServerOptions options;
  options.session.max_games = 2;
  RunningServer s(options);
  Client c(s.port());
  Client d(s.port());
  const json start = {{"cmd", "new_game"}, {"players", "greedy"}};
  EXPECT_TRUE(c.Call(start).contains("result"));
  EXPECT_TRUE(c.Call(start).contains("result"));
  EXPECT_EQ(c.Call(start)["error"]["code"], "limit");
  // The limit is per connection.
  EXPECT_TRUE(d.Call(start).contains("result"));
}

TEST(Server, BadMessagesAndDroppedConnectionsLeaveOthersAlone) {
  RunningServer s;
  Client good(s.port());
  const json game = good.Call({{"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"seed", 11}});
  ASSERT_TRUE(game.contains("result"));
  const int id = game["result"]["game"];
  {
    Client bad(s.port());
    EXPECT_EQ(json::parse(bad.Send("{"))["error"]["code"], "bad_json");
    // Not UTF-8: only as a binary message (a text one would be closed by
    // the WebSocket layer itself); the engine refuses it.
    EXPECT_EQ(json::parse(bad.Send(std::string("\xff\xfe\x00", 3), true))["error"]["code"],
              "bad_json");
    EXPECT_EQ(json::parse(bad.Send("[]"))["error"]["code"], "bad_json");
    // The other connection's game id means nothing here.
    EXPECT_EQ(bad.Call({{"cmd", "state"}, {"game", id}})["error"]["code"], "unknown_game");
    EXPECT_EQ(bad.Call({{"cmd", "quit"}})["result"]["quit"], true);
  }
  {
    // Dropped mid-handshake and mid-message.
    net::io_context io;
    tcp::socket raw(io);
    raw.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), s.port()));
    net::write(raw, net::buffer(std::string("GET /engine HTTP/1.1\r\nUpgrade: websocket\r\n")));
    Client half(s.port());
    half.ws().next_layer().close();
  }
  const json state = good.Call({{"cmd", "state"}, {"game", id}});
  EXPECT_EQ(state["result"], game["result"]);
  const json moved = good.Call({{"cmd", "apply"}, {"game", id}, {"action", "stop"}});
  EXPECT_EQ(moved["result"]["phase"], "mark");
}

TEST(Server, OtherSitesPagesCannotUseTheEngine) {
  RunningServer s;
  EXPECT_THROW(Client(s.port(), "http://evil.example"), beast::system_error);
  Client same(s.port(), "http://127.0.0.1:" + std::to_string(s.port()));
  EXPECT_EQ(same.Call({{"cmd", "hello"}})["result"]["name"], "penk");
}

TEST(Server, StopClosesOpenConnections) {
  auto s = std::make_unique<RunningServer>();
  Client c(s->port());
  EXPECT_EQ(c.Call({{"cmd", "hello"}})["result"]["name"], "penk");
  s.reset();  // Stop and Run's return, with a client still connected
  beast::flat_buffer buffer;
  beast::error_code ec;
  c.ws().read(buffer, ec);
  EXPECT_TRUE(ec);
}

// The server's connections share one table cache, so its cap holds for the
// whole server: a session given one uses it instead of making its own.
// Issue 20, items 5 and 7, from real clients over loopback: every table of
// the server, spread tables included, is in its one cache under the cap
// (each connection used to keep spread tables of its own: 64 connections
// reached 913 MB under a 16 MB cap), and only the policy's tables are built.
class ServerTables : public testing::Test {
 protected:
  void SetUp() override {
    // A complete table as the default one (a partial one is refused there),
    // exact for few free cells, synthetic beyond (tests/completed_tables.h).
    ASSERT_TRUE(WriteTable(CompletedTable(Rules{}, 6), TablePathIn(dir_, Rules{})).ok());
  }
  ServerOptions Options() const {
    ServerOptions o;
    o.session.table_dir = dir_;
    o.session.table_cache_mb = 40;  // one value table and its spread table
    o.session.build.rules = {Rules{}};
    o.session.build.objectives = {Objective{}};
    return o;
  }
  size_t Files() const { return scratch_.files(); }
  testing_support::ScratchDir scratch_{"penk_server_tables"};
  const std::string dir_ = scratch_.path();
};

TEST_F(ServerTables, ConnectionsShareOneCacheOfValueAndSpreadTables) {
  RunningServer s(Options(), /*keep_build=*/true);
  constexpr int kClients = 12;
  std::vector<std::thread> threads;
  std::atomic<int> with_sd{0};
  for (int i = 0; i < kClients; ++i)
    threads.emplace_back([&] {
      Client c(s.port());
      json r = c.Call({{"id", 1}, {"cmd", "value"}, {"sheet", "ooooo/o.ooo/oo.oo/ooo.o/oooo."}});
      if (r.contains("result") && r["result"].contains("sd")) ++with_sd;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(with_sd.load(), kClients);
  EXPECT_EQ(s.server().tables().size(), 1u);
  EXPECT_EQ(s.server().tables().spread_count(), 1u);
  EXPECT_LE(s.server().tables().bytes(), size_t{40} << 20);
  EXPECT_EQ(Files(), 2u);  // the value table and one spread table, built once
}

TEST_F(ServerTables, OnlyThePolicysTablesAreBuilt) {
  RunningServer s(Options(), /*keep_build=*/true);
  Client c(s.port());
  const std::string sheet = "ooooo/o.ooo/oo.oo/ooo.o/oooo.";
  json r = c.Call({{"id", 1}, {"cmd", "value"}, {"sheet", sheet}, {"objective", "target=120"}});
  ASSERT_TRUE(r.contains("error")) << r;
  EXPECT_EQ(r["error"]["code"], "table_error") << r;
  const std::string message = r["error"]["message"];
  EXPECT_NE(message.find("this engine builds only tables of rules line-min=3,penk-lines=all for "
                         "objective mean, not rules line-min=3,penk-lines=all for objective "
                         "target=120"),
            std::string::npos) << message;
  EXPECT_NE(message.find("penk tables build --all --rules line-min=3,penk-lines=all --objective "
                         "target=120 --table-dir"),
            std::string::npos) << message;
  r = c.Call({{"id", 2}, {"cmd", "value"}, {"sheet", sheet}, {"rules", "line-min=4"}});
  EXPECT_EQ(r["error"]["code"], "table_error") << r;
  EXPECT_EQ(Files(), 1u);  // nothing written
  EXPECT_EQ(s.server().tables().size(), 0u);
}

// --- issue 20 ---

using Clock = std::chrono::steady_clock;

tcp::socket Connect(net::io_context& io, uint16_t port) {
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  return socket;
}

// Whether the server closes `socket` within `cap` (reading and discarding
// whatever it sends until then, e.g. WebSocket pings, which are not answered).
bool ClosedWithin(tcp::socket& socket, std::chrono::milliseconds cap) {
  const auto end = Clock::now() + cap;
  char buf[4096];
  while (Clock::now() < end) {
    pollfd p{socket.native_handle(), POLLIN, 0};
    const int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count());
    if (::poll(&p, 1, std::max(left, 1)) <= 0) continue;
    beast::error_code ec;
    socket.read_some(net::buffer(buf), ec);
    if (ec) return true;  // end of file or reset: closed
  }
  return false;
}

// One raw HTTP exchange on a connection of its own: `request` is sent as is.
http::response<http::string_body> RawHttp(uint16_t port, const std::string& request) {
  net::io_context io;
  tcp::socket socket = Connect(io, port);
  net::write(socket, net::buffer(request));
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(socket, buffer, res, ec);
  return res;
}

std::string Upgrade(const std::string& host, const std::string& origin = "") {
  return "GET /engine HTTP/1.1\r\nHost: " + host +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
         (origin.empty() ? "" : "Origin: " + origin + "\r\n") + "\r\n";
}

bool WaitForConnections(Server& server, size_t at_most, std::chrono::seconds cap) {
  const auto end = Clock::now() + cap;
  while (server.connection_count() > at_most && Clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return server.connection_count() <= at_most;
}

ServerOptions ShortDeadlines() {
  ServerOptions options;
  options.request_timeout = std::chrono::milliseconds(300);
  options.websocket_idle_timeout = std::chrono::milliseconds(600);
  return options;
}

// Item 2: every connection slot taken by clients that send nothing used to
// lock everyone out for good; now each silent client is closed after the
// request timeout, and the next client is served.
TEST(Server, SilentClientsAreClosedAfterTheRequestTimeout) {
  ServerOptions options = ShortDeadlines();
  options.max_connections = 2;
  RunningServer s(options);
  net::io_context io;
  tcp::socket a = Connect(io, s.port());
  tcp::socket b = Connect(io, s.port());
  EXPECT_TRUE(ClosedWithin(a, std::chrono::seconds(20))) << "a silent client kept its slot";
  EXPECT_TRUE(ClosedWithin(b, std::chrono::seconds(20))) << "a silent client kept its slot";
  EXPECT_TRUE(WaitForConnections(s.server(), 0, std::chrono::seconds(20)));
  EXPECT_EQ(Get(s.port(), "/").status, 200u);
}

// The deadline is for the whole request: a byte now and then does not renew it.
TEST(Server, ATricklingRequestIsClosedAtTheDeadline) {
  RunningServer s(ShortDeadlines());
  for (const std::string& request :
       {std::string("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "), Upgrade("127.0.0.1")}) {
    net::io_context io;
    tcp::socket t = Connect(io, s.port());
    const auto end = Clock::now() + std::chrono::seconds(20);
    bool closed = false;
    for (size_t i = 0; Clock::now() < end && !closed; ++i) {
      beast::error_code ec;
      const char c = i + 2 < request.size() ? request[i] : 'x';  // never ends the header
      net::write(t, net::buffer(&c, 1), ec);
      closed = ec || ClosedWithin(t, std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(closed) << "a trickling request held its connection for 20 s";
  }
}

// Between two requests of a keep-alive connection the same deadline holds.
TEST(Server, AnIdleKeepAliveConnectionIsClosed) {
  RunningServer s(ShortDeadlines());
  net::io_context io;
  tcp::socket socket = Connect(io, s.port());
  http::request<http::empty_body> req{http::verb::get, "/", 11};
  req.set(http::field::host, "127.0.0.1");
  req.keep_alive(true);
  http::write(socket, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(socket, buffer, res);
  EXPECT_EQ(res.result_int(), 200u);
  EXPECT_TRUE(res.keep_alive());
  EXPECT_TRUE(ClosedWithin(socket, std::chrono::seconds(20))) << "an idle keep-alive stayed open";
}

// An open WebSocket whose client answers nothing, not even the server's
// pings, is closed after the idle timeout; one whose client answers pings
// stays open however long it is idle.
TEST(Server, AWebSocketThatAnswersNoPingIsClosed) {
  RunningServer s(ShortDeadlines());
  net::io_context io;
  tcp::socket raw = Connect(io, s.port());
  net::write(raw, net::buffer(Upgrade("127.0.0.1:" + std::to_string(s.port()))));
  beast::flat_buffer buffer;
  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // a 101 has no body
  http::read_header(raw, buffer, parser);
  ASSERT_EQ(parser.get().result_int(), 101u);
  EXPECT_TRUE(ClosedWithin(raw, std::chrono::seconds(20)));

  Client live(s.port());
  // Reading (so that Beast answers the pings) for several idle timeouts.
  beast::flat_buffer in;
  bool got = false;
  live.ws().async_read(in, [&](beast::error_code, size_t) { got = true; });
  net::io_context& lio = static_cast<net::io_context&>(live.ws().get_executor().context());
  lio.run_for(std::chrono::milliseconds(2000));
  EXPECT_FALSE(got) << "the server closed a client that answers its pings";
}

// Item 4: a WebSocket whose thread cannot be created is refused with a reason;
// the server goes on (it used to end with std::terminate).
TEST(Server, AThreadThatCannotBeCreatedRefusesOnlyThatConnection) {
  auto fail = std::make_shared<std::atomic<bool>>(true);
  ServerOptions options;
  options.before_thread_start = [fail] {
    if (*fail) throw std::system_error(EAGAIN, std::generic_category(), "thread creation");
  };
  RunningServer s(options);
  const auto res = RawHttp(s.port(), Upgrade("127.0.0.1:" + std::to_string(s.port())));
  EXPECT_EQ(res.result_int(), 503u);
  EXPECT_NE(res.body().find("cannot start a thread for this connection"), std::string::npos)
      << res.body();
  EXPECT_THROW(Client(s.port()), beast::system_error);
  EXPECT_EQ(Get(s.port(), "/").status, 200u);
  EXPECT_TRUE(WaitForConnections(s.server(), 0, std::chrono::seconds(20)));
  *fail = false;
  Client c(s.port());
  EXPECT_EQ(c.Call({{"cmd", "hello"}})["result"]["name"], "penk");
}

// A folder holding, under the default name, the small table (positions with
// at most 6 free cells) completed beyond by a synthetic estimate
// (tests/completed_tables.h; a partial table is refused there): expert, and
// so the rollouts, play from it.
std::string SmallTableDir() {
  const std::string dir = testing::TempDir() + "penk_server_test_completed_tables_v" +
                          std::to_string(kTableFormatVersion);
  const std::string path = TablePathIn(dir, Rules{}, 0);
  if (!std::filesystem::exists(path)) {
    std::filesystem::create_directories(dir);
    const std::string tmp = path + "." + std::to_string(::getpid());
    EXPECT_TRUE(WriteTable(CompletedTable(Rules{}, 6), tmp).ok());
    std::filesystem::rename(tmp, path);
  }
  return dir;
}

// A hint whose rollouts would run an hour (time_ms 3,600,000).
json HourLongRollouts() {
  return {{"id", 7},
          {"cmd", "hint"},
          {"sheet", "oooo./ooo.o/oo.oo/o.ooo/.oooo"},
          {"roll", "12345J"},
          {"rerolls", 1},
          {"opponents", {".oooo/o.ooo/oo.oo/ooo.o/oooo."}},
          {"rollouts", 1000000},
          {"time_ms", 3600000}};
}

ServerOptions WithSmallTables() {
  ServerOptions options;
  options.session.table_dir = SmallTableDir();
  return options;
}

// Item 6: two clients ask an hour of rollouts and vanish: their work is
// cancelled and their slots freed, not held for the hour.
TEST(Server, AClientThatHasGoneHasItsWorkCancelled) {
  ServerOptions options = WithSmallTables();
  options.max_connections = 2;
  RunningServer s(options);
  {
    Client a(s.port()), b(s.port());
    for (Client* c : {&a, &b}) c->ws().write(net::buffer(HourLongRollouts().dump()));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the rollouts run
    EXPECT_EQ(s.server().connection_count(), 2u);
    for (Client* c : {&a, &b}) c->ws().next_layer().close();
  }
  EXPECT_TRUE(WaitForConnections(s.server(), 0, std::chrono::seconds(30)))
      << "the work of a closed connection still holds its slot";
  Client c(s.port());
  EXPECT_EQ(c.Call({{"cmd", "hello"}})["result"]["name"], "penk");
}

// Stop (SIGTERM) cancels the work running, answers it `cancelled` and closes
// with 1001 (going away), within seconds, not after the work's hour.
TEST(Server, StopCancelsRunningWorkAndSaysSo) {
  auto s = std::make_unique<RunningServer>(WithSmallTables());
  Client c(s->port());
  EXPECT_EQ(c.Call({{"cmd", "hello"}})["result"]["name"], "penk");
  c.ws().write(net::buffer(HourLongRollouts().dump()));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // Read while stopping (the reply, then the close): the client answers the
  // closing handshake at once.
  beast::flat_buffer buffer;
  beast::error_code read_ec, close_ec;
  std::string reply_text;
  std::thread reader([&] {
    c.ws().read(buffer, read_ec);
    reply_text = beast::buffers_to_string(buffer.data());
    buffer.consume(buffer.size());
    if (!read_ec) c.ws().read(buffer, close_ec);
  });
  const auto start = Clock::now();
  s.reset();  // Stop and Run's return
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  reader.join();
  EXPECT_LT(seconds, 30) << "Stop waited for the rollouts";
  ASSERT_FALSE(read_ec) << read_ec.message();
  const json reply = json::parse(reply_text);
  EXPECT_EQ(reply["id"], 7);
  EXPECT_EQ(reply["error"]["code"], "cancelled") << reply;
  EXPECT_EQ(close_ec, websocket::error::closed);
  EXPECT_EQ(c.ws().reason().code, websocket::close_code::going_away);
}

// Issue 22 item 1: protocol 3 over the WebSocket, as on the other doors --
// a long hint in flight, a hello and a value answered before it, progress
// messages by id, a cancel answered at once and the hint then `cancelled`
// with its partial rollouts; the connection goes on.
TEST(Server, Protocol3RunsRequestsSideBySideWithProgressAndCancel) {
  RunningServer s(WithSmallTables());
  Client c(s.port());
  EXPECT_EQ(c.Call({{"id", 0}, {"cmd", "hello"}, {"protocol", 3}})["result"]["protocol"], 3);
  json hint = HourLongRollouts();
  hint["progress_ms"] = 100;
  auto send = [&](const json& r) { c.ws().write(net::buffer(r.dump())); };
  auto read = [&] {
    beast::flat_buffer buffer;
    c.ws().read(buffer);
    return json::parse(beast::buffers_to_string(buffer.data()));
  };
  send(hint);
  send({{"id", 8}, {"cmd", "hello"}});
  send({{"id", 9}, {"cmd", "value"}, {"sheet", "ooooo/o.ooo/oo.oo/ooo.o/oooo."}});
  std::vector<json> lines;
  int progress = 0;
  while (progress < 3) {  // the hint reports while the others are answered
    lines.push_back(read());
    if (lines.back().contains("progress")) {
      EXPECT_EQ(lines.back()["id"], 7);
      ++progress;
    }
  }
  bool hello = false, value = false;
  for (const json& l : lines) {
    hello = hello || (l["id"] == 8 && l.contains("result"));
    value = value || (l["id"] == 9 && l.contains("result"));
  }
  EXPECT_TRUE(hello && value) << "answered while the hint runs";
  send({{"id", 10}, {"cmd", "cancel"}, {"target", 7}});
  json cancelled;
  for (;;) {
    json l = read();
    if (l["id"] == 10) {
      EXPECT_EQ(l["result"]["running"], true) << l;
    }
    if (l["id"] == 7 && !l.contains("progress")) {
      cancelled = l;
      break;
    }
  }
  ASSERT_EQ(cancelled["error"]["code"], "cancelled") << cancelled;
  EXPECT_TRUE(cancelled["error"]["partial"].contains("actions")) << cancelled;
  EXPECT_EQ(c.Call({{"id", 11}, {"cmd", "hello"}})["id"], 11);
}

// With 16 requests running (the most in flight), a 17th is answered
// `limit` at once and a cancel still gets through: the socket is read on.
TEST(Server, ACancelGetsThroughWhenSixteenRequestsRun) {
  RunningServer s(WithSmallTables());
  Client c(s.port());
  EXPECT_EQ(c.Call({{"id", 0}, {"cmd", "hello"}, {"protocol", 3}})["result"]["protocol"], 3);
  for (int i = 0; i < 17; ++i) {
    json hint = HourLongRollouts();
    hint["id"] = 100 + i;
    c.ws().write(net::buffer(hint.dump()));
  }
  c.ws().write(net::buffer(json({{"id", 1}, {"cmd", "cancel"}, {"target", 100}}).dump()));
  bool limited = false, cancel_answered = false, cancelled = false;
  while (!(limited && cancel_answered && cancelled)) {
    beast::flat_buffer buffer;
    c.ws().read(buffer);
    const json l = json::parse(beast::buffers_to_string(buffer.data()));
    if (l["id"] == 116) limited = l["error"]["code"] == "limit";
    if (l["id"] == 1) cancel_answered = l["result"]["running"] == true;
    if (l["id"] == 100) cancelled = l["error"]["code"] == "cancelled";
    ASSERT_TRUE(l["id"] == 116 || l["id"] == 1 || l["id"] == 100) << l;
  }
  EXPECT_TRUE(limited && cancel_answered && cancelled);
}

// Item 10: DNS rebinding (a name of the attacker's pointed at 127.0.0.1)
// sends Host and Origin of that name: refused for pages and the engine.
TEST(Server, OnlyTheHostsServedAreAccepted) {
  ServerOptions options;
  options.allowed_hosts = {"penk.lan"};
  RunningServer s(options);
  const std::string port = std::to_string(s.port());
  auto get = [&](const std::string& host) {
    return RawHttp(s.port(), "GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
  };
  const auto evil = get("evil.example:" + port);
  EXPECT_EQ(evil.result_int(), 421u);
  EXPECT_NE(evil.body().find("host \"evil.example\" is not served here"), std::string::npos)
      << evil.body();
  EXPECT_NE(evil.body().find("--allow-host"), std::string::npos) << evil.body();
  for (const std::string& host : std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST",
                                  "[::1]:" + port, "penk.lan:" + port})
    EXPECT_EQ(get(host).result_int(), 200u) << host;
  EXPECT_EQ(get("evil.example:" + port + ":1").result_int(), 421u);

  const auto ws_evil = RawHttp(s.port(), Upgrade("evil.example:" + port, "http://evil.example:" + port));
  EXPECT_EQ(ws_evil.result_int(), 421u) << ws_evil.body();
  EXPECT_THROW(Client(s.port(), "http://evil.example:" + port, "evil.example"),
               beast::system_error);
  const auto ftp = RawHttp(s.port(), Upgrade("127.0.0.1:" + port, "ftp://127.0.0.1:" + port));
  EXPECT_EQ(ftp.result_int(), 403u);
  EXPECT_NE(ftp.body().find("only http:// and https://"), std::string::npos) << ftp.body();
  Client named(s.port(), "http://penk.lan:" + port, "penk.lan");
  EXPECT_EQ(named.Call({{"cmd", "hello"}})["result"]["name"], "penk");
  Client secure(s.port(), "https://localhost:" + port, "localhost");
  EXPECT_EQ(secure.Call({{"cmd", "hello"}})["result"]["name"], "penk");
}

TEST(Server, RefusesAHostThatIsNotAnAddress) {
  ServerOptions options;
  options.host = "localhost:80";
  auto server = Server::Listen(options);
  ASSERT_FALSE(server.ok());
  EXPECT_NE(server.status().message().find("not an IP address"), std::string::npos);
}

}  // namespace
}  // namespace penk::server
