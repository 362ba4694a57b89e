// Requests in flight (protocol 3, issue 22; docs/PROTOCOL.md "Requests in
// flight"): the one way every door -- `penk engine`, libpenk's penk_submit,
// the WebSocket of `penk serve` -- runs a session's requests.
//
// A client that has said hello with "protocol":3 may send requests without
// waiting: each runs on a thread of its own (at most `max_in_flight` at
// once), replies carry their request's id and come in completion order.
// Requests naming the same game run one after another in the order sent
// (a game is one line of play); the others -- a hello, a hint by position, a
// hint on another game -- do not wait for them. Until then (protocol 2) a
// request is answered before the next is read, exactly as HandleLine does.
//
// In both, a request may carry "time_ms" (the whole request is answered by
// then, table loads included: work that cannot stop in time -- a table
// build -- is answered time_out and goes on in the background for the next
// request) and "progress_ms" (progress messages {"id","progress":{"done",
// "total","what"}} at most that often while it runs). {"cmd":"cancel",
// "target":ID} stops a request in flight: it answers `cancelled`, with its
// partial result where one means something (a hint's rollouts).
//
// The dispatcher owns no game: it runs the session's requests (the session
// must outlive it). The session's own cancel flag (SessionOptions::cancel:
// the server's client has gone) stops everything in flight, as CancelAll.
// Its destructor cancels what is in flight and waits for every thread it
// started.
#ifndef PENK_PROTOCOL_DISPATCH_H_
#define PENK_PROTOCOL_DISPATCH_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "protocol/session.h"

namespace penk::protocol {

struct DispatchLimits {
  // Requests queued or running at once (protocol 3); one more is answered
  // `limit`. A cancelled or timed-out request still finishing its table
  // build counts until it ends, so cancelling never buys more threads.
  size_t max_in_flight = 16;
  // A stopped request (cancel, time_ms) whose work has not ended by then is
  // answered anyway; its work goes on in the background.
  std::chrono::milliseconds grace{250};
};

class Dispatcher {
 public:
  // `emit` writes one line (no newline): a request's reply (`reply` true:
  // each request gets exactly one) or a progress message. It is called by
  // one thread at a time, from the dispatcher's threads and Submit's caller.
  using Emit = std::function<void(const std::string& line, bool reply)>;
  Dispatcher(Session& session, Emit emit, DispatchLimits limits = {});
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // One request line. Protocol 2: returns once it is answered. Protocol 3:
  // returns at once (hello, cancel and refusals are answered before).
  // `sink`, if set, takes this request's reply instead of `emit` (its
  // progress messages are then not sent).
  using Sink = std::function<void(const std::string& reply)>;
  void Submit(absl::string_view line, Sink sink = nullptr);
  // One request answered to the caller, in either protocol: its reply line,
  // once it is answered (libpenk's penk_request). Requests on the same game
  // still run in the order sent.
  std::string Call(absl::string_view line);
  // Stops every request in flight (the client has gone, the server stops):
  // each answers `cancelled` with `why`.
  void CancelAll(const std::string& why);
  // Waits until every request is answered and its work has ended.
  void Drain();
  // Requests not yet answered (tests, the server's bounds).
  size_t in_flight() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Job;
  void Start(const std::shared_ptr<Job>& job);       // mutex_ held
  void Run(std::shared_ptr<Job> job);                 // on the job's thread
  void Answer(Job& job, const nlohmann::ordered_json& reply);  // mutex_ held
  void Watch();                                       // the watcher thread
  void Stop(Job& job, int why, const std::string& text);  // mutex_ held
  void Cancel(const nlohmann::ordered_json& request, const Sink& sink);
  void Quit(const nlohmann::ordered_json& request, const Sink& sink);
  void Send(const nlohmann::ordered_json& reply, const Sink& sink);  // mutex_ held

  Session& session_;
  Emit emit_;
  DispatchLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::list<std::shared_ptr<Job>> jobs_;  // not yet ended (answered or not)
  std::map<int, std::deque<std::shared_ptr<Job>>> waiting_;  // per game, behind its running request
  std::map<int, bool> game_busy_;
  size_t threads_ = 0;  // job threads not yet ended
  bool stopping_ = false;
  std::thread watcher_;
};

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_DISPATCH_H_
