#include "protocol/game_record_json.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/quoted_input.h"
#include "protocol/inputs.h"
#include "protocol/request.h"

namespace penk::protocol {

namespace {

using json = nlohmann::ordered_json;

json PositionJson(const Position& p) {
  json sheets = json::array();
  for (const Sheet& s : p.sheets) sheets.push_back(FormatSheet(s));
  json out = {{"sheets", sheets}, {"current", p.current}};
  if (!p.turns.empty()) out["turns"] = p.turns;
  if (p.last_round) out["last_round"] = *p.last_round;
  if (p.dice) {
    out["dice"] = FormatDice(*p.dice);
    out["rerolls_left"] = p.rerolls_left;
  }
  return out;
}

json StepJson(const GameStep& step) {
  if (step.kind == GameStep::kRoll) return {{"roll", FormatDice(step.dice)}};
  // Keeping all six dice ends the rolling (R2.2): written as it is said.
  const bool stop = step.action.kind == Action::kKeep && step.action.keep.size() == kDice;
  return {{"action", stop ? "stop" : FormatAction(step.action)}};
}

// One step as written: its kind and text; the game says whether it is legal.
struct WrittenStep {
  bool roll = false;
  std::string text;
};

WrittenStep StepOf(const json& v, size_t number) {
  const bool one_key = v.is_object() && v.size() == 1;
  const bool roll = one_key && v.contains("roll");
  if (!one_key || (!roll && !v.contains("action")))
    Fail(ErrorCode::kBadField,
         absl::StrCat("step ", number,
                      ": a step is {\"action\":\"...\"} (a decision, R7) or {\"roll\":\"...\"} "
                      "(six physical dice)"));
  const json& text = v.begin().value();
  if (!text.is_string() || text.get<std::string>().empty() ||
      text.get<std::string>().find('\0') != std::string::npos)
    Fail(ErrorCode::kBadField, absl::StrCat("step ", number, ": \"", roll ? "roll" : "action",
                                            "\" must be a non-empty string"));
  return WrittenStep{roll, text.get<std::string>()};
}

// What a record says, its shape checked; the steps are checked by playing them.
struct WrittenGame {
  std::vector<std::string> players;
  Rules rules;
  uint64_t seed = 0;
  DiceSource dice = DiceSource::kEngine;
  std::optional<Position> position;
  std::vector<WrittenStep> steps;
};

WrittenGame WrittenGameOf(const json& record) {
  if (!record.is_object())
    Fail(ErrorCode::kBadField, "a record is a JSON object, as \"export\" gives it");
  static const char* const kKeys[] = {"format", "version", "rules", "players",
                                      "seed",   "dice",    "position", "steps"};
  for (const auto& item : record.items()) {
    const std::string& key = item.key();
    if (std::find_if(std::begin(kKeys), std::end(kKeys), [&](const char* k) { return key == k; }) ==
        std::end(kKeys))
      Fail(ErrorCode::kBadField,
           absl::StrCat("unknown field ", QuotedInput(key), "; a record has: ",
                        absl::StrJoin(kKeys, ", ")));
  }
  const Request r(record);
  if (!r.Has("format") || !record["format"].is_string() ||
      record["format"].get<std::string>() != kRecordFormat)
    Fail(ErrorCode::kBadField,
         absl::StrCat("field \"format\" must be \"", kRecordFormat, "\" (a game record)"));
  const int64_t version = r.Int("version", 1, INT32_MAX, std::nullopt);
  if (version != kRecordVersion)
    Fail(ErrorCode::kBadField, absl::StrCat("version ", version, " is not known: this penk reads "
                                            "version ", kRecordVersion));
  WrittenGame w;
  if (r.Has("players") && !r.Raw("players").is_array())
    Fail(ErrorCode::kBadField, "field \"players\" must be a list of strings");
  w.players = r.StringList("players", true);
  w.rules = RulesOrThrow(r.String("rules", ""));
  if (!r.Has("seed")) Fail(ErrorCode::kBadField, "missing field \"seed\" (the game's dice come from it)");
  w.seed = Request::SeedOf("seed", r.Raw("seed"));
  const std::string dice = r.String("dice", "engine");
  if (dice != "engine" && dice != "manual")
    Fail(ErrorCode::kBadField,
         absl::StrCat("field \"dice\" must be \"engine\" or \"manual\"; got ", QuotedInput(dice)));
  w.dice = dice == "manual" ? DiceSource::kManual : DiceSource::kEngine;
  if (r.Has("position")) w.position = PositionOrThrow(r.Raw("position"));
  if (!r.Has("steps") || !r.Raw("steps").is_array())
    Fail(ErrorCode::kBadField, "field \"steps\" must be a list of steps (may be empty)");
  const json& steps = r.Raw("steps");
  if (steps.size() > kMaxRecordSteps)
    Fail(ErrorCode::kBadField, absl::StrCat("at most ", kMaxRecordSteps, " steps (a game has a few "
                                            "hundred); got ", steps.size()));
  for (size_t i = 0; i < steps.size(); ++i) w.steps.push_back(StepOf(steps[i], i + 1));
  return w;
}

}  // namespace

json GameRecordJson(const GameSession& g) {
  const Game& start = g.record.start();
  const json seed = SeedJson(g.seed);  // a string from 2^53 on
  json out = {{"format", kRecordFormat},
              {"version", kRecordVersion},
              {"rules", FormatRules(start.rules())},
              {"players", g.seats},
              {"seed", seed},
              {"dice", start.dice_source() == DiceSource::kManual ? "manual" : "engine"}};
  if (g.position) out["position"] = PositionJson(*g.position);
  json steps = json::array();
  for (const GameStep& step : g.record.Steps()) steps.push_back(StepJson(step));
  out["steps"] = std::move(steps);
  return out;
}

GameSession RestoreGame(Session& s, const json& record) {
  WrittenGame w;
  std::optional<GameSession> g;
  try {
    w = WrittenGameOf(record);
    g.emplace(s.NewGame(w.players, w.rules, w.seed, w.dice, w.position ? &*w.position : nullptr));
  } catch (const EngineError& e) {
    Fail(e.code, absl::StrCat("record: ", e.message));
  }
  // Each step as the commands apply them (the same checks, the same errors).
  for (size_t i = 0; i < w.steps.size(); ++i) {
    const WrittenStep& step = w.steps[i];
    try {
      if (step.roll) Session::Roll(*g, step.text);
      else Session::Apply(*g, step.text);
    } catch (const EngineError& e) {
      Fail(e.code, absl::StrCat("record: step ", i + 1, " (", step.roll ? "roll " : "action ",
                                QuotedInput(step.text), "): ", e.message));
    }
  }
  return *std::move(g);
}

}  // namespace penk::protocol
