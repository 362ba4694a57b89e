// One block of independent games on OpenMP threads, the loop of `penk match`
// (deals) and `penk calibrate` (games): play(first + i) for i in [0, count),
// each result into out[i], so that the caller folds them in order and the
// result does not depend on the thread count. The first failure stops the
// rest of the block and is returned (InternalError with its message); play
// must not throw (the players' TableUnavailable is caught inside it).
#ifndef PENK_AI_PARALLEL_BLOCK_H_
#define PENK_AI_PARALLEL_BLOCK_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace penk {

template <class T, class Play>
absl::Status PlayBlock(int threads, int64_t first, int64_t count, std::vector<T>& out, Play play) {
  std::mutex mutex;
  std::string error;
  std::atomic<bool> failed{false};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int64_t i = 0; i < count; ++i) {
    if (failed.load(std::memory_order_relaxed)) continue;
    absl::StatusOr<T> r = play(first + i);
    if (r.ok()) {
      out[i] = *std::move(r);
    } else {
      std::lock_guard<std::mutex> lock(mutex);
      if (error.empty()) error = std::string(r.status().message());
      failed = true;
    }
  }
  if (failed) return absl::InternalError(error);
  return absl::OkStatus();
}

}  // namespace penk

#endif  // PENK_AI_PARALLEL_BLOCK_H_
