// Positions no game can reach (issue 10, engine/position_check.h): hand-made
// refusals naming the sheet and the line, and every position of random games
// accepted.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/position_check.h"
#include "gtest/gtest.h"
#include "ai/bot.h"

namespace penk {
namespace {

std::vector<Sheet> Sheets(const std::vector<std::string>& texts) {
  std::vector<Sheet> out;
  for (const std::string& t : texts) out.push_back(*ParseSheet(t));
  return out;
}

std::string Error(const std::vector<std::string>& texts, const Rules& rules = Rules{},
                  const std::vector<std::string>& names = {}) {
  const absl::Status s = CheckSheetsReachable(Sheets(texts), rules, names);
  return s.ok() ? "ok" : std::string(s.message());
}

constexpr char kEmpty[] = "...../...../...../...../.....";

TEST(PositionCheck, ReadmeExample) {
  // The opponent's row-1 PENK would have crossed the mover's row 1 (R4.2).
  EXPECT_EQ(Error({kEmpty, "ooooo/...../...../...../....."}, Rules{},
                  {"the player to move", "opponent 1"}),
            "the player to move has a free cell on row 1, which opponent 1 completed: that PENK "
            "crossed it (R4.1, R4.2)");
  EXPECT_EQ(Error({"xxxxx/...../...../...../.....", "ooooo/...../...../...../....."}), "ok");
  // Under penk-lines=columns a row blocks nothing (R4.3).
  EXPECT_EQ(Error({kEmpty, "ooooo/...../...../...../....."}, Rules{3, false}), "ok");
}

TEST(PositionCheck, ColumnCompletedWithAFreeCellElsewhere) {
  EXPECT_EQ(Error({"o..../o..../o..../o..../o....", "....o/...../...../...../....."},
                  Rules{3, false}),
            "sheet 2 has a free cell on column 1, which sheet 1 completed: that PENK crossed it "
            "(R4.1, R4.2)");
  EXPECT_EQ(Error({"o..../o..../o..../o..../o....", "x..../x..../x..../x..../x...."}), "ok");
}

TEST(PositionCheck, LineCompletedOnTwoSheets) {
  EXPECT_EQ(Error({"...../...../ooooo/...../.....", "...../...../ooooo/...../.....", kEmpty}),
            "row 3 is completed on sheet 1 and on sheet 2: the first PENK crossed the other's "
            "free cells of it (R4.1, R4.2)");
  EXPECT_EQ(Error({"...o./...o./...o./...o./...o.", "...o./...o./...o./...o./...o."}),
            "column 4 is completed on sheet 1 and on sheet 2: the first PENK crossed the other's "
            "free cells of it (R4.1, R4.2)");
  // Rows do not block under penk-lines=columns: two sheets may complete one.
  EXPECT_EQ(Error({"ooooo/...../...../...../.....", "ooooo/...../...../...../....."},
                  Rules{3, false}),
            "ok");
}

TEST(PositionCheck, SheetNotReachableAlone) {
  // A crossed cell in an open column whose row is not crossed elsewhere.
  EXPECT_EQ(Error({kEmpty, "x..../...../...../...../....."}, Rules{}, {"me", "opponent 1"}),
            "opponent 1: sheet x..../...../...../...../..... cannot arise in a game: in column "
            "2, which is not closed, the crossed cells are not exactly the uncircled cells of "
            "rows crossed by a PENK (R3.5, R4.2)");
  EXPECT_FALSE(RowsCrossedByPenk(*ParseSheet("x..../...../...../...../.....")).ok());
  EXPECT_EQ(*RowsCrossedByPenk(*ParseSheet("xxoxx/...../...../.o.../.....")), 0b00001u);
  EXPECT_EQ(*RowsCrossedByPenk(*ParseSheet("x..../x..../x..../x..../x....")), 0u);  // a failure
  Sheet both;
  both.circled = both.crossed = 1;
  EXPECT_FALSE(RowsCrossedByPenk(both).ok());
}

TEST(PositionCheck, RowCrossedByAPenkNobodyMade) {
  EXPECT_EQ(Error({"xxxxx/...../...../...../.....", kEmpty}),
            "sheet 1 has crossed cells on row 1 in columns that are not closed, as a PENK "
            "crosses, but no other sheet completed row 1 (R4.2)");
  EXPECT_EQ(Error({"xxxxx/...../...../...../....."}),
            "sheet 1 has crossed cells on row 1 in columns that are not closed, as a PENK "
            "crosses, but no other sheet completed row 1 (R4.2)");
  EXPECT_EQ(Error({"xxxxx/...../...../...../.....", "ooooo/...../...../...../....."},
                  Rules{3, false}),
            "sheet 1 has crossed cells on row 1 in columns that are not closed, but under "
            "penk-lines=columns no PENK crosses a row (R4.3)");
  // The row's cells circled before the PENK stay circled.
  EXPECT_EQ(Error({"oxxxo/...../...../...../.....", "ooooo/o..../...../...../....."}), "ok");
}

TEST(PositionCheck, EveryPositionOfRandomGamesIsAccepted) {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    const int players = 1 + static_cast<int>(seed % 4);
    const Rules rules = seed % 3 == 0 ? Rules{3, false} : Rules{};
    Game game = *Game::Create(players, rules, seed);
    std::vector<std::unique_ptr<Player>> bots;
    for (int p = 0; p < players; ++p)
      bots.push_back(*MakeBot((seed + p) % 3 ? "greedy" : "random", rules, seed + 100 * p));
    for (;;) {
      std::vector<Sheet> sheets;
      for (int p = 0; p < players; ++p) sheets.push_back(game.sheet(p));
      const absl::Status s = CheckSheetsReachable(sheets, rules);
      ASSERT_TRUE(s.ok()) << "seed " << seed << ": " << s.message();
      ++checked;
      if (game.over()) break;
      ASSERT_TRUE(game.Apply(bots[game.current()]->Decide(game)).ok());
    }
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
}  // namespace penk
