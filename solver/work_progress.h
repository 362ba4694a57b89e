// What a long piece of work has done so far, for whoever watches it
// (issue 22: a protocol 3 request's progress messages; docs/PROTOCOL.md).
//
// The watcher owns a WorkProgress and reads snapshots of it from another
// thread; the work writes into it. Work that knows its watcher is given the
// pointer (rollouts, master); work deep below the request -- a table built
// by the TableCache because an AI player asked for it -- reports to the
// progress of the thread that runs it, set for the request's extent by a
// WorkProgressScope. That is per thread and per scope, never process-wide:
// without a scope nothing is reported and nothing is kept.
#ifndef PENK_SOLVER_WORK_PROGRESS_H_
#define PENK_SOLVER_WORK_PROGRESS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace penk {

class WorkProgress {
 public:
  struct Snapshot {
    std::string what;      // e.g. "building table line-min=3,penk-lines=all blocked=12"
    int64_t done = 0;      // units of `what` done
    int64_t total = 0;     // of this many (0: unknown)
    uint64_t version = 0;  // changes with every report: a watcher sends only news
  };
  // Told of every report, on the reporting thread, after it is recorded:
  // for a watcher that has no thread of its own to read from (the
  // one-thread WebAssembly engine, wasm/module.cc). Empty: nobody is told.
  using Listener = std::function<void(const Snapshot&)>;
  WorkProgress() = default;
  explicit WorkProgress(Listener listener) : listener_(std::move(listener)) {}

  // A new stage of the work.
  void Set(std::string what, int64_t done, int64_t total);
  // More of the current stage done.
  void Update(int64_t done, int64_t total);
  Snapshot Read() const;

 private:
  void Tell();
  mutable std::mutex mutex_;
  Snapshot now_;
  const Listener listener_;
};

// A passing stage of the work (a table loaded for it): reported while the
// stage lasts, then what was reported before comes back.
class WorkStage {
 public:
  WorkStage(WorkProgress* progress, std::string what);
  ~WorkStage();
  WorkStage(const WorkStage&) = delete;
  WorkStage& operator=(const WorkStage&) = delete;

 private:
  WorkProgress* progress_;
  WorkProgress::Snapshot before_;
};

// The progress the work of this thread reports to (null: none).
WorkProgress* CurrentWorkProgress();

// Makes `progress` the current thread's for the scope's extent (null: none),
// restoring the previous one after.
class WorkProgressScope {
 public:
  explicit WorkProgressScope(WorkProgress* progress);
  ~WorkProgressScope();
  WorkProgressScope(const WorkProgressScope&) = delete;
  WorkProgressScope& operator=(const WorkProgressScope&) = delete;

 private:
  WorkProgress* previous_;
};

}  // namespace penk

#endif  // PENK_SOLVER_WORK_PROGRESS_H_
