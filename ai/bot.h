// Simple built-in bots (issue 2, `penk play`): a greedy one-turn maximiser and
// a uniformly random player. Strong AIs implement the same Player interface.
#ifndef PENK_AI_BOT_H_
#define PENK_AI_BOT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/action.h"
#include "engine/dice.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "ai/player.h"
#include "solver/table_cache.h"
#include "solver/turn_solver.h"

namespace penk {

class NeuralNet;

// Value of a failure (R3.5) for the greedy bot's expectimax: no gain, minus a
// small penalty so that a marking worth nothing still beats a failure.
inline constexpr double kGreedyFailurePenalty = 0.5;

// Greedy: maximises the expected score gain of this turn only. The turn is
// solved by expectimax (SolveTurn) whose leaf is Score(after) - Score(before)
// of the best marking of each final roll (R6, with the game's rules), or
// -kGreedyFailurePenalty when the roll can only fail. Opponents and later
// turns are ignored. The solved turn is cached per (sheet, rules), so only the
// first decision of a turn costs a solve (a few hundred microseconds).
class GreedyBot : public Player {
 public:
  GreedyBot();
  std::string name() const override { return "greedy"; }
  Action Decide(const Game& game) override;

  // The pieces of Decide, usable on hand-made positions.
  // The keep maximising TurnValues::KeepValue over the distinct sub-multisets
  // of `roll` with `rerolls` (1 or 2) rerolls left, ties broken as
  // TurnValues::BestKeep breaks them (the one keep rule).
  Dice ChooseKeep(const Sheet& sheet, const Dice& roll, int rerolls, const Rules& rules);
  // The legal marking of `roll` with the best Gain (ties: canonical order,
  // R7.4), or when there is none the failure of ChooseFailureColumn.
  static Action ChooseMarking(const Sheet& sheet, const Dice& roll, const Rules& rules);
  // Score gain of circling `cells` on `sheet` (R6).
  static int Gain(const Sheet& sheet, uint32_t cells, const Rules& rules);
  // The failure column (R3.5) that loses least: fewest circled cells, then
  // fewest free cells crossed, then the lowest face. 0 if every column is closed.
  static int ChooseFailureColumn(const Sheet& sheet);
  // The solved turn on `sheet` (cached).
  const TurnValues& SolvedTurn(const Sheet& sheet, const Rules& rules);

 private:
  std::unique_ptr<TurnValues> turn_;
  bool solved_ = false;
  Sheet solved_sheet_;
  Rules solved_rules_;
};

// Uniform over Game::LegalActions(), from its own seeded random source.
class RandomBot : public Player {
 public:
  explicit RandomBot(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  Action Decide(const Game& game) override;

 private:
  Rng rng_;
};

// The names MakeBot accepts: "bot" (the default bot, = greedy), "greedy",
// "random", "solitaire" (= "optimal": solitaire-optimal, ai/ai_players.h),
// "expert" (plays to win), "neural" (expert's search on a learned
// evaluation, ai/neural_net.h) and "master" (expert improved by rollouts,
// ai/master.h). "expert:key=value:..." and "master:key=value:..." are those
// with changed parameters (ParseExpertName, ParseMasterName), for measurements.
inline constexpr const char* kBotNames[] = {"bot",     "greedy", "random", "solitaire",
                                            "optimal", "expert", "neural", "master"};

// The levels offered to frontends (hello, penk --help), weakest first (the
// ladder, data/ladder.json, has their measured order), each
// with what a player should know of it; `alias` is an older name still accepted.
// Their measured strength (hello's elo, elo_ci95) is data, with the source
// of each match: data/ladder.json, read by StrengthLadder() (ai/ladder.h).
struct LevelInfo {
  const char* name;
  const char* alias;  // "" if none
  const char* description;
};
inline constexpr LevelInfo kLevels[] = {
    {"random", "", "plays any legal action at random; a baseline"},
    {"solitaire", "optimal",
     "maximises its own expected score as if alone (exact solitaire policy); ignores opponents "
     "and loses most games against greedy"},
    {"greedy", "bot", "takes the best expected score of this turn alone; quick and solid"},
    {"expert", "", "plays to win: exact turn search valuing its score, the opponents' and the end of "
                   "the game; fast"},
    {"neural", "", "expert's turn search with a learned evaluation of the whole position, "
                   "trained by self-play; the strongest fast level"},
    {"master", "", "neural improved by playing out its close calls to the end of the game; the "
                   "strongest level, a fraction of a second a move (master:base=expert rolls "
                   "out expert)"},
};

// A bot by name (case-insensitive); `seed` seeds the random bot. Rules are
// taken from the game at each decision; optimal and expert get their exact
// tables from `tables` (solver/table_cache.h), so a decision under new rules
// or blocked rows may load a table, and throws TableUnavailable when the
// cache cannot give it. optimal and expert need a cache: without one they are
// refused (FailedPrecondition); the other bots ignore it.
// `neural` (and `master:base=neural`) evaluate with `net`, or with the net
// built into the program (BuiltInNeuralNet) when none is given.
absl::StatusOr<std::unique_ptr<Player>> MakeBot(absl::string_view name, const Rules& rules,
                                                uint64_t seed = 0,
                                                std::shared_ptr<TableCache> tables = nullptr,
                                                std::shared_ptr<const NeuralNet> net = nullptr);

// Whether the bot of this name uses exact tables (optimal, expert:...).
bool BotNeedsTables(absl::string_view name);
// Whether MakeBot would accept `name` (its parameters included), without
// making the bot or loading a table: for checking a command line up front.
absl::Status CheckBotName(absl::string_view name);

}  // namespace penk

#endif  // PENK_AI_BOT_H_
