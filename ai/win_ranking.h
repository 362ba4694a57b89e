// The advisor with opponents: expert's estimate of the probability of winning
// after each action, for `penk hint --opponent`, `penk play`'s `?`, the engine
// protocol's and the C library's hints with opponents -- one computation
// behind all of them -- and the one rule that orders actions with opponents,
// which expert's own decisions follow too (ExpertPlayer::Decide).
#ifndef PENK_AI_WIN_RANKING_H_
#define PENK_AI_WIN_RANKING_H_

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/action.h"
#include "engine/dice.h"
#include "engine/game.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "solver/advisor.h"
#include "solver/table_cache.h"

namespace penk {

// ---------------------------------------------------------------------------
// The ranking rule with opponents (issue 10), best first:
//  1. the win share, higher first;
//  2. the expected final score in this game, higher first (the net's; none
//     for expert without a net);
//  3. the exact solitaire value (expected final score under optimal solitaire
//     play, RankActions), higher first;
//  4. fewer dice rerolled (a keep rerolls 6 - kept; stopping and every
//     marking or failure reroll 0);
//  5. a fixed order of the actions themselves (WinRuleKey), so every caller
//     breaks a complete tie the same way.
// A player applies it to its own figures; a hint applies it to the figures
// it shows (OrderAsShown), so that its order follows the numbers on screen.
// Floating point: the win estimates of two actions computed by the same
// expectimax along different paths may differ in the last bits, so two
// numbers within kRankingTolerance of each other, relative to the larger
// magnitude but at least 1 (RankingTie), are a tie in 1 and 2. Tolerance is
// not transitive; the rule stays well defined by grouping: sorted by the
// criterion, a tie group is the first action left and every later one that
// ties with it, and only inside a group do the next criteria order.
inline constexpr double kRankingTolerance = 1e-12;

bool RankingTie(double a, double b);

struct WinRankedAction {
  Action action;
  double win = 0;    // the player's estimate, unclamped (its tie-breakers can leave [0, 1] by 1e-7)
  double value = 0;  // exact solitaire value; NaN ranks last
  double score = std::nan("");  // expected final score in this game; NaN: not known
};

int DiceRerolled(const Action& action);
uint64_t WinRuleKey(const Action& action);

// Orders `actions` best first by the rule.
void OrderByWinRule(std::vector<WinRankedAction>& actions);

// Step 1 alone, for a player that needs only the best action: sorts by the
// win estimate, best first, and returns how many actions tie with the best.
// Only those need a solitaire value: OrderByWinRule on them alone puts the
// same action first as on all.
size_t SortByWin(std::vector<WinRankedAction>& actions);

// The figures a hint shows: the win share to 0.01% (4 decimals), the
// expected score to 0.01 point.
double ShownWin(double win);
double ShownScore(double score);
// Rounds every action's win and score to the shown figures, orders by the
// rule, and returns which actions tie with the one before on both shown
// figures (tied[0] is false): those are shown as tied.
std::vector<bool> OrderAsShown(std::vector<WinRankedAction>& actions);

// ---------------------------------------------------------------------------

// Whether the win figure of a hint is exact rather than an estimate: in the
// last round (R5.2) of a two-player game expert's final model is the exact
// probability of winning (docs/AI.md, method item 5); with three or four
// players the later seats are modelled one by one, an approximation.
inline bool WinIsExact(int players, bool last_round) { return last_round && players == 2; }

struct WinQuery;
// The same for a query: its last round is the flag, or two closed columns on
// some sheet (R5.2).
bool WinIsExact(const WinQuery& q);

struct WinQuery {
  Sheet sheet;                  // the player to move
  std::vector<Sheet> opponents; // the others, in turn order after the player
  Rules rules;
  bool last_round = false;      // R5.2; also set when some sheet has two closed columns
  int seat = 1;                 // the player's seat, 1..players
  int turns = -1;               // turns the player has taken; -1: estimated from the sheet
};

// What a ranking with opponents shows beside each action, in its order.
struct WinFigures {
  std::vector<double> win;    // the chance of winning (R6.4: a tie shared), to 0.01%
  std::vector<double> score;  // expected final score in this game, to 0.01 point (NaN: none)
  std::vector<bool> tied;     // tied[i]: the same shown win and score as action i - 1
  bool exact = false;         // WinIsExact: win is the exact probability
  // Where the figures come from: "exact" (the last round of two players),
  // "neural" (the net, ai/neural_net.h), or "expert" (its estimate through
  // the calibration map, for rules the net was not trained on).
  std::string estimate;
};

// The actions of `ranked` (from RankActions for `roll` with `rerolls` left)
// with their figures, re-ordered by the rule above on the figures shown.
// The neural player's turn search gives them (its net, or the exact final
// model in the last round), the expected score under its own play of the
// turn; with rules the net was not trained on, expert's calibrated estimate
// and no expected score. Refuses more than three opponents, a seat out of
// range and sheets no game can reach together (CheckSheetsReachable: the
// player to move is "the player to move", the others "opponent 1", ...),
// InvalidArgument, one line. The exact tables of the sheets' blocked rows
// come from `tables`; one that cannot be had is Unavailable with the
// loader's message (e.g. a missing file when building is off).
absl::Status RankForWin(const WinQuery& query, const Dice& roll, int rerolls,
                        std::vector<RankedAction>& ranked, WinFigures& figures,
                        std::shared_ptr<TableCache> tables);

}  // namespace penk

#endif  // PENK_AI_WIN_RANKING_H_
