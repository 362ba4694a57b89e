// The texts a request gives (docs/RULES.md R7: sheets, rolls, rules,
// objectives, seats), parsed or refused with an EngineError naming what was
// wrong: shared by the protocol and the C API.
#ifndef PENK_PROTOCOL_INPUTS_H_
#define PENK_PROTOCOL_INPUTS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/dice.h"
#include "engine/rules.h"
#include "engine/sheet.h"
#include "protocol/errors.h"
#include "solver/objective.h"

namespace penk::protocol {

// Lower case, surrounding blanks dropped: how seat and level names compare.
std::string LowerStripped(absl::string_view s);

// Parsers shared by the protocol and the C API; throw EngineError(kBadPosition).
Sheet SheetOrThrow(absl::string_view text);
Dice RollOrThrow(absl::string_view text);
Rules RulesOrThrow(absl::string_view text);
Objective ObjectiveOrThrow(absl::string_view text);
// The mover's sheet and the opponents' as one game's sheets
// (engine/position_check.h), and last_round only with two closed columns
// somewhere (R5.2); throws kBadPosition naming the sheet and line.
void CheckSheetsOrThrow(const Sheet& sheet, const std::vector<Sheet>& opponents, const Rules& rules,
                        bool last_round);
// "human,greedy" or a list -> validated lower-case seat names.
std::vector<std::string> SeatsOrThrow(const std::vector<std::string>& names,
                                      const std::vector<std::string>& levels);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_INPUTS_H_
