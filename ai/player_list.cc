#include "ai/player_list.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ai/bot.h"
#include "engine/quoted_input.h"

namespace penk {

std::string AllowedPlayerNames(bool allow_human) {
  return absl::StrCat(allow_human ? "human, " : "",
                      "bot, greedy, random, solitaire (= optimal), expert, neural, master");
}

absl::StatusOr<std::vector<std::string>> ParsePlayerList(absl::string_view text,
                                                         const PlayerListBounds& bounds) {
  return ParsePlayerList(std::vector<std::string>{std::string(text)}, bounds);
}

absl::StatusOr<std::vector<std::string>> ParsePlayerList(const std::vector<std::string>& items,
                                                         const PlayerListBounds& bounds) {
  const std::string given = absl::StrJoin(items, ",");
  std::vector<std::string> names;
  for (const std::string& item : items)
    for (absl::string_view part : absl::StrSplit(item, ',')) {
      std::string name = absl::AsciiStrToLower(absl::StripAsciiWhitespace(part));
      if (name.empty())
        return absl::InvalidArgumentError(
            absl::StrCat("empty entry in ", QuotedInput(given), "; give ", bounds.min_players, "-",
                         bounds.max_players, " comma-separated names from ",
                         AllowedPlayerNames(bounds.allow_human)));
      if (name == "human" && bounds.allow_human) {
        names.push_back(name);
        continue;
      }
      // A known player with bad options is named by its own parser.
      if (absl::Status st = CheckBotName(name); !st.ok())
        return absl::InvalidArgumentError(
            absl::StartsWith(name, "expert:") || absl::StartsWith(name, "master:")
                ? std::string(st.message())
                : absl::StrCat("unknown player ", QuotedInput(name), "; allowed: ",
                               AllowedPlayerNames(bounds.allow_human)));
      names.push_back(name);
    }
  const int n = static_cast<int>(names.size());
  if (n < bounds.min_players || n > bounds.max_players)
    return absl::InvalidArgumentError(absl::StrCat("a game here has ", bounds.min_players, " to ",
                                                   bounds.max_players, " players (R1.4); got ", n,
                                                   " in ", QuotedInput(given)));
  return names;
}

}  // namespace penk
