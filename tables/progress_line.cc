#include "tables/progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"

namespace penk {

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

void ProgressLine::Update(int64_t done, int64_t total, const std::string& extra) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
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
  finished_ = end;
}

}  // namespace penk
