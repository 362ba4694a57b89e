// The strength ladder (docs/AI.md, "Strength ladder"): each level's logistic
// Elo in two-player games against the reference level (greedy = 0), with
// its 95% interval, measured by a duplicate match (`penk match`). Served by
// the engine's hello (level_info[].elo, elo_ci95). The figures are data:
// data/ladder.json, written by `penk data ladder` from recorded `penk match
// --json` runs, each level with the source of its match (ai/data_source.h),
// compiled in and checked once here.
#ifndef PENK_AI_LADDER_H_
#define PENK_AI_LADDER_H_

#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "ai/data_source.h"
#include "nlohmann/json.hpp"

namespace penk {

inline constexpr char kLadderReference[] = "greedy";
// |Elo| beyond this is not a measurement (`penk match --json` writes an
// unbounded interval end as +-10000).
inline constexpr double kLadderMaxElo = 10000;

struct LadderLevel {
  std::string name;
  double elo = 0, elo_low = 0, elo_high = 0;  // over the reference
  double win_rate = 0;                        // its win share against the reference
  DataSource source;                          // the match; empty for the reference
};

struct Ladder {
  std::string rules;                // the rules of every match (FormatRules)
  std::vector<LadderLevel> levels;  // in the order of `names` given to ParseLadder
  // The level of this name, or nullptr.
  const LadderLevel* Find(absl::string_view name) const;
};

// Parses and checks the text of a ladder file named `file` (for errors):
// {"reference": "greedy", "rules": default rules, "levels": [{"name",
// "elo", "elo_ci95": [low, high], "win_rate", "source"}...]}. Every name of
// `names` but the reference has exactly one level, no other name is there,
// low <= elo <= high within +-kLadderMaxElo, win_rate in [0, 1], and the
// source is a `penk match` of the level against the reference. The
// reference is added at 0. Errors: one line naming the file and the field.
absl::StatusOr<Ladder> ParseLadder(absl::string_view text, absl::string_view file,
                                   const std::vector<std::string>& names);

// The ladder of data/ladder.json as compiled in, for the levels of kLevels
// (ai/bot.h), checked on first use; a damaged one ends the program
// (FailOnEmbeddedData) rather than serve other figures.
const Ladder& StrengthLadder();

// A level's entry of a ladder file, from the JSON of one recorded `penk match
// A B --json` run of a level against the reference (either order, default
// rules, two players; the Elo is turned to the level's side) and the date it
// was run. `file` names the run in errors.
absl::StatusOr<LadderLevel> LadderLevelOfMatch(absl::string_view match_json, absl::string_view file,
                                               const std::string& date);
// The text of a ladder file of these levels (the reference left out).
std::string LadderJson(const std::vector<LadderLevel>& levels);

}  // namespace penk

#endif  // PENK_AI_LADDER_H_
