// Requests in flight (protocol 3, issue 22 item 1; protocol/dispatch.h): the
// dispatcher every door runs requests through. Checked against what a
// client sees: the order of replies, their ids, progress messages and their
// spacing, cancels (with the partial result), time_ms over a table load, the
// order of requests on one game, and protocol 2 answered exactly as
// HandleLine answers.
#include "protocol/dispatch.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "protocol/protocol.h"
#include "solver/work_progress.h"
#include "tests/completed_tables.h"

namespace penk::protocol {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Every line the dispatcher emits, parsed, with when it came.
class Lines {
 public:
  void Add(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.push_back(json::parse(line));
    at_.push_back(Clock::now());
    changed_.notify_all();
  }
  // Waits (at most `limit`) until `done` holds for the lines so far.
  bool WaitFor(const std::function<bool(const std::vector<json>&)>& done,
               std::chrono::milliseconds limit = std::chrono::seconds(60)) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return done(lines_); });
  }
  std::vector<json> all() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }
  std::vector<Clock::time_point> times() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return at_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<json> lines_;
  std::vector<Clock::time_point> at_;
};

// Where the last reply (not a progress message) to request `id` is.
size_t IndexOf(const std::vector<json>& lines, const json& id) {
  for (size_t i = lines.size(); i-- > 0;)
    if (lines[i]["id"] == id && !lines[i].contains("progress")) return i;
  return lines.size();
}
// That reply, or null.
json ReplyTo(const std::vector<json>& lines, const json& id) {
  const size_t i = IndexOf(lines, id);
  return i < lines.size() ? lines[i] : json(nullptr);
}
bool Answered(const std::vector<json>& lines, const json& id) { return IndexOf(lines, id) < lines.size(); }

// Tables for whole games, cheap (tests/completed_tables.h: exact only with at
// most 2 free cells), shared by the tests of this binary so that each set of
// blocked rows a rollout meets is made once.
// All made at first use (a cancelled rollout answers with its partial
// result unless it is inside a table load, which nothing interrupts).
std::shared_ptr<TableCache> SharedCheapTables() {
  static const std::shared_ptr<TableCache> tables = [] {
    auto t = std::make_shared<TableCache>(CompletedTableLoader(2), size_t{1} << 30);
    const std::vector<uint32_t> sets = BlockedRowSets(Rules{});
    std::vector<std::thread> threads;
    for (int k = 0; k < 2; ++k)
      threads.emplace_back([&, k] {
        for (size_t i = k; i < sets.size(); i += 2) EXPECT_TRUE(t->Get(TableKey{Rules{}, sets[i], "", {}}).ok());
      });
    for (std::thread& th : threads) th.join();
    return t;
  }();
  return tables;
}
SessionOptions CheapTables() {
  SessionOptions o;
  o.shared_tables = SharedCheapTables();
  o.deterministic_seeds = true;
  return o;
}

constexpr char kOpponent[] = "ooo../...../...../...../.....";
// A hint whose rollouts would take hours: stopped only by a cancel or time.
json LongHint(int id) {
  return {{"id", id},       {"cmd", "hint"},      {"roll", "11335J"},
          {"opponents", {kOpponent}}, {"seat", 2}, {"rollouts", 1000000},
          {"top", 3},       {"candidates", 3},    {"time_ms", 3600000}};
}

struct Fixture {
  explicit Fixture(SessionOptions o = CheapTables(), DispatchLimits limits = {})
      : session(std::move(o)),
        dispatcher(session, [this](const std::string& l, bool) { lines.Add(l); }, limits) {}
  void Send(const json& request) { dispatcher.Submit(request.dump()); }
  void Protocol3() {
    Send({{"id", "hello"}, {"cmd", "hello"}, {"protocol", 3}});
    ASSERT_EQ(ReplyTo(lines.all(), "hello")["result"]["protocol"], 3);
  }
  Lines lines;
  Session session;
  Dispatcher dispatcher;
};

// Protocol 2 (no hello asking for 3): each request answered before Submit
// returns, with exactly HandleLine's reply on the same session history.
TEST(Dispatch, Protocol2IsAnsweredAsHandleLineAnswers) {
  const std::vector<json> requests = {
      {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"seed", 5}},
      {{"id", 2}, {"cmd", "apply"}, {"game", 1}, {"action", "stop"}},
      {{"id", 3}, {"cmd", "hint"}, {"game", 1}, {"top", 2}},
      {{"cmd", "best_action"}, {"game", 1}},  // no id: protocol 2 allows it
      {{"id", 5}, {"cmd", "value"}, {"sheet", kOpponent}},
      {{"id", 6}, {"cmd", "state"}, {"game", 9}},  // an error
      {{"id", 7}, {"cmd", "apply"}, {"game", 1}, {"action", "1:1"}, {"time_ms", 5000}},
  };
  Session direct(CheapTables());
  Fixture f;
  for (size_t i = 0; i < requests.size(); ++i) {
    f.Send(requests[i]);
    const std::vector<json> got = f.lines.all();
    ASSERT_EQ(got.size(), i + 1) << "answered before Submit returned";
    EXPECT_EQ(got.back(), json::parse(HandleLine(direct, requests[i].dump()))) << requests[i];
  }
  EXPECT_EQ(f.session.protocol(), 2);
}

// Protocol 3: a long request does not hold up the others; they are answered
// first, by id; a cancel stops it and it answers `cancelled` with the trials
// played as "partial"; the cancel itself says it was running.
TEST(Dispatch, Protocol3AnswersInCompletionOrderAndCancels) {
  Fixture f;
  f.Protocol3();
  json long_hint = LongHint(1);
  long_hint["progress_ms"] = 50;  // to see trials played before the cancel
  f.Send(long_hint);
  f.Send({{"id", 2}, {"cmd", "value"}, {"sheet", kOpponent}});
  f.Send({{"id", "h"}, {"cmd", "hello"}});
  f.Send({{"id", 3}, {"cmd", "new_game"}, {"players", {"greedy", "greedy"}}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 2) && Answered(l, 3); }));
  EXPECT_FALSE(Answered(f.lines.all(), 1)) << "the long hint is still running";
  EXPECT_TRUE(ReplyTo(f.lines.all(), 2)["result"].contains("value"));
  // Some trials played, as its progress says: a fixed sleep was not always
  // enough under ThreadSanitizer on a loaded machine (none played in 300 ms).
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) {
    for (const json& line : l)
      if (line["id"] == 1 && line.contains("progress") &&
          line["progress"]["what"].get<std::string>().rfind("rollouts", 0) == 0 &&
          line["progress"]["done"].get<int64_t>() > 0)
        return true;
    return false;
  })) << "the long hint reported no trial played in 60 s";
  f.Send({{"id", 4}, {"cmd", "cancel"}, {"target", 1}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 1); }, std::chrono::seconds(10)));
  const std::vector<json> lines = f.lines.all();
  EXPECT_EQ(ReplyTo(lines, 4)["result"], json({{"target", 1}, {"running", true}}));
  EXPECT_LT(IndexOf(lines, 4), IndexOf(lines, 1)) << "the cancel's reply comes first";
  const json hint = ReplyTo(lines, 1);
  ASSERT_TRUE(hint.contains("error")) << hint;
  ASSERT_EQ(hint["error"]["code"], "cancelled") << hint;
  ASSERT_TRUE(hint["error"].contains("partial")) << hint;
  const json& partial = hint["error"]["partial"];
  ASSERT_EQ(partial["actions"].size(), 3u) << hint;
  int64_t played = 0;
  for (const json& a : partial["actions"]) played += a["rollout"]["trials"].get<int64_t>();
  EXPECT_GT(played, 0);
  EXPECT_LT(played, 3000000);
  // Cancelling what is no longer running is not an error.
  f.Send({{"id", 5}, {"cmd", "cancel"}, {"target", 1}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 5); }));
  EXPECT_EQ(ReplyTo(f.lines.all(), 5)["result"]["running"], false);
}

// progress_ms: messages with the request's id, done growing toward total,
// no closer together than asked; the reply comes after the last of them.
TEST(Dispatch, ProgressMessagesAtMostEveryProgressMs) {
  Fixture f;
  f.Protocol3();
  json hint = LongHint(7);
  hint["rollouts"] = 2000;
  hint["progress_ms"] = 100;
  hint["time_ms"] = 1500;
  f.Send(hint);
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 7); }));
  const std::vector<json> lines = f.lines.all();
  const std::vector<Clock::time_point> at = f.lines.times();
  std::vector<size_t> progress;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].contains("progress")) {
      EXPECT_EQ(lines[i]["id"], 7);
      progress.push_back(i);
    }
  ASSERT_GE(progress.size(), 3u) << "a 1.5 s request reports every 100 ms";
  int64_t last_done = -1;
  for (size_t k = 0; k < progress.size(); ++k) {
    const json& p = lines[progress[k]]["progress"];
    EXPECT_GE(p["done"].get<int64_t>(), 0);
    EXPECT_LE(p["done"], p["total"]);
    if (p["what"].get<std::string>().rfind("rollouts", 0) == 0) {
      EXPECT_EQ(p["total"], 3 * 2000);
      EXPECT_GE(p["done"].get<int64_t>(), last_done);
      last_done = p["done"];
    }
    if (k > 0) {
      EXPECT_GE(at[progress[k]] - at[progress[k - 1]], std::chrono::milliseconds(95));
    }
  }
  EXPECT_GE(last_done, 0) << "the rollouts' own progress was reported";
  EXPECT_LT(progress.back(), IndexOf(lines, 7));
  const json reply = ReplyTo(lines, 7);
  ASSERT_TRUE(reply.contains("result")) << reply;
  EXPECT_EQ(reply["result"]["rollouts"]["timed_out"], true);
}

// A loader that takes `ms` and says how far it is (as a table build does).
TableLoader SlowLoader(int ms, std::atomic<int>* loads) {
  TableLoader cheap = CompletedTableLoader(2);
  return [=](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    ++*loads;
    for (int i = 0; i < 20; ++i) {
      if (WorkProgress* p = CurrentWorkProgress()) p->Update(i, 20);
      std::this_thread::sleep_for(std::chrono::milliseconds(ms / 20));
    }
    return cheap(key);
  };
}

// time_ms covers a table load: the request is answered time_out soon after
// its deadline, naming what it waited for; the load goes on and the next
// request finds the table ready (one load in all).
TEST(Dispatch, TimeMsBoundsATableLoadThatGoesOnInTheBackground) {
  std::atomic<int> loads{0};
  SessionOptions o;
  o.shared_tables = std::make_shared<TableCache>(SlowLoader(1500, &loads), size_t{1} << 30);
  Fixture f(o);
  f.Protocol3();
  const auto t0 = Clock::now();
  f.Send({{"id", 1}, {"cmd", "prepare"}, {"blocked", "12"}, {"time_ms", 200}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 1); }));
  const auto took = Clock::now() - t0;
  EXPECT_GE(took, std::chrono::milliseconds(200));
  EXPECT_LT(took, std::chrono::milliseconds(1200)) << "answered before the load ended";
  const json r = ReplyTo(f.lines.all(), 1);
  ASSERT_EQ(r["error"]["code"], "time_out") << r;
  const std::string message = r["error"]["message"];
  EXPECT_NE(message.find("time_ms 200"), std::string::npos) << message;
  EXPECT_NE(message.find("loading table line-min=3,penk-lines=all blocked=12"), std::string::npos)
      << message;
  EXPECT_NE(message.find("background"), std::string::npos) << message;
  f.dispatcher.Drain();  // the load ends
  f.Send({{"id", 2}, {"cmd", "prepare"}, {"blocked", {"12"}}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 2); }));
  const json again = ReplyTo(f.lines.all(), 2);
  ASSERT_TRUE(again.contains("result")) << again;
  EXPECT_EQ(again["result"]["tables"], json::parse(R"([{"blocked":"12","loaded":false}])"));
  EXPECT_EQ(loads.load(), 1);
}

// Protocol 2 cannot pile up threads either: requests answered time_out whose
// loads still run count against the bound.
TEST(Dispatch, TimedOutWorkCountsUntilItEnds) {
  std::atomic<int> loads{0};
  SessionOptions o;
  o.shared_tables = std::make_shared<TableCache>(SlowLoader(1000, &loads), size_t{1} << 30);
  DispatchLimits limits;
  limits.max_in_flight = 2;
  Fixture f(o, limits);
  for (int i = 0; i < 3; ++i)
    f.Send({{"id", i}, {"cmd", "prepare"}, {"blocked", std::string(1, static_cast<char>('1' + i))},
            {"time_ms", 1}});
  const std::vector<json> lines = f.lines.all();
  ASSERT_EQ(lines.size(), 3u) << "protocol 2: each answered before the next";
  EXPECT_EQ(lines[0]["error"]["code"], "time_out");
  EXPECT_EQ(lines[1]["error"]["code"], "time_out");
  EXPECT_EQ(lines[2]["error"]["code"], "limit") << lines[2];
  f.dispatcher.Drain();
  EXPECT_EQ(loads.load(), 2);
  // The loads ended in the background: the tables are there, and the bound free.
  f.Send({{"id", 9}, {"cmd", "prepare"}, {"blocked", {"1", "2"}}, {"time_ms", 1000}});
  EXPECT_EQ(ReplyTo(f.lines.all(), 9)["result"]["tables"],
            json::parse(R"([{"blocked":"1","loaded":false},{"blocked":"2","loaded":false}])"))
      << ReplyTo(f.lines.all(), 9);
}

// prepare loads the tables asked for, with progress, once; "all" means the
// 32 sets of blocked rows (R4.2).
TEST(Dispatch, PrepareLoadsTablesWithProgress) {
  std::atomic<int> loads{0};
  SessionOptions o;
  o.shared_tables = std::make_shared<TableCache>(SlowLoader(100, &loads), size_t{1} << 30);
  Fixture f(o);
  f.Protocol3();
  f.Send({{"id", 1}, {"cmd", "prepare"}, {"blocked", {"", "1", "2", "12", "13", "123"}}, {"progress_ms", 50}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 1); }));
  const std::vector<json> lines = f.lines.all();
  const json r = ReplyTo(lines, 1);
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["count"], 6);
  EXPECT_EQ(r["result"]["tables"][3], json({{"blocked", "12"}, {"loaded", true}}));
  EXPECT_EQ(loads.load(), 6);
  int loading = 0;
  for (const json& l : lines)
    if (l.contains("progress") &&
        l["progress"]["what"].get<std::string>().find("loading table line-min=3") != std::string::npos)
      ++loading;
  EXPECT_GE(loading, 3) << "6 loads of 100 ms, told every 50 ms";
  // "all": the 32 sets (R4.2), here already in memory.
  Fixture warm;
  warm.Send({{"id", 1}, {"cmd", "prepare"}, {"blocked", "all"}});
  ASSERT_TRUE(warm.lines.WaitFor([](const auto& l) { return Answered(l, 1); }));
  const json all = ReplyTo(warm.lines.all(), 1);
  ASSERT_EQ(all["result"]["count"], 32) << all;
  for (const json& t : all["result"]["tables"]) EXPECT_EQ(t["loaded"], false);
  // A bad set is refused with what is expected.
  f.Send({{"id", 2}, {"cmd", "prepare"}, {"blocked", "16"}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 2); }));
  EXPECT_EQ(ReplyTo(f.lines.all(), 2)["error"]["code"], "bad_field");
}

// Requests on one game run in the order sent (a move then the state shows
// it), while a request on another game is not held up by a long one.
TEST(Dispatch, OneGameInOrderOtherGamesAlongside) {
  Fixture f;
  f.Protocol3();
  f.Send({{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "expert"}}, {"seed", 3}});
  f.Send({{"id", 2}, {"cmd", "new_game"}, {"players", {"human", "expert"}}, {"seed", 4}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 1) && Answered(l, 2); }));
  const int g1 = ReplyTo(f.lines.all(), 1)["result"]["game"];
  const int g2 = ReplyTo(f.lines.all(), 2)["result"]["game"];
  json slow = LongHint(3);
  slow.erase("roll");
  slow.erase("opponents");
  slow.erase("seat");
  slow["game"] = g1;
  f.Send(slow);  // holds game 1
  for (int i = 0; i < 5; ++i) {
    f.Send({{"id", 10 + i}, {"cmd", "apply"}, {"game", g2}, {"action", i == 0 ? "stop" : "-"}});
  }
  f.Send({{"id", 20}, {"cmd", "apply"}, {"game", g1}, {"action", "stop"}});
  f.Send({{"id", 21}, {"cmd", "state"}, {"game", g1}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 14); }));
  std::vector<json> lines = f.lines.all();
  EXPECT_FALSE(Answered(lines, 20)) << "game 1 is busy with the hint";
  EXPECT_TRUE(ReplyTo(lines, 10).contains("result")) << ReplyTo(lines, 10);
  // Game 2's moves, in the order sent: the first (stop) is legal, the others
  // come after it and are refused (no dice to keep after a stop).
  for (int i = 1; i < 5; ++i) EXPECT_EQ(ReplyTo(lines, 10 + i)["error"]["code"], "illegal_action");
  f.Send({{"id", 30}, {"cmd", "cancel"}, {"target", 3}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 21); }));
  lines = f.lines.all();
  EXPECT_LT(IndexOf(lines, 3), IndexOf(lines, 20));
  EXPECT_LT(IndexOf(lines, 20), IndexOf(lines, 21));
  ASSERT_TRUE(ReplyTo(lines, 20).contains("result"));
  EXPECT_EQ(ReplyTo(lines, 21)["result"], ReplyTo(lines, 20)["result"]) << "the state after the move";
}

// A cancelled best_action of master changes no game.
TEST(Dispatch, ACancelledMoveIsNotApplied) {
  Fixture f;
  f.Protocol3();
  f.Send({{"id", 1}, {"cmd", "new_game"}, {"players", {"master", "expert"}}, {"seed", 8}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 1); }));
  const json before = ReplyTo(f.lines.all(), 1)["result"];
  // One rollout thread: OpenMP's own threads are not instrumented (TSan pass).
  f.Send({{"id", 2}, {"cmd", "best_action"}, {"game", before["game"]}, {"apply", true},
          {"level", "master:trials=1000:threads=1"}});
  f.Send({{"id", 3}, {"cmd", "cancel"}, {"target", 2}});
  f.Send({{"id", 4}, {"cmd", "state"}, {"game", before["game"]}});
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 4); }));
  const std::vector<json> lines = f.lines.all();
  const json move = ReplyTo(lines, 2);
  if (move.contains("error")) {
    EXPECT_EQ(move["error"]["code"], "cancelled") << move;
    EXPECT_EQ(ReplyTo(lines, 4)["result"], before) << "the game is as it was";
  } else {  // master decided before the cancel arrived: then it was applied
    EXPECT_EQ(ReplyTo(lines, 3)["result"]["running"], false);
    EXPECT_EQ(ReplyTo(lines, 4)["result"], move["result"]["state"]);
  }
}

// What protocol 3 refuses, each in one line: no id, an id in flight, one
// request too many; quit answers every request in flight first.
TEST(Dispatch, Protocol3BoundsAndQuit) {
  DispatchLimits limits;
  limits.max_in_flight = 3;
  Fixture f(CheapTables(), limits);
  f.Protocol3();
  f.Send({{"cmd", "value"}});
  f.Send(LongHint(1));
  f.Send(LongHint(1));
  f.Send(LongHint(2));
  f.Send(LongHint(3));
  f.Send(LongHint(4));
  std::vector<json> lines = f.lines.all();
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[1]["id"], nullptr);
  EXPECT_NE(lines[1]["error"]["message"].get<std::string>().find("every request carries an \"id\""),
            std::string::npos);
  EXPECT_EQ(lines[2]["id"], 1);
  EXPECT_NE(lines[2]["error"]["message"].get<std::string>().find("in flight"), std::string::npos);
  EXPECT_EQ(ReplyTo(lines, 4)["error"]["code"], "limit");
  EXPECT_EQ(f.dispatcher.in_flight(), 3u);
  f.Send({{"id", "q"}, {"cmd", "quit"}});
  lines = f.lines.all();
  for (int id : {1, 2, 3}) {
    EXPECT_EQ(ReplyTo(lines, id)["error"]["code"], "cancelled") << id;
    EXPECT_LT(IndexOf(lines, id), IndexOf(lines, "q"));
  }
  EXPECT_EQ(ReplyTo(lines, "q")["result"]["quit"], true);
  EXPECT_TRUE(f.session.quit_requested());
}

// The client has gone: CancelAll answers everything in flight.
TEST(Dispatch, CancelAllAnswersEveryRequest) {
  Fixture f;
  f.Protocol3();
  f.Send(LongHint(1));
  f.Send(LongHint(2));
  f.dispatcher.CancelAll("cancelled: the client has gone");
  ASSERT_TRUE(f.lines.WaitFor([](const auto& l) { return Answered(l, 1) && Answered(l, 2); },
                              std::chrono::seconds(5)));
  for (int id : {1, 2}) EXPECT_EQ(ReplyTo(f.lines.all(), id)["error"]["code"], "cancelled");
  EXPECT_EQ(f.dispatcher.in_flight(), 0u);
}

// A door without a dispatcher (HandleLine: penk_request, the fuzzers) says
// it speaks protocol 2 only.
TEST(Dispatch, HandleLineAloneSpeaksProtocol2) {
  Session s(CheapTables());
  const json r = json::parse(HandleLine(s, R"({"id":1,"cmd":"hello","protocol":3})"));
  EXPECT_EQ(r["error"]["code"], "bad_field") << r;
  EXPECT_NE(r["error"]["message"].get<std::string>().find("protocol 2 only"), std::string::npos);
  EXPECT_EQ(json::parse(HandleLine(s, R"({"id":1,"cmd":"hello","protocol":2})"))["result"]["protocol"], 2);
}

}  // namespace
}  // namespace penk::protocol
