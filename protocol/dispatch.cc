#include "protocol/dispatch.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "protocol/protocol.h"
#include "solver/work_progress.h"

namespace penk::protocol {

using json = nlohmann::ordered_json;

namespace {

// Why a job was stopped before its work ended.
enum Why { kRunning = 0, kCancelRequest, kTimeUp, kCancelAll };

// The work's own time bound (rollouts stop at the deadline and answer with
// what they played) gets this head start before the dispatcher stops it.
constexpr std::chrono::milliseconds kHeadStart{50};
// How often the watcher looks at deadlines, stops and progress.
constexpr std::chrono::milliseconds kTick{10};

bool IsErrorCode(const json& reply, ErrorCode code) {
  return reply.contains("error") && reply["error"]["code"] == ErrorCodeName(code);
}

}  // namespace

struct Dispatcher::Job {
  json request;
  json id;
  std::optional<int> game;  // requests naming a game run in the order sent
  std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
  std::optional<Clock::time_point> deadline;
  int64_t time_ms = 0;
  int64_t progress_ms = 0;
  WorkProgress progress;
  uint64_t progress_sent = 0;  // the version last sent
  Clock::time_point progress_at{};
  Dispatcher::Sink sink;  // set: the reply goes there (Call), no progress is sent
  int why = kRunning;
  std::string why_text;
  Clock::time_point stopped_at{};
  bool started = false;
  bool answered = false;
};

Dispatcher::Dispatcher(Session& session, Emit emit, DispatchLimits limits)
    : session_(session), emit_(std::move(emit)), limits_(limits) {
  session_.set_max_protocol(kLatestProtocol);
  watcher_ = std::thread([this] { Watch(); });
}

Dispatcher::~Dispatcher() {
  CancelAll("cancelled: the session is ending");
  Drain();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  watcher_.join();
}

size_t Dispatcher::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& job : jobs_) n += !job->answered;
  return n;
}

void Dispatcher::Send(const json& reply, const Sink& sink) {
  if (sink) {
    sink(ReplyLine(reply));
  } else {
    emit_(ReplyLine(reply), true);
  }
}

std::string Dispatcher::Call(absl::string_view line) {
  std::mutex m;
  std::condition_variable done;
  std::optional<std::string> reply;
  Submit(line, [&](const std::string& r) {
    std::lock_guard<std::mutex> lock(m);
    reply = r;
    done.notify_all();
  });
  std::unique_lock<std::mutex> lock(m);
  done.wait(lock, [&] { return reply.has_value(); });
  return *reply;
}

void Dispatcher::Submit(absl::string_view line, Sink sink) {
  json request, error;
  if (!ParseRequestLine(line, request, error)) {
    std::lock_guard<std::mutex> lock(mutex_);
    Send(error, sink);
    return;
  }
  const std::string cmd = request["cmd"].get<std::string>();
  if (cmd == "cancel") return Cancel(request, sink);
  if (cmd == "quit") return Quit(request, sink);
  const json id = request.contains("id") ? request["id"] : json(nullptr);
  // A caller waiting for this one reply (Call) sees protocol 2's rules.
  const bool concurrent = session_.protocol() >= 3 && !sink;
  const int64_t time_ms = EveryRequestField(request, "time_ms", 1, kMaxRequestTimeMs);
  const int64_t progress_ms = EveryRequestField(request, "progress_ms", kMinProgressMs, kMaxRequestTimeMs);
  std::unique_lock<std::mutex> lock(mutex_);
  // hello is answered at once in both protocols (it may change the
  // protocol); so is any request of protocol 2 that asks for nothing the
  // dispatcher gives, when no earlier request is still at work (it may be on
  // the same game): exactly HandleLine.
  if (cmd == "hello" || (!concurrent && time_ms == 0 && progress_ms == 0 && jobs_.empty())) {
    lock.unlock();
    RequestWork work;
    work.cancel = session_.options().cancel;
    const json reply = HandleRequest(session_, request, work);
    lock.lock();
    Send(reply, sink);
    return;
  }
  if (concurrent) {
    if (id.is_null()) {
      Send(ErrorReply(id, ErrorCode::kBadField,
                      "protocol 3: every request carries an \"id\" (a string or an "
                      "integer) so that its reply can be told from the others"),
           sink);
      return;
    }
    for (const auto& job : jobs_)
      if (!job->answered && job->id == id) {
        Send(ErrorReply(id, ErrorCode::kBadField,
                        absl::StrCat("a request with id ", id.dump(),
                                     " is in flight; ids in flight must differ")),
             sink);
        return;
      }
  }
  // In protocol 2 too: requests answered time_out whose table builds still
  // run count, so that a client cannot pile up threads one request at a time.
  if (jobs_.size() >= limits_.max_in_flight) {
    Send(ErrorReply(id, ErrorCode::kLimit,
                    absl::StrCat("at most ", limits_.max_in_flight,
                                 " requests in flight (cancelled or timed-out ones count until "
                                 "their work ends); wait for a reply first")),
         sink);
    return;
  }
  auto job = std::make_shared<Job>();
  job->request = std::move(request);
  job->id = id;
  job->time_ms = time_ms;
  job->progress_ms = sink ? 0 : progress_ms;
  job->sink = std::move(sink);
  if (time_ms > 0) job->deadline = Clock::now() + std::chrono::milliseconds(time_ms);
  if (cmd != "new_game" && job->request.contains("game") && job->request["game"].is_number_integer()) {
    const int64_t g = EveryRequestField(job->request, "game", 1, INT32_MAX);
    if (g > 0) job->game = static_cast<int>(g);
  }
  jobs_.push_back(job);
  if (job->game && game_busy_.count(*job->game)) {
    waiting_[*job->game].push_back(job);
  } else {
    Start(job);
  }
  if (!concurrent) changed_.wait(lock, [&] { return job->answered; });
}

void Dispatcher::Start(const std::shared_ptr<Job>& job) {
  if (job->game) game_busy_[*job->game] = true;
  job->started = true;
  job->progress_at = Clock::now();
  try {
    ++threads_;
    std::thread([this, job] { Run(job); }).detach();
  } catch (const std::system_error& e) {
    --threads_;
    Answer(*job, ErrorReply(job->id, ErrorCode::kInternal,
                            absl::StrCat("cannot start a thread for the request: ", e.what())));
    jobs_.remove(job);
    if (job->game) game_busy_.erase(*job->game);
  }
}

void Dispatcher::Run(std::shared_ptr<Job> job) {
  json reply;
  {
    WorkProgressScope scope(&job->progress);
    RequestWork work;
    work.cancel = job->cancel;
    work.deadline = job->deadline;
    work.progress = &job->progress;
    reply = HandleRequest(session_, job->request, work);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!job->answered) {
    // Stopped from here: the work says it was cancelled, the reply says
    // why (a cancel request, the client gone, or time_ms: time_out).
    if (job->why != kRunning && IsErrorCode(reply, ErrorCode::kCancelled)) {
      json partial = reply["error"].contains("partial") ? reply["error"]["partial"] : json(nullptr);
      reply = ErrorReply(job->id, job->why == kTimeUp ? ErrorCode::kTimeOut : ErrorCode::kCancelled,
                         job->why_text);
      if (!partial.is_null()) reply["error"]["partial"] = partial;
    }
    Answer(*job, reply);
  }
  jobs_.remove(job);
  if (job->game) {
    auto w = waiting_.find(*job->game);
    if (w != waiting_.end() && !w->second.empty()) {
      std::shared_ptr<Job> next = w->second.front();
      w->second.pop_front();
      if (w->second.empty()) waiting_.erase(w);
      Start(next);
    } else {
      game_busy_.erase(*job->game);
    }
  }
  --threads_;
  changed_.notify_all();
}

void Dispatcher::Answer(Job& job, const json& reply) {
  job.answered = true;
  Send(reply, job.sink);
  changed_.notify_all();
}

void Dispatcher::Stop(Job& job, int why, const std::string& text) {
  if (job.answered || job.why != kRunning) return;
  job.why = why;
  job.why_text = text;
  job.stopped_at = Clock::now();
  job.cancel->store(true);
  if (!job.started) {  // waiting behind its game's request: nothing to stop
    Answer(job, ErrorReply(job.id, why == kTimeUp ? ErrorCode::kTimeOut : ErrorCode::kCancelled,
                           text));
    for (auto& [game, queue] : waiting_)
      queue.erase(std::remove_if(queue.begin(), queue.end(),
                                 [&](const std::shared_ptr<Job>& j) { return j.get() == &job; }),
                  queue.end());
    jobs_.remove_if([&](const std::shared_ptr<Job>& j) { return j.get() == &job; });
  }
}

void Dispatcher::Watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    changed_.wait_for(lock, kTick);
    const Clock::time_point now = Clock::now();
    const bool session_cancelled = IsCancelled(session_.options().cancel);
    // Stop may drop a waiting job from jobs_: walk a copy.
    const std::list<std::shared_ptr<Job>> jobs = jobs_;
    for (const std::shared_ptr<Job>& job : jobs) {
      if (job->answered) continue;
      if (session_cancelled)
        Stop(*job, kCancelAll, "cancelled: the client has gone or the server is stopping");
      if (job->answered) continue;
      if (job->deadline && job->why == kRunning && now >= *job->deadline + kHeadStart)
        Stop(*job, kTimeUp,
             absl::StrCat("time_ms ", job->time_ms, " ran out before the request could answer"));
      if (job->answered) continue;
      if (job->why != kRunning && now >= job->stopped_at + limits_.grace) {
        // The work did not stop in time (a table build does not look at the
        // flag): answered now; the work ends in the background and its table
        // stays for the next request.
        const WorkProgress::Snapshot at = job->progress.Read();
        std::string text = job->why_text;
        if (!at.what.empty())
          absl::StrAppend(&text, "; it was ", at.what,
                          " (that goes on in the background, for the next request)");
        Answer(*job, ErrorReply(job->id,
                                job->why == kTimeUp ? ErrorCode::kTimeOut : ErrorCode::kCancelled,
                                text));
        continue;
      }
      if (job->progress_ms > 0 && job->started && job->why == kRunning &&
          now - job->progress_at >= std::chrono::milliseconds(job->progress_ms)) {
        const WorkProgress::Snapshot at = job->progress.Read();
        if (at.version == job->progress_sent) continue;  // nothing new to say
        job->progress_sent = at.version;
        job->progress_at = now;
        emit_(ReplyLine(ProgressJson(job->id, at)), false);
      }
    }
  }
}

void Dispatcher::Cancel(const json& request, const Sink& sink) {
  // A malformed cancel is answered as any request (CmdCancel's checks).
  json reply = HandleRequest(session_, request, RequestWork{});
  std::lock_guard<std::mutex> lock(mutex_);
  if (reply.contains("error")) {
    Send(reply, sink);
    return;
  }
  const json& target = request["target"];
  std::shared_ptr<Job> found;
  for (const auto& job : jobs_)
    if (!job->answered && job->why == kRunning && job->id == target) found = job;
  reply["result"]["running"] = found != nullptr;
  Send(reply, sink);  // the cancel's reply first, then the target's
  if (found)
    Stop(*found, kCancelRequest,
         absl::StrCat("cancelled by request ",
                      request.contains("id") ? request["id"].dump() : std::string("null")));
}

void Dispatcher::CancelAll(const std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::list<std::shared_ptr<Job>> jobs = jobs_;
  for (const auto& job : jobs) Stop(*job, kCancelAll, why);
}

void Dispatcher::Quit(const json& request, const Sink& sink) {
  json reply = HandleRequest(session_, request, RequestWork{});
  if (reply.contains("error")) {  // e.g. a field quit does not take: nothing quits
    std::lock_guard<std::mutex> lock(mutex_);
    Send(reply, sink);
    return;
  }
  // Every request in flight is answered (cancelled) before the quit.
  CancelAll("cancelled: the session is quitting");
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] {
    return std::all_of(jobs_.begin(), jobs_.end(), [](const auto& j) { return j->answered; });
  });
  Send(reply, sink);
}

void Dispatcher::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.empty() && threads_ == 0; });
}

}  // namespace penk::protocol
