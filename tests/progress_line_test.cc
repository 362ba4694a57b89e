// The one progress display (tables/progress_line.h, issue 24): in a log a
// line per tenth of the work and never a "\r"; on a terminal one line
// redrawn in place and ended once.
#include "tables/progress_line.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

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

std::string Read(std::FILE* f) {
  std::rewind(f);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  return out;
}

// Issue 22 item 6: a bar drawn inside another (a table built in the middle
// of a simulation) stops the outer bar's clock, so the outer's time and time
// left are those of its own work; the outer bar goes on after it.
TEST(ProgressLine, AnInnerBarStopsTheOuterClock) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine games("", "games", false, f);
    games.Update(0, 10);
    {
      ProgressLine build("", "positions", false, f);
      build.Update(0, 2);
      std::this_thread::sleep_for(std::chrono::milliseconds(600));
      build.Update(2, 2);
    }
    games.Update(5, 10);
  }
  const std::string log = Read(f);
  std::fclose(f);
  // The build's 0.6 s are its own, not the games' (a loaded machine may
  // sleep a little longer than asked: 0.6 to 0.9 s).
  EXPECT_TRUE(log.find("2/2 positions  0.6s") != std::string::npos ||
              log.find("2/2 positions  0.7s") != std::string::npos ||
              log.find("2/2 positions  0.8s") != std::string::npos ||
              log.find("2/2 positions  0.9s") != std::string::npos) << log;
  EXPECT_NE(log.find("5/10 games  0.0s, ~0s left"), std::string::npos) << log;
}

// A message (the "building it" notice) is a line above a terminal's bar,
// which is drawn again below it: the bar's line is not broken.
TEST(ProgressLine, AMessageGoesAboveTheBar) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine games("", "games", true, f);
    games.Update(3, 10);
    ProgressLine::Message(f, "penk: no table; building it");
    games.Update(10, 10);
  }
  ProgressLine::Message(f, "after");  // no bar: a plain line
  const std::string tty = Read(f);
  std::fclose(f);
  const std::string bar = ProgressLine::Format("", 3, 10, "games", 0.0, "");
  const size_t message = tty.find("\r\033[Kpenk: no table; building it\n\r");
  ASSERT_NE(message, std::string::npos) << tty;
  EXPECT_EQ(tty.compare(message + 33, 10, bar.substr(0, 10)), 0) << tty;
  EXPECT_EQ(tty.substr(tty.size() - 6), "after\n");
}

TEST(ProgressLine, FormatSaysCountTimeAndWhatIsLeft) {
  EXPECT_EQ(ProgressLine::Format("", 250, 1000, "games", 10.0, "  LLR 1.000"),
            "[#######.......................]  25.0%  250/1000 games  10.0s, ~30s left  LLR 1.000");
}

}  // namespace
}  // namespace penk
