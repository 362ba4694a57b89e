// The one progress display of every long command (issue 24: five displays,
// three of which wrote "\r" into logs): a line on stderr with a bar, the
// count, the time so far and the time left. On a terminal it is redrawn in
// place at most twice a second; when stderr is a file or a pipe it prints a
// line at each tenth of the work and at the end, and never a "\r".
//
// Bars nest (issue 22 item 6: a table built in the middle of `penk
// simulate`): the inner bar draws on the outer's line until it ends, the
// outer's clock stops meanwhile, so its time left comes from the rate of its
// own work, not from the builds; and Message prints a line (the "building
// it" notice) above the bar instead of through it.
#ifndef PENK_TABLES_PROGRESS_LINE_H_
#define PENK_TABLES_PROGRESS_LINE_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace penk {

class ProgressLine {
 public:
  // `label` starts the line ("spread table ", "" ...), `unit` names what is
  // counted ("positions", "games", "deals"). `terminal`: redraw in place
  // (default: whether stderr is a terminal). `out`: stderr unless a test
  // gives another stream.
  ProgressLine(std::string label, std::string unit);
  ProgressLine(std::string label, std::string unit, bool terminal, std::FILE* out);

  // `done` of `total`, with `extra` after the count (e.g. an SPRT's LLR).
  // Thread-safe; cheap when nothing is drawn.
  void Update(int64_t done, int64_t total, const std::string& extra = "");

  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The text of a line (tests; what Update draws).
  static std::string Format(const std::string& label, int64_t done, int64_t total,
                            const std::string& unit, double seconds, const std::string& extra);

  // `text` as a line of its own on `out`, above the bar drawn there (which
  // is drawn again below it), or alone when none is.
  static void Message(std::FILE* out, const std::string& text);

 private:
  friend struct ProgressStack;
  // The seconds of this bar's own work: since its start, less the time an
  // inner bar ran (mutex_ held).
  double WorkSeconds(std::chrono::steady_clock::time_point now) const;
  std::string label_, unit_;
  bool terminal_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  double last_draw_ = -1;
  int last_tenth_ = -1;
  bool finished_ = false;
  bool stacked_ = false;  // on its stream's stack of bars
  double paused_seconds_ = 0;
  std::chrono::steady_clock::time_point paused_since_{};
  bool paused_ = false;
  std::string drawn_;  // the line as last drawn (redrawn after a Message)
};

}  // namespace penk

#endif  // PENK_TABLES_PROGRESS_LINE_H_
