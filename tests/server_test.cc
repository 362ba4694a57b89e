// `penk serve`'s server (server/server.h, issue 12) from a real client over
// loopback: the compiled-in files and nothing else, the engine protocol on
// /engine, and its safety: message size, connection and game limits, other
// sites' pages refused, one connection's bad input never touching another.
#include "server/server.h"

#include <chrono>
#include <memory>
#include <string>
#include <thread>

// Before Boost: 1.74's asio/awaitable.hpp uses std::exchange without it.
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "server/web_files.h"

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
  explicit RunningServer(ServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    options.session.build.allow = false;  // the tests use greedy: no tables
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
  explicit Client(uint16_t port, const std::string& origin = "") : ws_(io_) {
    ws_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    const std::string host = "127.0.0.1:" + std::to_string(port);
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
TEST(Server, SessionsUseTheSharedTableCache) {
  auto shared = std::make_shared<TableCache>(InMemoryTableLoader(), 3 << 20);
  protocol::SessionOptions options;
  options.shared_tables = shared;
  protocol::Session a(options), b(options);
  EXPECT_EQ(a.tables().get(), shared.get());
  EXPECT_EQ(b.tables().get(), shared.get());
  EXPECT_EQ(a.tables()->cap_bytes(), size_t{3} << 20);
  protocol::Session own{protocol::SessionOptions{}};
  EXPECT_NE(own.tables().get(), shared.get());
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
