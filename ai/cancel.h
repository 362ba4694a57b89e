// Cancelling long work from outside (issue 20 item 6): `penk serve` sets a
// connection's flag when its client has gone or the server is stopping, and
// the work that can take long (rollouts, master's decisions) looks at it
// between trials, so a closed connection stops costing CPU and its slot.
// A flag, not a global: each connection (each engine Session) has its own.
#ifndef PENK_AI_CANCEL_H_
#define PENK_AI_CANCEL_H_

#include <atomic>
#include <memory>
#include <stdexcept>

namespace penk {

// Set once, never cleared; null: the work cannot be cancelled.
using CancelFlag = std::shared_ptr<const std::atomic<bool>>;

inline bool IsCancelled(const CancelFlag& flag) {
  return flag != nullptr && flag->load(std::memory_order_relaxed);
}

// Thrown by a Player's Decide when its flag is set: the decision was
// abandoned, not made (the protocol answers `cancelled`).
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled: the client has gone or the server is stopping") {}
};

}  // namespace penk

#endif  // PENK_AI_CANCEL_H_
