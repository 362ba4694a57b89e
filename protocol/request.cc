#include "protocol/request.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "engine/rules.h"
#include "protocol/game_record_json.h"
#include "protocol/inputs.h"
#include "protocol/session.h"

namespace penk::protocol {

// "position" of new_game: {"sheets":[...],"current":i,"turns":[...],
// "last_round":b,"dice":"...","rerolls_left":n}; unknown keys are refused.
Position PositionOrThrow(const json& j) {
  if (!j.is_object()) Fail(ErrorCode::kBadField, "field \"position\" must be an object");
  static const char* const kKeys[] = {"sheets", "current", "turns", "last_round", "dice",
                                      "rerolls_left"};
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kKeys) known = known || key == k;
    if (!known)
      Fail(ErrorCode::kBadField,
           absl::StrCat("unknown field \"position.", key,
                        "\"; a position has: sheets, current, turns, last_round, dice, rerolls_left"));
  }
  Request r(j);
  Position pos;
  for (const std::string& text : r.StringList("sheets", true)) pos.sheets.push_back(SheetOrThrow(text));
  pos.current = static_cast<int>(r.Int("current", 0, kMaxPlayers - 1, 0));
  if (r.Has("turns")) {
    const json& t = r.Raw("turns");
    if (!t.is_array()) Fail(ErrorCode::kBadField, "field \"position.turns\" must be a list of integers");
    for (const json& x : t) pos.turns.push_back(static_cast<int>(Request::IntOf("position.turns", x, 0, kMaxTurns)));
  }
  if (r.Has("last_round")) pos.last_round = r.Bool("last_round", false);
  if (r.Has("dice")) pos.dice = RollOrThrow(r.NonEmpty("dice"));
  if (r.Has("rerolls_left")) {
    if (!pos.dice) Fail(ErrorCode::kBadField, "field \"position.rerolls_left\" is given only with \"dice\"");
    pos.rerolls_left = static_cast<int>(r.Int("rerolls_left", 0, 2, 2));
  }
  return pos;
}

void CheckKnownFields(const json& request, const char* command,
                      const std::vector<const char*>& fields) {
  for (const auto& item : request.items()) {
    const std::string& key = item.key();  // a plain name: clang 14 cannot capture bindings
    if (key == "id" || key == "cmd") continue;
    if (std::find_if(fields.begin(), fields.end(), [&](const char* f) { return key == f; }) !=
        fields.end())
      continue;
    Fail(ErrorCode::kBadField,
         absl::StrCat("unknown field \"", key.substr(0, 40), key.size() > 40 ? "..." : "",
                      "\" for ", command, "; its fields: ",
                      fields.empty() ? "none" : absl::StrJoin(fields, ", "), " (and id, cmd)"));
  }
}

GameSession NewGameOf(Session& s, const Request& r) {
  if (r.Has("record")) {
    // The record says all of it: a field besides would be a second answer.
    for (const char* f : {"players", "rules", "seed", "dice", "position"})
      if (r.Has(f))
        Fail(ErrorCode::kBadField, absl::StrCat("field \"", f, "\" cannot be given with \"record\": "
                                                "the record says the whole game"));
    return RestoreGame(s, r.Raw("record"));
  }
  std::vector<std::string> players = r.StringList("players", true);
  Rules rules = RulesOrThrow(r.String("rules", ""));
  const uint64_t seed = r.Has("seed")                     ? r.Seed("seed")
                        : s.options().deterministic_seeds ? 0
                                                          : RandomGameSeed();
  const std::string dice = r.String("dice", "engine");
  if (dice != "engine" && dice != "manual")
    Fail(ErrorCode::kBadField, absl::StrCat("field \"dice\" must be \"engine\" or \"manual\"; got \"",
                                            dice.substr(0, 40), "\""));
  std::optional<Position> position;
  if (r.Has("position")) position = PositionOrThrow(r.Raw("position"));
  return s.NewGame(players, rules, seed,
                   dice == "manual" ? DiceSource::kManual : DiceSource::kEngine,
                   position ? &*position : nullptr);
}

}  // namespace penk::protocol
