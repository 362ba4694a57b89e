#include "ai/ladder.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "ai/bot.h"
#include "ai/embedded_data.h"
#include "engine/rules.h"

namespace penk {

using nlohmann::json;

const LadderLevel* Ladder::Find(absl::string_view name) const {
  for (const LadderLevel& l : levels)
    if (l.name == name) return &l;
  return nullptr;
}

namespace {

// The Elo and its interval of a level object (or of a match record) at `where`.
absl::Status ReadElo(const json& j, absl::string_view file, const std::string& where,
                     LadderLevel* out) {
  absl::StatusOr<double> elo = DataNumber(j, "elo", -kLadderMaxElo, kLadderMaxElo, file, where);
  if (!elo.ok()) return elo.status();
  const std::string at = absl::StrCat(where, where.empty() ? "" : ".", "elo_ci95");
  if (!j.contains("elo_ci95") || !j["elo_ci95"].is_array() || j["elo_ci95"].size() != 2 ||
      !j["elo_ci95"][0].is_number() || !j["elo_ci95"][1].is_number())
    return DataError(file, at, "missing, or not two numbers [low, high]");
  const double lo = j["elo_ci95"][0].get<double>(), hi = j["elo_ci95"][1].get<double>();
  if (!(lo >= -kLadderMaxElo && lo <= *elo && *elo <= hi && hi <= kLadderMaxElo))
    return DataError(file, at,
                     absl::StrCat("[", lo, ", ", hi, "] does not hold the Elo ", *elo,
                                  " within +-", kLadderMaxElo));
  out->elo = *elo;
  out->elo_low = lo;
  out->elo_high = hi;
  return absl::OkStatus();
}

// A name of kLevels for `name` or one of their aliases; "" if none.
std::string LevelName(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  for (const LevelInfo& l : kLevels)
    if (lower == l.name || (*l.alias && lower == l.alias)) return l.name;
  return "";
}

}  // namespace

absl::StatusOr<Ladder> ParseLadder(absl::string_view text, absl::string_view file,
                                   const std::vector<std::string>& names) {
  absl::StatusOr<json> parsed = ParseDataObject(text, file);
  if (!parsed.ok()) return parsed.status();
  const json& j = *parsed;
  for (const auto& [key, value] : j.items())
    if (key != "what" && key != "reference" && key != "rules" && key != "levels")
      return DataError(file, key, "unknown key");
  if (!j.contains("reference") || j["reference"] != kLadderReference)
    return DataError(file, "reference", absl::StrCat("must be \"", kLadderReference, "\""));
  if (!j.contains("rules") || j["rules"] != FormatRules(Rules{}))
    return DataError(file, "rules",
                     absl::StrCat("must be the default rules \"", FormatRules(Rules{}),
                                  "\" (the figures hello serves)"));
  if (!j.contains("levels") || !j["levels"].is_array())
    return DataError(file, "levels", "missing, or not an array");
  std::vector<LadderLevel> read;
  for (size_t i = 0; i < j["levels"].size(); ++i) {
    const json& l = j["levels"][i];
    const std::string where = absl::StrCat("levels[", i, "]");
    if (!l.is_object()) return DataError(file, where, "not an object");
    for (const auto& [key, value] : l.items())
      if (key != "name" && key != "elo" && key != "elo_ci95" && key != "win_rate" && key != "source")
        return DataError(file, absl::StrCat(where, ".", key), "unknown key");
    LadderLevel level;
    if (!l.contains("name") || !l["name"].is_string())
      return DataError(file, where + ".name", "missing, or not a string");
    level.name = l["name"].get<std::string>();
    if (level.name == kLadderReference)
      return DataError(file, where + ".name", "the reference is 0 by definition, not listed");
    if (std::find(names.begin(), names.end(), level.name) == names.end())
      return DataError(file, where + ".name", absl::StrCat("\"", level.name, "\" is not a level"));
    for (const LadderLevel& other : read)
      if (other.name == level.name)
        return DataError(file, where + ".name", absl::StrCat("\"", level.name, "\" twice"));
    if (absl::Status st = ReadElo(l, file, where, &level); !st.ok()) return st;
    absl::StatusOr<double> win = DataNumber(l, "win_rate", 0, 1, file, where);
    if (!win.ok()) return win.status();
    level.win_rate = *win;
    absl::StatusOr<DataSource> source =
        ParseDataSource(l.contains("source") ? l["source"] : json(), file, where + ".source",
                        absl::StrCat("penk match "));
    if (!source.ok()) return source.status();
    level.source = *std::move(source);
    // The match is this level's against the reference.
    const std::string& c = level.source.command;
    if (c.find(" " + level.name + " ") == std::string::npos ||
        c.find(absl::StrCat(" ", kLadderReference, " ")) == std::string::npos)
      return DataError(file, where + ".source.command",
                       absl::StrCat("is not a match of ", level.name, " and ", kLadderReference));
    read.push_back(std::move(level));
  }
  Ladder ladder;
  ladder.rules = j["rules"].get<std::string>();
  for (const std::string& name : names) {
    if (name == kLadderReference) {
      LadderLevel reference;
      reference.name = name;
      reference.win_rate = 0.5;
      ladder.levels.push_back(std::move(reference));
      continue;
    }
    auto it = std::find_if(read.begin(), read.end(), [&](const LadderLevel& l) { return l.name == name; });
    if (it == read.end()) return DataError(file, "levels", absl::StrCat("no entry for \"", name, "\""));
    ladder.levels.push_back(*it);
  }
  return ladder;
}

const Ladder& StrengthLadder() {
  static const Ladder ladder = [] {
    std::vector<std::string> names;
    for (const LevelInfo& l : kLevels) names.push_back(l.name);
    absl::StatusOr<Ladder> l = ParseLadder(EmbeddedLadderJson(), kLadderFile, names);
    if (!l.ok()) FailOnEmbeddedData(l.status().message());
    return *std::move(l);
  }();
  return ladder;
}

absl::StatusOr<LadderLevel> LadderLevelOfMatch(absl::string_view match_json, absl::string_view file,
                                               const std::string& date) {
  absl::StatusOr<json> parsed = ParseDataObject(match_json, file);
  if (!parsed.ok()) return parsed.status();
  const json& j = *parsed;
  if (!j.contains("players") || !j["players"].is_array() || j["players"].size() != 2)
    return DataError(file, "players", "not a two-player match (penk match A B --json)");
  std::string names[2];
  for (int i = 0; i < 2; ++i) {
    const json& p = j["players"][i];
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string())
      return DataError(file, absl::StrCat("players[", i, "].name"), "missing");
    names[i] = p["name"].get<std::string>();
  }
  const int ref = LevelName(names[0]) == kLadderReference ? 0
                  : LevelName(names[1]) == kLadderReference ? 1 : -1;
  if (ref < 0)
    return DataError(file, "players", absl::StrCat("neither player is the reference, ", kLadderReference));
  LadderLevel level;
  level.name = LevelName(names[1 - ref]);
  if (level.name.empty() || level.name == kLadderReference)
    return DataError(file, "players",
                     absl::StrCat("\"", names[1 - ref], "\" is not a level of its own (ai/bot.h kLevels)"));
  if (!j.contains("rules") || j["rules"] != FormatRules(Rules{}))
    return DataError(file, "rules", "missing, or not the default rules (the ladder's)");
  LadderLevel first_side;  // the Elo as recorded: the first player's over the second
  if (absl::Status st = ReadElo(j, file, "", &first_side); !st.ok()) return st;
  absl::StatusOr<double> win = DataNumber(j["players"][1 - ref], "win_rate", 0, 1, file,
                                          absl::StrCat("players[", 1 - ref, "]"));
  if (!win.ok()) return win.status();
  level.win_rate = *win;
  if (ref == 1) {
    level.elo = first_side.elo, level.elo_low = first_side.elo_low, level.elo_high = first_side.elo_high;
  } else {
    level.elo = -first_side.elo, level.elo_low = -first_side.elo_high, level.elo_high = -first_side.elo_low;
  }
  for (const char* key : {"seed", "games"})
    if (!j.contains(key) || !j[key].is_number_integer())
      return DataError(file, key, "missing, or not an integer (a penk match --json record)");
  DataSource s;
  s.seed = j["seed"].get<uint64_t>();
  s.games = j["games"].get<int64_t>();
  s.date = date;
  s.command = absl::StrCat("penk match ", names[0], " ", names[1], " --games ", s.games, " --seed ",
                           s.seed, " --json");
  // The record is written back through the file's own check.
  json source = json::parse(DataSourceJson(s).dump());
  absl::StatusOr<DataSource> checked = ParseDataSource(source, file, "source", "penk match ");
  if (!checked.ok()) return checked.status();
  level.source = *std::move(checked);
  return level;
}

std::string LadderJson(const std::vector<LadderLevel>& levels) {
  nlohmann::ordered_json j = {
      {"what", "The strength ladder served by the engine's hello (level_info[].elo, elo_ci95): "
               "logistic Elo in two-player duplicate matches against greedy = 0, each level its "
               "own match (docs/AI.md, Strength ladder). Written by `penk data ladder`; do not "
               "edit by hand."},
      {"reference", kLadderReference},
      {"rules", FormatRules(Rules{})},
      {"levels", nlohmann::ordered_json::array()}};
  for (const LadderLevel& l : levels) {
    if (l.name == kLadderReference) continue;
    j["levels"].push_back({{"name", l.name},
                           {"elo", l.elo},
                           {"elo_ci95", {l.elo_low, l.elo_high}},
                           {"win_rate", l.win_rate},
                           {"source", DataSourceJson(l.source)}});
  }
  return j.dump(2) + "\n";
}

}  // namespace penk
