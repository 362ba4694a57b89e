// One ranking rule with opponents (issues 10, 21): the win share, then the
// expected final score in this game, then the exact solitaire value, then
// fewer dice rerolled. ExpertPlayer::Decide (expert's moves, `best_action`)
// applies it to expert's own figures; RankForWin on sheets given by hand
// (`penk hint --opponent`, the engine's and the C library's hints) and the
// one hint asked of a game (`penk play`'s `?`, hint by game) apply it to the
// figures they show: the neural player's, rounded as shown. Each must put
// first on every position the action the rule puts first, the rule worked
// out in this file (ByTheRule: solitaire values by brute force, the rule's
// steps by hand), not by the functions those callers share.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "engine/game.h"
#include "engine/position_check.h"
#include "engine/score.h"
#include "gtest/gtest.h"
#include "protocol/hint.h"
#include "tests/brute_turn.h"
#include "tests/completed_tables.h"
#include "solver/advisor.h"
#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/calibration_map.h"
#include "ai/neural_default.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"
#include "ai/win_ranking.h"

namespace penk {
namespace {

// ---------------------------------------------------------------------------
// The rule itself on hand-made values.

WinRankedAction Keep(const char* dice, double win, double value) {
  return {Action::Keep(*ParseDice(dice)), win, value};
}

std::vector<std::string> Names(const std::vector<WinRankedAction>& v) {
  std::vector<std::string> out;
  for (const WinRankedAction& a : v) out.push_back(FormatAction(a.action));
  return out;
}

TEST(RankingRule, WinThenValueThenFewerDiceRerolled) {
  std::vector<WinRankedAction> v = {
      Keep("1", 0.5, 100),           // 5 rerolled
      Keep("11", 0.5, 100),          // 4 rerolled: before "1"
      Keep("2", 0.5, 101),           // higher value: before both
      Keep("3", 0.6, 10),            // higher win: first whatever its value
      Keep("112345", 0.5, 100),      // stopping (0 rerolled)
  };
  OrderByWinRule(v);
  EXPECT_EQ(Names(v), (std::vector<std::string>{"3", "2", "112345", "11", "1"}));
}

TEST(RankingRule, LastBitsAreTies) {
  const double w = 0.1 + 0.2;  // 0.30000000000000004
  std::vector<WinRankedAction> v = {Keep("1", 0.3, 100), Keep("2", w, 99)};
  OrderByWinRule(v);
  EXPECT_EQ(FormatAction(v[0].action), "1") << "0.3 and 0.1 + 0.2 tie: the value decides";
  EXPECT_TRUE(RankingTie(150.0, 150.0 + 1e-10));   // relative to the magnitude
  EXPECT_FALSE(RankingTie(150.0, 150.0 + 1e-9));
  EXPECT_TRUE(RankingTie(1e-20, 2e-20));            // at least 1e-12 absolute
  EXPECT_FALSE(RankingTie(0.5, 0.5 + 1e-11));
}

TEST(RankingRule, GroupsAreFromTheBestSoAChainOfTiesIsNotOneTie) {
  // a ties b and b ties c, but a does not tie c: the group of a is {a, b}.
  std::vector<WinRankedAction> v = {Keep("1", 0.5, 1), Keep("2", 0.5 - 0.8e-12, 3),
                                    Keep("3", 0.5 - 1.6e-12, 5)};
  OrderByWinRule(v);
  EXPECT_EQ(Names(v), (std::vector<std::string>{"2", "1", "3"}));
}

TEST(RankingRule, OrderDoesNotDependOnTheInputOrderAndNaNValuesRankLast) {
  std::vector<WinRankedAction> v = {Keep("1", 0.5, std::nan("")), Keep("2", 0.5, 7),
                                    Keep("3", 0.5, 7), Keep("4", 0.5, 7), Keep("5", 0.2, 9)};
  std::vector<WinRankedAction> sorted = v;
  OrderByWinRule(sorted);
  EXPECT_EQ(Names(sorted), (std::vector<std::string>{"2", "3", "4", "1", "5"}));
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) {
    std::shuffle(v.begin(), v.end(), rng);
    std::vector<WinRankedAction> again = v;
    OrderByWinRule(again);
    EXPECT_EQ(Names(again), Names(sorted));
    std::vector<WinRankedAction> best = v;
    EXPECT_EQ(SortByWin(best), 4u);
    best.resize(4);
    OrderByWinRule(best);
    EXPECT_EQ(FormatAction(best.front().action), "2");
  }
}

// ---------------------------------------------------------------------------
// The same first action everywhere, on positions of real games.

// Tables with made-up values: the order must agree whatever the values, and
// solving every blocked-row table exactly would take minutes. Score plus a
// bonus per free cell: many exact ties, as late in real games.
class RankingRuleGames : public ::testing::Test {
 public:
  static void SetUpTestSuite() {
    // tests/completed_tables.h with nothing exact: every value synthetic.
    tables_ = std::make_shared<TableCache>(CompletedTableLoader(0), size_t{1} << 30);
  }
  static void TearDownTestSuite() { tables_.reset(); }
  static std::shared_ptr<TableCache> tables_;
};
std::shared_ptr<TableCache> RankingRuleGames::tables_;

// The first action of `penk play`'s `?` (and of the engine's and libpenk's
// hint by game): the one hint (protocol/hint.h) asked of the game.
Action AdvisorFirst(const Game& game) {
  protocol::SessionOptions options;
  options.shared_tables = RankingRuleGames::tables_;
  protocol::Session session(options);
  const nlohmann::ordered_json answer =
      protocol::AnswerHint(session, protocol::HintQuestionOfGame(game), &game);
  return *game.ParseAction(answer["actions"][0]["action"].get<std::string>());
}

// The first action of `penk hint --opponent` given the game's sheets by hand
// (WinQuery from the text of each sheet, as the CLI parses them).
Action HintFirst(const Game& game) {
  const int me = game.current();
  WinQuery q;
  q.sheet = *ParseSheet(FormatSheet(game.sheet(me)));
  for (int i = 1; i < game.players(); ++i)
    q.opponents.push_back(*ParseSheet(FormatSheet(game.sheet((me + i) % game.players()))));
  q.rules = game.rules();
  q.last_round = game.last_round();
  q.seat = me + 1;
  q.turns = game.turns(me);
  const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
  const std::shared_ptr<const SolitaireTable> held =
      RankingRuleGames::tables_->GetOrThrow(q.rules, PositionOfSheet(q.sheet)->blocked_rows);
  const SolitaireTable& table = *held;
  std::vector<RankedAction> ranked =
      *RankActions(table, q.sheet, game.dice(), rerolls, FinishedSheet::kLastTurns);
  WinFigures win;
  const absl::Status s = RankForWin(q, game.dice(), rerolls, ranked, win, RankingRuleGames::tables_);
  EXPECT_TRUE(s.ok()) << s.message();
  return ranked.front().action;
}

TEST_F(RankingRuleGames, TheHintsOrderFollowsTheFiguresItShows) {
  // issue 21: the header says "ranked by win, then score": on real
  // positions the shown (win, score) never increase down the list, an
  // action is marked tied exactly when both equal the line above, and
  // within a tie the solitaire value does not increase.
  int ties = 0, lists = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const int players = 2 + static_cast<int>(seed % 3);
    Game game = *Game::Create(players, Rules{}, seed);
    std::unique_ptr<Player> greedy = *MakeBot("greedy", Rules{});
    while (!game.over()) {
      const int me = game.current();
      WinQuery q;
      q.sheet = game.sheet(me);
      for (int i = 1; i < players; ++i) q.opponents.push_back(game.sheet((me + i) % players));
      q.last_round = game.last_round();
      q.seat = me + 1;
      q.turns = game.turns(me);
      const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
      const std::shared_ptr<const SolitaireTable> table =
          tables_->GetOrThrow(Rules{}, PositionOfSheet(q.sheet)->blocked_rows);
      std::vector<RankedAction> ranked =
          *RankActions(*table, q.sheet, game.dice(), rerolls, FinishedSheet::kLastTurns);
      WinFigures f;
      ASSERT_TRUE(RankForWin(q, game.dice(), rerolls, ranked, f, tables_).ok());
      ASSERT_EQ(f.win.size(), ranked.size());
      EXPECT_EQ(f.estimate, f.exact ? "exact" : "neural");
      for (size_t i = 0; i < ranked.size(); ++i) {
        EXPECT_EQ(f.win[i], ShownWin(f.win[i]));
        EXPECT_EQ(f.score[i], ShownScore(f.score[i]));
        if (i == 0) continue;
        EXPECT_GE(f.win[i - 1], f.win[i]);
        const bool same_win = f.win[i - 1] == f.win[i];
        if (same_win) {
          EXPECT_GE(f.score[i - 1], f.score[i]);
        }
        EXPECT_EQ(f.tied[i], same_win && f.score[i - 1] == f.score[i]);
        if (f.tied[i]) {
          ++ties;
          EXPECT_GE(ranked[i - 1].value, ranked[i].value - 1e-9);
        }
      }
      ++lists;
      ASSERT_TRUE(PlayDecision(game, *greedy).ok());
    }
  }
  EXPECT_GT(lists, 500);
  EXPECT_GT(ties, 20) << "shown ties must be exercised";
}

TEST_F(RankingRuleGames, AFinishedMoverStillPlaysTheLastRound) {
  // Two closed columns (R5.2): alone the game is over; with an opponent who
  // has not played the last round, the mover still has this turn, each
  // marking worth the final score it leads to. The opponent's column 2 was
  // crossed by the mover's column PENK (R4.2).
  WinQuery q;
  q.sheet = *ParseSheet("xo.../xo.../xo.../oo.../xo...");
  q.opponents = {*ParseSheet(".x.../.x.../.x.../.x.../.x...")};
  const Dice roll = *ParseRoll("11335J");
  const std::shared_ptr<const SolitaireTable> held = tables_->GetOrThrow(Rules{}, 0);
  const SolitaireTable& table = *held;
  EXPECT_FALSE(RankActions(table, q.sheet, roll, 0).ok());
  for (int rerolls : {0, 1, 2}) {
    std::vector<RankedAction> ranked =
        *RankActions(table, q.sheet, roll, rerolls, FinishedSheet::kLastTurns);
    WinFigures win;
    ASSERT_TRUE(RankForWin(q, roll, rerolls, ranked, win, tables_).ok()) << rerolls;
    ASSERT_FALSE(ranked.empty());
    if (rerolls == 0)
      for (const RankedAction& r : ranked) {
        Sheet after = q.sheet;
        after.circled |= r.action.cells;
        EXPECT_EQ(r.value, Score(after, Rules{})) << FormatAction(r.action);
      }
  }
}

// The first action by the rule, worked out here: expert's estimate of each
// legal action (its public KeepValue/MarkValue/FailValue: the rule's input),
// the exact solitaire value by brute force (tests/brute_turn.h over the
// table's values; a finished sheet is its score, R5.2), and the rule's steps
// by hand: the actions tied with the best estimate, among them those tied
// with the best value, among them the fewest dice rerolled, then the fixed
// order (WinRuleKey). Counts the decisions tied on the estimate and those
// the solitaire value decided.
struct RuleCounts {
  int tied = 0, value_decided = 0;
};
// `shown`: the hint's way, on the figures rounded as shown (ShownWin,
// ShownScore) with the expected score as the second step; otherwise the
// player's own, on its raw estimate.
Action ByTheRule(ExpertPlayer& expert, const Game& game, RuleCounts& counts, bool shown = false) {
  std::vector<Action> legal = game.LegalActions();
  std::vector<double> win, score;
  const ExpertView view = ExpertView::Of(game);
  for (const Action& a : legal) {
    win.push_back(a.kind == Action::kKeep   ? expert.KeepValue(game, a.keep)
                  : a.kind == Action::kMark ? expert.MarkValue(game, a.cells)
                                            : expert.FailValue(game, a.face));
    score.push_back(a.kind == Action::kKeep
                        ? expert.KeepScore(view, game.dice(), game.rerolls_left(), a.keep)
                    : a.kind == Action::kMark ? expert.MarkScore(view, a.cells)
                                              : expert.FailScore(view, a.face));
    if (shown) {
      // As shown: the exact figure as it is, the net's through its map
      // (ai/calibration_map.h), both to 0.01%.
      bool over = false;
      for (int q = 0; q < game.players(); ++q) over = over || game.sheet(q).ClosedColumns() >= 2;
      if (!WinIsExact(game.players(), game.last_round() || over))
        win.back() = CalibratedWin(win.back(), game.players(), game.turns(game.current()),
                                   FittedNeuralCalibration());
      win.back() = ShownWin(win.back());
      score.back() = ShownScore(score.back());
    }
  }
  const double best_win = *std::max_element(win.begin(), win.end());
  std::vector<Action> tied;
  std::vector<double> tied_score;
  for (size_t i = 0; i < legal.size(); ++i)
    if (RankingTie(win[i], best_win)) tied.push_back(legal[i]), tied_score.push_back(score[i]);
  if (shown && tied.size() > 1) {
    const double best_score = *std::max_element(tied_score.begin(), tied_score.end());
    std::vector<Action> head;
    for (size_t i = 0; i < tied.size(); ++i)
      if (tied_score[i] == best_score) head.push_back(tied[i]);
    tied = head;
  }
  if (tied.size() > 1) {
    ++counts.tied;
    const Sheet& sheet = game.sheet(game.current());
    const std::shared_ptr<const SolitaireTable> table = RankingRuleGames::tables_->GetOrThrow(
        game.rules(), PositionOfSheet(sheet)->blocked_rows);
    auto value = [&](const Sheet& x) {
      return x.ClosedColumns() >= 2 ? static_cast<double>(Score(x, game.rules())) : *table->Value(x);
    };
    testing_support::BruteTurn brute(testing_support::SolitaireLeaf(sheet, value));
    const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
    std::vector<double> values;
    for (const Action& a : tied)
      values.push_back(a.kind == Action::kKeep   ? brute.KeepValue(a.keep, rerolls)
                       : a.kind == Action::kMark ? value(testing_support::AfterMarking(sheet, a.cells))
                                                 : value(testing_support::AfterFailure(sheet, a.face)));
    const double best_value = *std::max_element(values.begin(), values.end());
    std::vector<Action> head;
    for (size_t i = 0; i < tied.size(); ++i)
      if (RankingTie(values[i], best_value)) head.push_back(tied[i]);
    counts.value_decided += head.size() < tied.size();
    tied = head;
  }
  auto rerolled = [](const Action& a) { return a.kind == Action::kKeep ? kDice - a.keep.size() : 0; };
  return *std::min_element(tied.begin(), tied.end(), [&](const Action& x, const Action& y) {
    if (rerolled(x) != rerolled(y)) return rerolled(x) < rerolled(y);
    return WinRuleKey(x) < WinRuleKey(y);
  });
}

// Expert's moves, `penk play`'s `?` and `penk hint --opponent` each put first
// the action the rule, worked out independently above, puts first.
TEST_F(RankingRuleGames, HintPlayAndExpertFollowTheRuleOnThousandsOfPositions) {
  std::mt19937_64 rng(2024);
  int checked = 0, keeps = 0, marks = 0, finished_movers = 0;
  RuleCounts counts;
  for (uint64_t seed = 1; checked < 2500; ++seed) {
    const int players = 2 + static_cast<int>(seed % 3);
    const Rules rules = seed % 4 == 3 ? Rules{3, false} : Rules{};
    Game game = *Game::Create(players, rules, seed);
    std::vector<std::unique_ptr<Player>> bots;
    for (int p = 0; p < players; ++p)
      bots.push_back(*MakeBot((seed + p) % 2 ? "greedy" : "random", rules, seed * 7 + p));
    ExpertPlayer expert(tables_);  // one player through the whole game: its caches must not matter
    while (!game.over()) {
      if (rng() % 3 == 0) {  // a random point of the game, keep or mark phase
        const std::string where = "seed " + std::to_string(seed) + " players " +
                                  std::to_string(players) + " sheet " +
                                  FormatSheet(game.sheet(game.current())) + " dice " +
                                  FormatDice(game.dice()) + " phase " +
                                  std::to_string(static_cast<int>(game.phase()));
        ExpertPlayer judge(tables_);  // a fresh expert: the estimates only
        const std::string want = FormatAction(ByTheRule(judge, game, counts));
        ASSERT_EQ(FormatAction(expert.Decide(game)), want) << "expert, " << where;
        // The hints show the neural player's figures (the exact final model
        // in the last round), and order by them as shown.
        ExpertPlayer neural(tables_, *ParseNeuralName("neural"), "neural", *BuiltInNeuralNet());
        neural.SetScoreMap(FittedNeuralScoreCalibration());  // the expected score as shown
        RuleCounts shown_counts;
        const std::string shown = FormatAction(ByTheRule(neural, game, shown_counts, true));
        ASSERT_EQ(FormatAction(AdvisorFirst(game)), shown) << "play's ?, " << where;
        ASSERT_EQ(FormatAction(HintFirst(game)), shown) << "hint --opponent, " << where;
        ++checked;
        (game.phase() == Phase::kKeep ? keeps : marks) += 1;
        finished_movers += game.sheet(game.current()).ClosedColumns() >= 2;
      }
      ASSERT_TRUE(game.Apply(bots[game.current()]->Decide(game)).ok());
    }
  }
  EXPECT_GT(keeps, 500);
  EXPECT_GT(marks, 500);
  EXPECT_GT(counts.tied, 50) << "the tie-breaks must be exercised";
  EXPECT_GT(counts.value_decided, 20) << "the solitaire value must decide some ties";
  std::printf("checked %d positions: %d keeps, %d markings, %d tied at the top, %d of them decided "
              "by the solitaire value, %d movers with two closed columns\n", checked, keeps, marks,
              counts.tied, counts.value_decided, finished_movers);
}

}  // namespace
}  // namespace penk
