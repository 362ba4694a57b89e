// Sheets (R1.2, R1.3, R5.1, R7.3), scoring (R6) and rule variants (R4.3, R6.5).
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "engine/score.h"
#include "engine/sheet.h"
#include "gtest/gtest.h"

namespace penk {
namespace {

// A sheet as a 5x5 grid of characters, grid[k-1][v-1] for cell (v, k): the
// test's own model of R7.3, independent of the engine's bit layout.
using Grid = std::array<std::array<char, 5>, 5>;

std::string GridText(const Grid& g) {
  std::string s;
  for (int k = 0; k < 5; ++k) {
    if (k) s += '/';
    for (int v = 0; v < 5; ++v) s += g[k][v];
  }
  return s;
}

Grid RandomGrid(Rng& rng, int circle_percent, int cross_percent) {
  Grid g;
  for (auto& row : g)
    for (char& c : row) {
      int x = static_cast<int>(rng.Below(100));
      c = x < circle_percent ? 'o' : x < circle_percent + cross_percent ? 'x' : '.';
    }
  return g;
}

// R6.1-R6.3 written out directly on the grid.
int HandScore(const Grid& g, int line_min) {
  const int points[5] = {1, 2, 3, 5, 8};
  int total = 0;
  for (int k = 0; k < 5; ++k) {
    int c = 0;
    for (int v = 0; v < 5; ++v) c += g[k][v] == 'o';
    if (c >= line_min) total += c * points[k];
  }
  for (int v = 0; v < 5; ++v) {
    int c = 0, sum = 0;
    for (int k = 0; k < 5; ++k)
      if (g[k][v] == 'o') ++c, sum += points[k];
    if (c >= line_min) total += sum;
  }
  return total;
}

Sheet MustParse(const std::string& text) {
  absl::StatusOr<Sheet> s = ParseSheet(text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status();
  return s.ok() ? *s : Sheet{};
}

Rules WithLineMin(int n) {
  Rules r;
  r.line_min = n;
  return r;
}

TEST(SheetTest, EmptySheet) {
  Sheet s = MustParse("...../...../...../...../.....");
  EXPECT_EQ(s, Sheet{});
  EXPECT_EQ(s.FreeCount(), 25);
  EXPECT_EQ(s.ClosedColumns(), 0);
  EXPECT_EQ(FormatSheet(Sheet{}), "...../...../...../...../.....");
}

// R7.3: rows k = 1..5 in order, faces 1..5 within a row.
TEST(SheetTest, ParseReadsCellsRowByRow) {
  Rng rng(7);
  for (int t = 0; t < 500; ++t) {
    Grid g = RandomGrid(rng, 35, 30);
    std::string text = GridText(g);
    Sheet s = MustParse(text);
    for (int k = 1; k <= 5; ++k)
      for (int v = 1; v <= 5; ++v) {
        char c = g[k - 1][v - 1];
        EXPECT_EQ(s.IsFree(v, k), c == '.') << text << " cell " << v << ":" << k;
        EXPECT_EQ((s.circled & CellBit(v, k)) != 0, c == 'o') << text;
        EXPECT_EQ((s.crossed & CellBit(v, k)) != 0, c == 'x') << text;
      }
    EXPECT_EQ(s.circled & s.crossed, 0u);
    EXPECT_EQ(FormatSheet(s), text);
    // Closed columns counted by hand (R5.1).
    int closed = 0;
    for (int v = 0; v < 5; ++v) {
      bool any_free = false;
      for (int k = 0; k < 5; ++k) any_free |= g[k][v] == '.';
      EXPECT_EQ(s.ColumnClosed(v + 1), !any_free) << text;
      closed += !any_free;
    }
    EXPECT_EQ(s.ClosedColumns(), closed) << text;
  }
}

TEST(SheetTest, ParseSpecificCells) {
  // Cell (v=2, k=1) circled, cell (v=5, k=4) crossed.
  Sheet s = MustParse(".o.../...../...../....x/.....");
  EXPECT_EQ(s.circled, CellBit(2, 1));
  EXPECT_EQ(s.crossed, CellBit(5, 4));
  EXPECT_FALSE(s.IsFree(2, 1));
  EXPECT_FALSE(s.IsFree(5, 4));
  EXPECT_TRUE(s.IsFree(1, 2));
  EXPECT_EQ(s.FreeCount(), 23);
}

TEST(SheetTest, MalformedSheetsAreRefused) {
  for (const char* bad : {"", "ooo.o/..o.x/....x/..o.x", "ooo.o/..o.x/....x/..o.x/....x/.....",
                          "ooo.o/..o.x/....x/..o.x/....", "ooo.o/..o.x/....x/..o.x/....xx",
                          "ooo.o/..o.x/....x/..o.x/....x/", "/ooo.o/..o.x/....x/..o.x/....x",
                          "ooo.o//..o.x/....x/..o.x/....x", "ooo.o/..o.x/....x/..o.x/....q",
                          "ooo.o/..o.x/....x/..o.x....x/", "ooooooooooooooooooooooooo",
                          "ooo.o/..o.x/....x/..ox/.....x", "ooo.o|..o.x|....x|..o.x|....x",
                          "ooo.o/..o.x/...-x/..o.x/....x"}) {
    absl::StatusOr<Sheet> s = ParseSheet(bad);
    ASSERT_FALSE(s.ok()) << "\"" << bad << "\" accepted as " << FormatSheet(*s);
    std::string msg(s.status().message());
    EXPECT_NE(msg.find(std::string("\"") + bad + "\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("sheet"), std::string::npos) << msg;
  }
}

// E3: row 1 has 4 circled (4), column 3 rows 1, 2, 4 (1 + 2 + 5 = 8).
TEST(ScoreTest, ExampleE3) {
  Sheet s = MustParse("ooo.o/..o.x/....x/..o.x/....x");
  ScoreBreakdown b = ScoreSheet(s, Rules{});
  EXPECT_EQ(b.total, 12);
  EXPECT_EQ(Score(s, Rules{}), 12);
  EXPECT_EQ(b.row[0], 4);
  EXPECT_EQ(b.column[2], 8);
  for (int k = 2; k <= 5; ++k) EXPECT_EQ(b.row[k - 1], 0) << "row " << k;
  for (int v : {1, 2, 4, 5}) EXPECT_EQ(b.column[v - 1], 0) << "column " << v;
}

// E4: one row PENK (row 1), no closed column, score 5.
TEST(ScoreTest, ExampleE4) {
  Sheet s = MustParse("ooooo/...../...../...../.....");
  EXPECT_EQ(Score(s, Rules{}), 5);
  for (int v = 1; v <= 5; ++v) EXPECT_FALSE(s.IsFree(v, 1));
  EXPECT_EQ(s.ClosedColumns(), 0);
  // Circling the last cell of row 1 makes PENK on row 1 and on no column (R4.1).
  Sheet before = MustParse("oo.oo/...../...../...../.....");
  uint32_t rows = 99, columns = 99;
  CompletedLines(before, CellBit(3, 1), Rules{}, &rows, &columns);
  EXPECT_EQ(rows, 1u);
  EXPECT_EQ(columns, 0u);
  // R4.3: under penk-lines=columns the row does not count.
  Rules cols;
  cols.penk_rows = false;
  CompletedLines(before, CellBit(3, 1), cols, &rows, &columns);
  EXPECT_EQ(rows, 0u);
  EXPECT_EQ(columns, 0u);
}

TEST(ScoreTest, CompletedLinesNeedsTheMarkingToCircleTheLastCell) {
  // Column 2 complete except (2,5); row 5 complete except (2,5).
  Sheet before = MustParse(".o.../.o.../.o.../.o.../o.ooo");
  uint32_t rows, columns;
  CompletedLines(before, CellBit(2, 5), Rules{}, &rows, &columns);
  EXPECT_EQ(rows, 1u << 4);
  EXPECT_EQ(columns, 1u << 1);
  // A line already complete before is not completed again.
  Sheet full_row = MustParse("ooooo/...../...../...../.....");
  CompletedLines(full_row, CellBit(1, 2), Rules{}, &rows, &columns);
  EXPECT_EQ(rows, 0u);
  EXPECT_EQ(columns, 0u);
  // A crossed cell blocks the line for good.
  Sheet crossed = MustParse("oooox/...../...../...../.....");
  CompletedLines(crossed, CellBit(1, 2), Rules{}, &rows, &columns);
  EXPECT_EQ(rows, 0u);
}

// E5: columns 1 and 2 closed.
TEST(ScoreTest, ExampleE5) {
  Sheet s = MustParse("xo.../xo.../xo.../oo.../xo...");
  EXPECT_EQ(s.ClosedColumns(), 2);
  EXPECT_TRUE(s.ColumnClosed(1));
  EXPECT_TRUE(s.ColumnClosed(2));
  EXPECT_FALSE(s.ColumnClosed(3));
  EXPECT_FALSE(s.ColumnClosed(4));
  EXPECT_FALSE(s.ColumnClosed(5));
}

TEST(ScoreTest, MaximumIs190ForEveryLineMin) {
  Sheet all = MustParse("ooooo/ooooo/ooooo/ooooo/ooooo");
  EXPECT_EQ(kMaxScore, 190);
  for (int n = 1; n <= 5; ++n) EXPECT_EQ(Score(all, WithLineMin(n)), 190) << "line-min=" << n;
  Rules cols;
  cols.penk_rows = false;
  EXPECT_EQ(Score(all, cols), 190);
  Sheet crossed = MustParse("xxxxx/xxxxx/xxxxx/xxxxx/xxxxx");
  for (int n = 1; n <= 5; ++n) EXPECT_EQ(Score(crossed, WithLineMin(n)), 0);
  for (int n = 1; n <= 5; ++n) EXPECT_EQ(Score(Sheet{}, WithLineMin(n)), 0);
}

TEST(ScoreTest, HandCheckedLineMinValues) {
  // One circled cell (5,5): row 5 worth 8, column 5 worth 8.
  Sheet one = MustParse("...../...../...../...../....o");
  EXPECT_EQ(Score(one, WithLineMin(1)), 16);
  EXPECT_EQ(Score(one, WithLineMin(2)), 0);
  // E3 at line-min=1: rows 4*1 + 1*2 + 1*5 = 11; columns 1+1+(1+2+5)+1 = 11.
  Sheet e3 = MustParse("ooo.o/..o.x/....x/..o.x/....x");
  EXPECT_EQ(Score(e3, WithLineMin(1)), 22);
  EXPECT_EQ(Score(e3, WithLineMin(4)), 4);
  EXPECT_EQ(Score(e3, WithLineMin(5)), 0);
}

// R6.5: every threshold, random sheets, against the hand-written count.
TEST(ScoreTest, RandomSheetsMatchHandCountForEveryLineMin) {
  Rng rng(2024);
  for (int t = 0; t < 3000; ++t) {
    Grid g = RandomGrid(rng, 20 + static_cast<int>(rng.Below(70)), 10);
    Sheet s = MustParse(GridText(g));
    for (int n = 1; n <= 5; ++n) {
      int expect = HandScore(g, n);
      ASSERT_EQ(Score(s, WithLineMin(n)), expect) << GridText(g) << " line-min=" << n;
      ASSERT_GE(expect, 0);
      ASSERT_LE(expect, 190);
      // The breakdown adds up.
      ScoreBreakdown b = ScoreSheet(s, WithLineMin(n));
      int sum = 0;
      for (int x : b.row) sum += x;
      for (int x : b.column) sum += x;
      ASSERT_EQ(sum, b.total);
    }
    // The PENK variant does not change scoring.
    Rules cols;
    cols.penk_rows = false;
    ASSERT_EQ(Score(s, cols), HandScore(g, 3));
  }
}

TEST(RulesTest, ParseAndFormat) {
  EXPECT_EQ(FormatRules(Rules{}), "line-min=3,penk-lines=all");
  absl::StatusOr<Rules> r = ParseRules("");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, Rules{});
  r = ParseRules("penk-lines=columns");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->penk_rows);
  EXPECT_EQ(r->line_min, 3);
  r = ParseRules("line-min=1,penk-lines=columns");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->line_min, 1);
  EXPECT_FALSE(r->penk_rows);
  for (int n = 1; n <= 5; ++n)
    for (bool rows : {true, false}) {
      Rules x;
      x.line_min = n;
      x.penk_rows = rows;
      absl::StatusOr<Rules> back = ParseRules(FormatRules(x));
      ASSERT_TRUE(back.ok()) << FormatRules(x);
      EXPECT_EQ(*back, x);
    }
  for (const char* bad : {"line-min=9", "line-min=0", "line-min=", "line-min=33",
                          "penk-lines=diagonal", "penk-lines=", "foo", "line-min=3,bar"}) {
    absl::StatusOr<Rules> b = ParseRules(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(std::string(b.status().message()).find(bad), std::string::npos)
        << b.status().message();
  }
}

}  // namespace
}  // namespace penk
