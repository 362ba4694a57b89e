#include "ai/data_source.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"

namespace penk {

using nlohmann::json;

absl::Status DataError(absl::string_view file, absl::string_view where, absl::string_view what) {
  return absl::InvalidArgumentError(
      where.empty() ? absl::StrCat(file, ": ", what) : absl::StrCat(file, ": ", where, ": ", what));
}

bool IsCalendarDate(absl::string_view d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  int y, m, day;
  if (!absl::SimpleAtoi(d.substr(0, 4), &y) || !absl::SimpleAtoi(d.substr(5, 2), &m) ||
      !absl::SimpleAtoi(d.substr(8, 2), &day))
    return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (d[i] < '0' || d[i] > '9') return false;
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || day < 1 || day > kDays[m - 1]) return false;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && day == 29 && !leap);
}

absl::StatusOr<double> DataNumber(const json& j, absl::string_view key, double lo, double hi,
                                  absl::string_view file, absl::string_view where) {
  const std::string at = absl::StrCat(where, where.empty() ? "" : ".", key);
  if (!j.is_object() || !j.contains(std::string(key))) return DataError(file, at, "missing");
  const json& v = j[std::string(key)];
  if (!v.is_number()) return DataError(file, at, absl::StrCat("not a number: ", v.dump()));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi)
    return DataError(file, at, absl::StrCat(v.dump(), " is outside ", lo, "..", hi));
  return x;
}

absl::StatusOr<json> ParseDataObject(absl::string_view text, absl::string_view file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return DataError(file, "", absl::StrCat("not valid JSON (", e.what(), ")"));
  }
  if (!j.is_object()) return DataError(file, "", "not a JSON object");
  return j;
}

absl::StatusOr<DataSource> ParseDataSource(const json& j, absl::string_view file,
                                           absl::string_view where,
                                           absl::string_view command_prefix) {
  if (!j.is_object()) return DataError(file, where, "missing, or not an object");
  for (const auto& [key, value] : j.items())
    if (key != "command" && key != "seed" && key != "games" && key != "date" && key != "note")
      return DataError(file, absl::StrCat(where, ".", key), "unknown key");
  DataSource s;
  const std::string at_command = absl::StrCat(where, ".command");
  if (!j.contains("command") || !j["command"].is_string())
    return DataError(file, at_command, "missing, or not a string");
  s.command = j["command"].get<std::string>();
  if (!absl::StartsWith(s.command, command_prefix) || absl::StrContains(s.command, "\n"))
    return DataError(file, at_command,
                     absl::StrCat("not one line starting with \"", command_prefix, "\""));
  const std::string at_seed = absl::StrCat(where, ".seed");
  if (!j.contains("seed") || !j["seed"].is_number_integer() || j["seed"].get<int64_t>() < 0)
    return DataError(file, at_seed, "missing, or not an integer >= 0");
  s.seed = j["seed"].get<uint64_t>();
  const std::string at_games = absl::StrCat(where, ".games");
  if (!j.contains("games") || !j["games"].is_number_integer() || j["games"].get<int64_t>() < 1)
    return DataError(file, at_games, "missing, or not an integer >= 1");
  s.games = j["games"].get<int64_t>();
  const std::string at_date = absl::StrCat(where, ".date");
  if (!j.contains("date") || !j["date"].is_string() ||
      !IsCalendarDate(j["date"].get<std::string>()))
    return DataError(file, at_date, "missing, or not a date YYYY-MM-DD");
  s.date = j["date"].get<std::string>();
  // The command is the run's: its seed and games are the ones recorded.
  for (const std::string& flag : {absl::StrCat(" --seed ", s.seed, " "), absl::StrCat(" --games ", s.games, " ")})
    if (!absl::StrContains(absl::StrCat(s.command, " "), flag))
      return DataError(file, at_command, absl::StrCat("does not say", flag.substr(0, flag.size() - 1),
                                                      " as the record does"));
  if (j.contains("note")) {
    if (!j["note"].is_string()) return DataError(file, absl::StrCat(where, ".note"), "not a string");
    s.note = j["note"].get<std::string>();
  }
  return s;
}

nlohmann::ordered_json DataSourceJson(const DataSource& s) {
  nlohmann::ordered_json j = {
      {"command", s.command}, {"seed", s.seed}, {"games", s.games}, {"date", s.date}};
  if (!s.note.empty()) j["note"] = s.note;
  return j;
}

}  // namespace penk
