#include "ai/bot.h"

#include <bit>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "ai/ai_players.h"
#include "ai/master.h"
#include "ai/neural_default.h"

namespace penk {
GreedyBot::GreedyBot() : turn_(std::make_unique<TurnValues>()) {}

int GreedyBot::Gain(const Sheet& sheet, uint32_t cells, const Rules& rules) {
  Sheet after = sheet;
  after.circled |= cells;  // R3.2
  return Score(after, rules) - Score(sheet, rules);  // R6
}

int GreedyBot::ChooseFailureColumn(const Sheet& sheet) {
  int best = 0, best_circled = 0, best_free = 0;
  for (int v : FailureColumns(sheet)) {  // R3.5: columns with a free cell
    int circled = std::popcount(sheet.circled & ColumnMask(v));
    int free = std::popcount(sheet.free() & ColumnMask(v));
    if (best == 0 || circled < best_circled || (circled == best_circled && free < best_free)) {
      best = v;
      best_circled = circled;
      best_free = free;
    }
  }
  return best;
}

Action GreedyBot::ChooseMarking(const Sheet& sheet, const Dice& roll, const Rules& rules) {
  const std::vector<uint32_t> markings = LegalMarkings(sheet, roll);  // canonical order
  if (markings.empty()) return Action::Fail(ChooseFailureColumn(sheet));  // R3.5
  uint32_t best = markings.front();
  int best_gain = Gain(sheet, best, rules);
  for (uint32_t cells : markings) {
    int gain = Gain(sheet, cells, rules);
    if (gain > best_gain) {  // strict: ties keep the canonically first
      best = cells;
      best_gain = gain;
    }
  }
  return Action::Mark(best);
}

const TurnValues& GreedyBot::SolvedTurn(const Sheet& sheet, const Rules& rules) {
  if (solved_ && solved_sheet_ == sheet && solved_rules_ == rules) return *turn_;
  const int base = Score(sheet, rules);
  FinalRollValues(
      sheet,
      [&](uint32_t cells) {
        Sheet after = sheet;
        after.circled |= cells;
        return static_cast<double>(Score(after, rules) - base);
      },
      [](int) { return -kGreedyFailurePenalty; }, turn_->roll[0].data());
  SolveTurn(*turn_);
  solved_ = true;
  solved_sheet_ = sheet;
  solved_rules_ = rules;
  return *turn_;
}

Dice GreedyBot::ChooseKeep(const Sheet& sheet, const Dice& roll, int rerolls,
                           const Rules& rules) {
  const TurnValues& t = SolvedTurn(sheet, rules);
  const DiceSpace& space = DiceSpace::Get();
  // The one keep rule of every player and of the advisor (TurnValues::BestKeep).
  const int best = t.BestKeep(rerolls, space.RollIndex(roll));
  return space.keep(best);
}

Action GreedyBot::Decide(const Game& game) {
  const Sheet& sheet = game.sheet(game.current());
  if (game.phase() == Phase::kKeep)
    return Action::Keep(ChooseKeep(sheet, game.dice(), game.rerolls_left(), game.rules()));
  return ChooseMarking(sheet, game.dice(), game.rules());
}

Action RandomBot::Decide(const Game& game) {
  std::vector<Action> legal = game.LegalActions();
  if (legal.empty()) return Action{};  // only when the game is over
  return legal[rng_.Below(static_cast<uint32_t>(legal.size()))];
}

bool BotNeedsTables(absl::string_view name) {
  std::string lower = absl::AsciiStrToLower(name);
  return lower == "optimal" || lower == "solitaire" || lower == "expert" || lower == "master" ||
         lower == "neural" || absl::StartsWith(lower, "expert:") ||
         absl::StartsWith(lower, "master:") || absl::StartsWith(lower, "neural:");
}

absl::Status CheckBotName(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (!BotNeedsTables(lower)) return MakeBot(lower, Rules{}, 0).status();
  if (absl::StartsWith(lower, "master")) return ParseMasterName(lower).status();
  if (absl::StartsWith(lower, "expert")) return ParseExpertName(lower).status();
  if (absl::StartsWith(lower, "neural")) return ParseNeuralName(lower).status();
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Player>> MakeBot(absl::string_view name, const Rules& rules,
                                                uint64_t seed, std::shared_ptr<TableCache> tables,
                                                std::shared_ptr<const NeuralNet> net) {
  std::string lower = absl::AsciiStrToLower(name);
  if (lower == "bot" || lower == "greedy") return std::make_unique<GreedyBot>();
  if (lower == "random") return std::make_unique<RandomBot>(seed);
  if (lower == "solitaire") lower = "optimal";  // the name offered to players; the same policy
  if (lower == "master" || absl::StartsWith(lower, "master:")) {
    absl::StatusOr<MasterParams> parsed = ParseMasterName(lower);
    if (!parsed.ok()) return parsed.status();
    if (!tables)
      return absl::FailedPreconditionError("the master player needs a table cache (solver/table_cache.h)");
    if (parsed->base == MasterBase::kNeural) {
      absl::StatusOr<std::shared_ptr<const NeuralNet>> chosen = NetFor(std::move(net), rules);
      if (!chosen.ok()) return chosen.status();
      net = *std::move(chosen);
    } else {
      net = nullptr;
    }
    return std::make_unique<MasterPlayer>(std::move(tables), *parsed, lower, std::move(net));
  }
  if (lower == "neural" || absl::StartsWith(lower, "neural:")) {
    absl::StatusOr<ExpertParams> parsed = ParseNeuralName(lower);
    if (!parsed.ok()) return parsed.status();
    if (!tables)
      return absl::FailedPreconditionError("the neural player needs a table cache (solver/table_cache.h)");
    absl::StatusOr<std::shared_ptr<const NeuralNet>> chosen = NetFor(std::move(net), rules);
    if (!chosen.ok()) return chosen.status();
    return std::make_unique<ExpertPlayer>(std::move(tables), *parsed, lower, *std::move(chosen));
  }
  std::optional<ExpertParams> params;
  if (lower == "expert" || absl::StartsWith(lower, "expert:")) {
    absl::StatusOr<ExpertParams> parsed = ParseExpertName(lower);
    if (!parsed.ok()) return parsed.status();
    params = *parsed;
  }
  if ((params || lower == "optimal") && !tables)
    return absl::FailedPreconditionError(
        absl::StrCat("the ", lower, " player needs a table cache (solver/table_cache.h)"));
  if (lower == "optimal") return std::make_unique<OptimalPlayer>(std::move(tables));
  if (params) return std::make_unique<ExpertPlayer>(std::move(tables), *params, lower);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown bot ", QuotedInput(name),
      "; known bots: greedy (bot), random, solitaire (optimal), expert, neural, master"));
}

}  // namespace penk
