// The one progress display (tables/progress_line.h, issue 24): in a log a
// line per tenth of the work and never a "\r"; on a terminal one line
// redrawn in place and ended once.
#include "tables/progress_line.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace penk {
namespace {

std::string Drawn(bool terminal, int64_t total) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line("spread table ", "positions", terminal, f);
    for (int64_t done = 0; done <= total; ++done) line.Update(done, total);
    line.Update(total, total);  // after the end: nothing more
  }
  std::rewind(f);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  std::fclose(f);
  return out;
}

TEST(ProgressLine, ALogGetsALinePerTenthAndNoCarriageReturn) {
  const std::string log = Drawn(false, 1000);
  EXPECT_EQ(log.find('\r'), std::string::npos);
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 11);  // 0%, 10%, ..., 100%
  EXPECT_NE(log.find("spread table [##############################] 100.0%  1000/1000 positions"),
            std::string::npos) << log;
}

TEST(ProgressLine, ATerminalGetsOneLineRedrawnAndEndedOnce) {
  const std::string tty = Drawn(true, 1000);
  EXPECT_EQ(tty.front(), '\r');
  EXPECT_EQ(std::count(tty.begin(), tty.end(), '\n'), 1);
  EXPECT_EQ(tty.back(), '\n');
  // At most two redraws a second: a fast run draws its first and last state.
  EXPECT_LE(std::count(tty.begin(), tty.end(), '\r'), 3);
}

TEST(ProgressLine, FormatSaysCountTimeAndWhatIsLeft) {
  EXPECT_EQ(ProgressLine::Format("", 250, 1000, "games", 10.0, "  LLR 1.000"),
            "[#######.......................]  25.0%  250/1000 games  10.0s, ~30s left  LLR 1.000");
}

}  // namespace
}  // namespace penk
