// The one progress display of every long command (issue 24: five displays,
// three of which wrote "\r" into logs): a line on stderr with a bar, the
// count, the time so far and the time left. On a terminal it is redrawn in
// place at most twice a second; when stderr is a file or a pipe it prints a
// line at each tenth of the work and at the end, and never a "\r".
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

  // The text of a line (tests; what Update draws).
  static std::string Format(const std::string& label, int64_t done, int64_t total,
                            const std::string& unit, double seconds, const std::string& extra);

 private:
  std::string label_, unit_;
  bool terminal_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  double last_draw_ = -1;
  int last_tenth_ = -1;
  bool finished_ = false;
};

}  // namespace penk

#endif  // PENK_TABLES_PROGRESS_LINE_H_
