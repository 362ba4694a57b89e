#include "tables/progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"

namespace penk {

// The bars drawn on each stream, innermost last. Process-wide because the
// stream is: stderr's last line belongs to one bar at a time, whoever drew it.
struct ProgressStack {
  std::mutex mutex;
  std::map<std::FILE*, std::vector<ProgressLine*>> bars;

  static ProgressStack& Of() {
    static ProgressStack stack;
    return stack;
  }
  // `line` starts drawing on its stream (mutex held): the bar below it stops
  // its clock.
  void Push(ProgressLine* line, std::chrono::steady_clock::time_point now) {
    std::vector<ProgressLine*>& on = bars[line->out_];
    if (!on.empty()) {
      ProgressLine* outer = on.back();
      std::lock_guard<std::mutex> l(outer->mutex_);
      if (!outer->paused_) outer->paused_ = true, outer->paused_since_ = now;
    }
    on.push_back(line);
    line->stacked_ = true;
  }
  // `line` has ended (mutex held): the bar below it runs on.
  void Pop(ProgressLine* line, std::chrono::steady_clock::time_point now) {
    if (!line->stacked_) return;
    line->stacked_ = false;
    std::vector<ProgressLine*>& on = bars[line->out_];
    on.erase(std::remove(on.begin(), on.end(), line), on.end());
    if (!on.empty()) {
      ProgressLine* outer = on.back();
      std::lock_guard<std::mutex> l(outer->mutex_);
      if (outer->paused_) {
        outer->paused_ = false;
        outer->paused_seconds_ += std::chrono::duration<double>(now - outer->paused_since_).count();
      }
    }
    if (on.empty()) bars.erase(line->out_);
  }
};

ProgressLine::ProgressLine(std::string label, std::string unit)
    : ProgressLine(std::move(label), std::move(unit), isatty(2) != 0, stderr) {}

ProgressLine::ProgressLine(std::string label, std::string unit, bool terminal, std::FILE* out)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      terminal_(terminal),
      out_(out),
      start_(std::chrono::steady_clock::now()) {}

std::string ProgressLine::Format(const std::string& label, int64_t done, int64_t total,
                                 const std::string& unit, double seconds, const std::string& extra) {
  const int64_t whole = std::max<int64_t>(total, 1);
  const int permille = static_cast<int>(1000 * std::clamp<int64_t>(done, 0, whole) / whole);
  constexpr int kWidth = 30;
  const int filled = permille * kWidth / 1000;
  const double left = done > 0 ? seconds * static_cast<double>(total - done) / done : 0;
  return absl::StrFormat("%s[%s%s] %5.1f%%  %d/%d %s  %.1fs, ~%.0fs left%s", label,
                         std::string(filled, '#'), std::string(kWidth - filled, '.'),
                         permille / 10.0, done, total, unit, seconds, left, extra);
}

ProgressLine::~ProgressLine() {
  ProgressStack& stack = ProgressStack::Of();
  std::lock_guard<std::mutex> lock(stack.mutex);
  {
    std::lock_guard<std::mutex> own(mutex_);
    // A bar left unfinished (an error, a cancel) ends its line.
    if (stacked_ && terminal_ && !finished_ && !drawn_.empty()) {
      std::fputc('\n', out_);
      std::fflush(out_);
    }
  }
  stack.Pop(this, std::chrono::steady_clock::now());
}

double ProgressLine::WorkSeconds(std::chrono::steady_clock::time_point now) const {
  double paused = paused_seconds_;
  if (paused_) paused += std::chrono::duration<double>(now - paused_since_).count();
  return std::chrono::duration<double>(now - start_).count() - paused;
}

void ProgressLine::Message(std::FILE* out, const std::string& text) {
  ProgressStack& stack = ProgressStack::Of();
  std::lock_guard<std::mutex> lock(stack.mutex);
  auto it = stack.bars.find(out);
  ProgressLine* bar = it == stack.bars.end() || it->second.empty() ? nullptr : it->second.back();
  std::string redraw;
  bool terminal = false;
  if (bar) {
    std::lock_guard<std::mutex> own(bar->mutex_);
    terminal = bar->terminal_ && !bar->drawn_.empty() && !bar->finished_;
    redraw = bar->drawn_;
  }
  if (terminal) {  // over the bar's line, then the bar again below
    std::fprintf(out, "\r\033[K%s\n\r%s ", text.c_str(), redraw.c_str());
  } else {
    std::fprintf(out, "%s\n", text.c_str());
  }
  std::fflush(out);
}

void ProgressLine::Update(int64_t done, int64_t total, const std::string& extra) {
  ProgressStack& stack = ProgressStack::Of();
  std::lock_guard<std::mutex> stack_lock(stack.mutex);  // always before a bar's own
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return;
  }
  if (!stacked_) stack.Push(this, now);
  bool ended = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const double seconds = WorkSeconds(now);
    const bool end = done >= total;
    const int tenth = static_cast<int>(10 * std::min(done, total) / std::max<int64_t>(total, 1));
    if (terminal_) {
      if (!end && seconds < last_draw_ + 0.5) return;  // at most two redraws a second
    } else if (!end && tenth == last_tenth_) {
      return;  // a log gets a line per tenth of the work
    }
    last_draw_ = seconds;
    last_tenth_ = tenth;
    const std::string line = Format(label_, done, total, unit_, seconds, extra);
    std::fprintf(out_, terminal_ ? "\r%s%s" : "%s%s", line.c_str(),
                 terminal_ && !end ? " " : "\n");
    std::fflush(out_);
    drawn_ = line;
    finished_ = ended = end;
  }
  if (ended) stack.Pop(this, now);  // the bar below runs on
}

}  // namespace penk
