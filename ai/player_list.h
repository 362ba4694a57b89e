// The one parser of a list of players, "human,expert,greedy" (issue 24: six
// doors had a parser each): `penk play`, `simulate`, `match`, `calibrate`.
// Names are lower-cased and stripped; each must be a player MakeBot makes,
// options included ("expert:lambda=2", checked by that player's own parser),
// or "human" where a door seats people. The engine protocol accepts seats
// from its session's level list only (protocol/inputs.h SeatsOrThrow).
#ifndef PENK_AI_PLAYER_LIST_H_
#define PENK_AI_PLAYER_LIST_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/game.h"

namespace penk {

struct PlayerListBounds {
  bool allow_human = false;
  int min_players = 1;
  int max_players = kMaxPlayers;  // R1.4
};

// Every AI player name a list may hold, for messages: "bot, greedy, ...".
std::string AllowedPlayerNames(bool allow_human);

// Comma-separated names, or the items of a list (each may itself hold
// commas). InvalidArgument names the entry that is wrong and what is allowed.
absl::StatusOr<std::vector<std::string>> ParsePlayerList(absl::string_view text,
                                                         const PlayerListBounds& bounds);
absl::StatusOr<std::vector<std::string>> ParsePlayerList(const std::vector<std::string>& items,
                                                         const PlayerListBounds& bounds);

}  // namespace penk

#endif  // PENK_AI_PLAYER_LIST_H_
