// A game as a record (issue 22 item 3, docs/PROTOCOL.md "The game record"):
// the whole game -- rules, seats, seed, dice source, the position it was set
// up from, every step -- as versioned JSON, written by `export` and
// `penk play --save`, and read back by new_game's "record" and `penk play
// --load`, which replay the steps so that the game, its history and its undo
// are what they were.
//
//   {"format":"penk-game","version":1,"rules":"line-min=3,penk-lines=all",
//    "players":["human","expert"],"seed":123,"dice":"engine",
//    "position":{...},                  // only for a game set up part-way
//    "steps":[{"action":"333J"},{"roll":"11335J"},...]}
//
// With the engine's dice the rolls are not steps: the seed and the decisions
// give them again (the generator is part of the game). Steps taken back by
// undo are not in the record.
#ifndef PENK_PROTOCOL_GAME_RECORD_JSON_H_
#define PENK_PROTOCOL_GAME_RECORD_JSON_H_

#include <cstddef>
#include <cstdint>

#include "nlohmann/json.hpp"
#include "protocol/session.h"

namespace penk::protocol {

inline constexpr const char* kRecordFormat = "penk-game";
inline constexpr int kRecordVersion = 1;
// A game has at most a few hundred steps (4 seats x 25 turns, R3.6, each at
// most 3 rolls, 2 keeps and a marking, R2.2, R3): more is not a game.
inline constexpr size_t kMaxRecordSteps = 10'000;
// The record of `g`: its seats, seed, rules, dice source, its position as
// given (if any) and the steps undo can take back.
nlohmann::ordered_json GameRecordJson(const GameSession& g);

// The game `record` describes, as new_game would make it (seats checked
// against `s`'s levels, the position checked), with every step replayed.
// Throws EngineError: bad_field (not a record, unknown format or version,
// a missing, unknown or ill-typed field, more than kMaxRecordSteps steps),
// unknown_level (a seat), bad_position (rules, position, a roll that is not
// six dice), illegal_action (a step not legal there); the message starts
// with "record: " and names the step ("record: step 12 (action \"5:5\"): ...").
GameSession RestoreGame(Session& s, const nlohmann::ordered_json& record);

}  // namespace penk::protocol

#endif  // PENK_PROTOCOL_GAME_RECORD_JSON_H_
