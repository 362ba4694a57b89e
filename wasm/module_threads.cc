// The engine protocol in WebAssembly with threads (issue 23 item 3): the
// whole protocol, 3 included -- requests side by side, replies in completion
// order, cancel, progress, time_ms -- through the same Dispatcher as `penk
// engine` (protocol/dispatch.h), on wasm threads (SharedArrayBuffer).
//
// Node has them with no condition; a browser only on a cross-origin isolated
// page (COOP/COEP headers), so the static site keeps the one-thread module
// (wasm/module.cc, protocol 2). wasm/penk_engine_threads.mjs wraps this one.
//
// Why an engine thread: JavaScript's main thread must never block. It owns
// the module's files (every file call of another thread is run there) and
// starts the Web Workers (Node worker threads) behind new threads; a
// protocol 2 request waits for its answer, and a request thread waiting for
// a file or a worker while the main thread waits for it would never end. So
// the main thread only hands request lines to an inbox and returns; the
// engine thread reads them as `penk engine` reads standard input
// (tools/cmd_engine.cc) and submits them; replies and progress messages come
// back to the main thread through an outbox, in the order emitted.
#include <emscripten/emscripten.h>
#include <emscripten/threading.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "protocol/dispatch.h"
#include "protocol/protocol.h"
#include "wasm/engine_options.h"

// Hands one line to the JavaScript around the module (wasm/penk_engine_threads.mjs
// sets Module.penkLine): a reply (`reply` 1) or a progress message (0).
EM_JS(void, PenkLine, (void* engine, const char* line, int reply), {
  if (Module["penkLine"]) Module["penkLine"](engine, UTF8ToString(line), reply);
});

// Tells it the engine has ended: every request answered, the engine's
// threads joined, its memory freed (the handle means nothing now).
EM_JS(void, PenkEnded, (void* engine), {
  if (Module["penkEnded"]) Module["penkEnded"](engine);
});

namespace {

class ThreadedEngine {
 public:
  explicit ThreadedEngine(penk::protocol::SessionOptions options) : session_(std::move(options)) {
    thread_ = std::thread([this] { Run(); });
  }
  ~ThreadedEngine() {
    if (thread_.joinable()) thread_.join();
  }

  // A request line, in the order received (main thread; never blocks for
  // longer than a lock).
  void Submit(std::string line) {
    {
      std::lock_guard<std::mutex> lock(inbox_mutex_);
      if (closing_) return;
      inbox_.push_back(std::move(line));
    }
    inbox_changed_.notify_one();
  }

  // No more requests: once those received are answered, the engine ends
  // and frees itself (PenkEnded).
  void Close() {
    {
      std::lock_guard<std::mutex> lock(inbox_mutex_);
      closing_ = true;
    }
    inbox_changed_.notify_one();
  }

  bool quit_requested() const { return session_.quit_requested(); }

  // Main thread: every line emitted so far, to JavaScript, in order.
  void Deliver() {
    for (;;) {
      std::pair<std::string, int> next;
      {
        std::lock_guard<std::mutex> lock(outbox_mutex_);
        if (outbox_.empty()) return;
        next = std::move(outbox_.front());
        outbox_.pop_front();
      }
      if (next.second < 0) {
        ended_ = true;
      } else {
        PenkLine(this, next.first.c_str(), next.second);
      }
    }
  }

 private:
  // Main thread. The engine frees itself once its end is delivered and no
  // delivery it asked for is still to run (each may find the outbox empty:
  // an earlier one took its lines); JavaScript learns of it after that.
  static void DeliverOnMain(void* p) {
    auto* engine = static_cast<ThreadedEngine*>(p);
    engine->Deliver();
    if (engine->deliveries_.fetch_sub(1) == 1 && engine->ended_) {
      delete engine;  // joins the engine thread, which has emitted its last line
      PenkEnded(p);
    }
  }

  // Any thread but the main one (the dispatcher's lock orders the calls).
  void Emit(std::string line, int reply) {
    {
      std::lock_guard<std::mutex> lock(outbox_mutex_);
      outbox_.emplace_back(std::move(line), reply);
    }
    deliveries_.fetch_add(1);
    emscripten_async_run_in_main_runtime_thread(EM_FUNC_SIG_VI, &ThreadedEngine::DeliverOnMain, this);
  }

  // The engine thread: `penk engine`'s loop over the inbox.
  void Run() {
    {
      penk::protocol::Dispatcher dispatcher(
          session_, [this](const std::string& line, bool reply) { Emit(line, reply ? 1 : 0); });
      for (;;) {
        std::string line;
        {
          std::unique_lock<std::mutex> lock(inbox_mutex_);
          inbox_changed_.wait(lock, [&] { return closing_ || !inbox_.empty(); });
          if (inbox_.empty() || session_.quit_requested()) break;
          line = std::move(inbox_.front());
          inbox_.pop_front();
        }
        dispatcher.Submit(line);
      }
      {
        std::lock_guard<std::mutex> lock(inbox_mutex_);
        closing_ = true;  // after a quit, lines still coming are not read
        inbox_.clear();
      }
      dispatcher.Drain();
    }  // the dispatcher's threads have ended
    Emit("", -1);  // the end, after every line: the main thread frees the engine
  }

  penk::protocol::Session session_;
  std::mutex inbox_mutex_;
  std::condition_variable inbox_changed_;
  std::deque<std::string> inbox_;
  bool closing_ = false;
  std::mutex outbox_mutex_;
  std::deque<std::pair<std::string, int>> outbox_;
  std::atomic<int> deliveries_{0};  // asked of the main thread, not yet run
  bool ended_ = false;              // main thread: the end was delivered
  std::thread thread_;  // last: started once the rest is made
};

}  // namespace

extern "C" {

// A new engine (the arguments of penk_wasm_open, wasm/engine_options.h), its
// lines to Module.penkLine; nullptr if it cannot be made.
EMSCRIPTEN_KEEPALIVE ThreadedEngine* penk_wasm_threads_open(const char* table_dir, int build,
                                                           int disk_budget_mb, int table_cache_mb) {
  try {
    return new ThreadedEngine(penk::wasm::EngineOptions(table_dir, build, disk_budget_mb, table_cache_mb));
  } catch (const std::exception&) {
    return nullptr;
  }
}

// One request line (copied); its reply comes through Module.penkLine.
EMSCRIPTEN_KEEPALIVE void penk_wasm_threads_submit(ThreadedEngine* engine, const char* line) {
  engine->Submit(line ? line : "");
}

// Whether a request asked the engine to quit ({"cmd":"quit"}, answered).
EMSCRIPTEN_KEEPALIVE int penk_wasm_threads_quit_requested(ThreadedEngine* engine) {
  return engine->quit_requested() ? 1 : 0;
}

// No more requests: once every one is answered the engine frees itself and
// calls Module.penkEnded (the handle is then not to be used).
EMSCRIPTEN_KEEPALIVE void penk_wasm_threads_close(ThreadedEngine* engine) { engine->Close(); }

}  // extern "C"
