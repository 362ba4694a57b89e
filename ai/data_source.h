// Where a measured figure served as data came from (issue 24, item 5): the
// strength ladder (ai/ladder.h, data/ladder.json) and the calibration map
// (ai/calibration_map.h, data/calibration.json) are files written by `penk
// data` from a recorded run, each with the command that reproduces the run,
// its seed, its games and the date it was run. The same object, with the
// same checks, in both files: this file reads and writes it.
#ifndef PENK_AI_DATA_SOURCE_H_
#define PENK_AI_DATA_SOURCE_H_

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace penk {

struct DataSource {
  std::string command;  // the `penk ...` command of the run, reproducible
  uint64_t seed = 0;
  int64_t games = 0;
  std::string date;     // YYYY-MM-DD, when the run was made
  std::string note;     // optional: anything a reader should know of it
};

// An error in data file `file` at `where` (a JSON path, e.g. "levels[2].elo"):
// one line, "FILE: WHERE: WHAT", for every refusal of these files.
absl::Status DataError(absl::string_view file, absl::string_view where, absl::string_view what);

// Parses and checks `j` (the "source" object of `file`, at `where`): command
// a non-empty line starting with `command_prefix` (e.g. "penk match "), seed
// an integer >= 0, games an integer >= 1 (both as written in the command), date a calendar date YYYY-MM-DD,
// note (if present) a string; no other keys.
absl::StatusOr<DataSource> ParseDataSource(const nlohmann::json& j, absl::string_view file,
                                           absl::string_view where,
                                           absl::string_view command_prefix);
nlohmann::ordered_json DataSourceJson(const DataSource& source);

// Whether `date` is YYYY-MM-DD with a month 1-12 and a day the month has.
bool IsCalendarDate(absl::string_view date);

// A number of `j` at `key`: present, finite, within [lo, hi].
absl::StatusOr<double> DataNumber(const nlohmann::json& j, absl::string_view key, double lo,
                                  double hi, absl::string_view file, absl::string_view where);

// `text` parsed as one JSON object, or the parser's complaint with the file.
absl::StatusOr<nlohmann::json> ParseDataObject(absl::string_view text, absl::string_view file);

}  // namespace penk

#endif  // PENK_AI_DATA_SOURCE_H_
