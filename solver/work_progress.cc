#include "solver/work_progress.h"

#include <utility>

namespace penk {

namespace {
// The one thread_local: the current request's progress on this thread,
// installed and removed by WorkProgressScope only.
thread_local WorkProgress* current_progress = nullptr;
}  // namespace

void WorkProgress::Set(std::string what, int64_t done, int64_t total) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    now_.what = std::move(what);
    now_.done = done;
    now_.total = total;
    ++now_.version;
  }
  Tell();
}

void WorkProgress::Update(int64_t done, int64_t total) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    now_.done = done;
    now_.total = total;
    ++now_.version;
  }
  Tell();
}

void WorkProgress::Tell() {
  if (listener_) listener_(Read());
}

WorkProgress::Snapshot WorkProgress::Read() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return now_;
}

WorkStage::WorkStage(WorkProgress* progress, std::string what) : progress_(progress) {
  if (!progress_) return;
  before_ = progress_->Read();
  // Said as part of what it serves: "rollouts of 3 candidates: loading table".
  progress_->Set(before_.what.empty() ? std::move(what) : before_.what + ": " + what, 0, 0);
}

WorkStage::~WorkStage() {
  if (progress_ && !before_.what.empty()) progress_->Set(before_.what, before_.done, before_.total);
}

WorkProgress* CurrentWorkProgress() { return current_progress; }

WorkProgressScope::WorkProgressScope(WorkProgress* progress) : previous_(current_progress) {
  current_progress = progress;
}

WorkProgressScope::~WorkProgressScope() { current_progress = previous_; }

}  // namespace penk
