#include "protocol/inputs.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "engine/game.h"
#include "engine/position_check.h"
#include "engine/quoted_input.h"

namespace penk::protocol {

std::string LowerStripped(absl::string_view s) {
  return absl::AsciiStrToLower(absl::StripAsciiWhitespace(s));
}

Sheet SheetOrThrow(absl::string_view text) {
  absl::StatusOr<Sheet> s = ParseSheet(text);
  if (!s.ok()) Fail(ErrorCode::kBadPosition, std::string(s.status().message()));
  return *s;
}

Dice RollOrThrow(absl::string_view text) {
  absl::StatusOr<Dice> d = ParseRoll(text);
  if (!d.ok()) Fail(ErrorCode::kBadPosition, std::string(d.status().message()));
  return *d;
}

Rules RulesOrThrow(absl::string_view text) {
  absl::StatusOr<Rules> r = ParseRules(text);
  if (!r.ok()) Fail(ErrorCode::kBadPosition, std::string(r.status().message()));
  return *r;
}

Objective ObjectiveOrThrow(absl::string_view text) {
  absl::StatusOr<Objective> o = ParseObjective(text);
  if (!o.ok()) Fail(ErrorCode::kBadField, std::string(o.status().message()));
  return *o;
}

std::vector<std::string> SeatsOrThrow(const std::vector<std::string>& names,
                                      const std::vector<std::string>& levels) {
  if (names.empty() || names.size() > static_cast<size_t>(kMaxPlayers))
    Fail(ErrorCode::kBadField,
         absl::StrCat("a game has 1 to 4 players (R1.4); got ", names.size()));
  std::vector<std::string> seats;
  for (const std::string& raw : names) {
    std::string name = LowerStripped(raw);
    bool known = name == "human";
    for (const std::string& l : levels) known = known || name == l;
    if (!known)
      Fail(ErrorCode::kUnknownLevel, absl::StrCat("unknown player ", QuotedInput(raw), "; allowed: human, ",
                                                  absl::StrJoin(levels, ", ")));
    seats.push_back(name);
  }
  return seats;
}

void CheckSheetsOrThrow(const Sheet& sheet, const std::vector<Sheet>& opponents, const Rules& rules,
                        bool last_round) {
  // Positions no game can reach get a reason, not a plausible ranking.
  if (absl::Status st = CheckMoverAndOpponents(sheet, opponents, rules, last_round); !st.ok())
    Fail(ErrorCode::kBadPosition, std::string(st.message()));
}

}  // namespace penk::protocol
