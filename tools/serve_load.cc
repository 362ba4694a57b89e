// Load test of `penk serve` (issue 12, docs/PERFORMANCE.md): N concurrent
// WebSocket clients on loopback, each playing whole games as a human seat
// against expert: the human asks `hint` (by game) and plays its best option,
// expert's moves are `best_action` with apply. Bounded in games and time.
// Prints the p50/p99 latency of best_action and hint and the error count.
//
//   penk_serve_load --port P [--clients 50] [--games 1] [--seconds 600]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

// Before Boost: 1.74's asio/awaitable.hpp uses std::exchange without it.
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "nlohmann/json.hpp"

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Totals {
  std::mutex mutex;
  std::vector<double> best_action_ms, hint_ms;
  long errors = 0, games = 0, requests = 0;
  std::string first_error;
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

void Client(int index, int port, int games, Clock::time_point deadline, Totals& totals) {
  std::vector<double> best, hint;
  long errors = 0, done = 0, requests = 0;
  std::string first_error;
  try {
    net::io_context io;
    websocket::stream<tcp::socket> ws(io);
    ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws.handshake("127.0.0.1:" + std::to_string(port), "/engine");
    auto call = [&](const json& request, std::vector<double>* times) {
      const auto start = Clock::now();
      ws.write(net::buffer(request.dump()));
      beast::flat_buffer buffer;
      ws.read(buffer);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (times) times->push_back(ms);
      ++requests;
      json reply = json::parse(beast::buffers_to_string(buffer.data()));
      if (reply.contains("error")) {
        ++errors;
        if (first_error.empty()) first_error = reply.dump();
      }
      return reply;
    };
    for (int g = 0; g < games && Clock::now() < deadline; ++g) {
      json state = call({{"cmd", "new_game"}, {"players", {"human", "expert"}},
                         {"seed", 1000 * index + g}}, nullptr)["result"];
      while (state.is_object() && state["phase"] != "over" && Clock::now() < deadline) {
        const int id = state["game"];
        if (state["players"][state["current"].get<int>()]["seat"] == "human") {
          json h = call({{"cmd", "hint"}, {"game", id}, {"top", 1}}, &hint);
          if (!h.contains("result")) break;
          state = call({{"cmd", "apply"}, {"game", id},
                        {"action", h["result"]["actions"][0]["action"]}}, nullptr)["result"];
        } else {
          json b = call({{"cmd", "best_action"}, {"game", id}, {"apply", true}}, &best);
          if (!b.contains("result")) break;
          state = b["result"]["state"];
        }
      }
      if (state.is_object() && state["phase"] == "over") ++done;
      call({{"cmd", "close_game"}, {"game", state["game"]}}, nullptr);
    }
    ws.close(websocket::close_code::normal);
  } catch (const std::exception& e) {
    ++errors;
    if (first_error.empty()) first_error = e.what();
  }
  std::lock_guard<std::mutex> lock(totals.mutex);
  totals.best_action_ms.insert(totals.best_action_ms.end(), best.begin(), best.end());
  totals.hint_ms.insert(totals.hint_ms.end(), hint.begin(), hint.end());
  totals.errors += errors;
  totals.games += done;
  totals.requests += requests;
  if (totals.first_error.empty()) totals.first_error = first_error;
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0, clients = 50, games = 1, seconds = 600;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--port") port = value;
    else if (flag == "--clients") clients = std::clamp(value, 1, 200);
    else if (flag == "--games") games = std::clamp(value, 1, 100);
    else if (flag == "--seconds") seconds = std::clamp(value, 1, 3600);
    else {
      std::fprintf(stderr, "serve_load: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (port <= 0) {
    std::fprintf(stderr, "usage: serve_load --port P [--clients 50] [--games 1] [--seconds 600]\n");
    return 2;
  }
  Totals totals;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::seconds(seconds);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c)
    threads.emplace_back(Client, c, port, games, deadline, std::ref(totals));
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("clients %d, games finished %ld of %d, requests %ld, wall %.1f s\n", clients,
              totals.games, clients * games, totals.requests, wall);
  std::printf("best_action: n %zu, p50 %.1f ms, p99 %.1f ms\n", totals.best_action_ms.size(),
              Percentile(totals.best_action_ms, 0.5), Percentile(totals.best_action_ms, 0.99));
  std::printf("hint:        n %zu, p50 %.1f ms, p99 %.1f ms\n", totals.hint_ms.size(),
              Percentile(totals.hint_ms, 0.5), Percentile(totals.hint_ms, 0.99));
  std::printf("errors %ld%s%s\n", totals.errors, totals.first_error.empty() ? "" : ", first: ",
              totals.first_error.c_str());
  return totals.errors == 0 && totals.games == clients * games ? 0 : 1;
}
