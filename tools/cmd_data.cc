// `penk data`: the measured figures the program serves, as data files with
// their source (issue 24, item 5; ai/ladder.h, ai/calibration_data.h).
//
//   penk data ladder --out FILE [--date YYYY-MM-DD] [--note TEXT] [--keep OLD] MATCH.json...
//   penk data calibration --out FILE [--date YYYY-MM-DD] [--note TEXT] CALIBRATE.json
//   penk data check
//
// `ladder` writes the strength ladder from recorded `penk match A greedy
// --json` runs (one per level); `calibration` writes the calibration map
// from a recorded `penk calibrate --json` run (its fit). Each figure keeps
// the command that reproduces its run, the seed, the games and the date
// (--date: when the run was made; default today, UTC). The file written is
// read back through the same check the program applies to it, and only
// then moved into place. `check` prints the compiled-in files' figures and
// sources (penk checks them at every start; the build runs this).
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ai/bot.h"
#include "ai/calibration_data.h"
#include "ai/embedded_data.h"
#include "ai/ladder.h"
#include "ai/neural_default.h"
#include "nlohmann/json.hpp"
#include "engine/quoted_input.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct DataArgs {
  std::string out, date, note, keep, estimate = "expert";
  std::vector<std::string> runs;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError{absl::StrCat("cannot read ", QuotedInput(path))};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string RunDate(const std::string& date) {
  if (!date.empty()) {
    if (!IsCalendarDate(date))
      throw UsageError{absl::StrCat("--date must be YYYY-MM-DD; got ", QuotedInput(date))};
    return date;
  }
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
  return text;
}

std::vector<std::string> LevelNames() {
  std::vector<std::string> names;
  for (const LevelInfo& l : kLevels) names.push_back(l.name);
  return names;
}

void RunLadder(const DataArgs& a) {
  const std::string date = RunDate(a.date);
  std::vector<LadderLevel> levels;
  for (const std::string& run : a.runs) {
    levels.push_back(OrFail(LadderLevelOfMatch(ReadFile(run), run, date)));
    levels.back().source.note = a.note;
  }
  if (!a.keep.empty()) {
    // The recorded entries (with their sources) of the levels no run is
    // given for: a new level is measured without re-running the others.
    const std::string old = ReadFile(a.keep);
    std::vector<std::string> names{kLadderReference};
    try {
      const nlohmann::json parsed = nlohmann::json::parse(old);
      for (const auto& l : parsed.at("levels")) names.push_back(l.at("name").get<std::string>());
    } catch (const std::exception& e) {
      throw UsageError{absl::StrCat("--keep ", QuotedInput(a.keep), ": not a ladder file: ", e.what())};
    }
    const Ladder kept = OrFail(ParseLadder(old, a.keep, names));
    for (const LadderLevel& l : kept.levels) {
      if (l.name == kLadderReference) continue;
      bool measured = false;
      for (const LadderLevel& m : levels) measured = measured || m.name == l.name;
      if (!measured) levels.push_back(l);
    }
    // In the order of the levels (kLevels), as the file lists them.
    const std::vector<std::string> order = LevelNames();
    std::stable_sort(levels.begin(), levels.end(), [&](const LadderLevel& x, const LadderLevel& y) {
      return std::find(order.begin(), order.end(), x.name) < std::find(order.begin(), order.end(), y.name);
    });
  }
  const std::string text = LadderJson(levels);
  const Ladder checked = OrFail(ParseLadder(text, a.out, LevelNames()));
  WriteFileAtomically(a.out, text);
  std::printf("%s: %zu levels over %s\n", a.out.c_str(), checked.levels.size() - 1, kLadderReference);
}

void RunCalibration(const DataArgs& a) {
  if (a.runs.size() != 1) throw UsageError{"penk data calibration takes one penk calibrate --json record"};
  if (a.estimate != "expert" && a.estimate != "neural")
    throw UsageError{absl::StrCat("--estimate must be expert or neural; got ", QuotedInput(a.estimate))};
  CalibrationData d = OrFail(CalibrationDataOfRun(
      ReadFile(a.runs[0]), a.runs[0], RunDate(a.date),
      a.estimate == "neural" ? CalibratedEstimate::kNeural : CalibratedEstimate::kExpert));
  d.source.note = a.note;
  const std::string text = CalibrationDataJson(d);
  OrFail(ParseCalibrationData(text, a.out).status());
  WriteFileAtomically(a.out, text);
  std::printf("%s: maps for 2-4 players fitted on %lld positions\n", a.out.c_str(),
              static_cast<long long>(d.positions));
}

void PrintSource(const DataSource& s) {
  std::printf("    %s  (seed %llu, %lld games, run %s)%s%s\n", s.command.c_str(),
              static_cast<unsigned long long>(s.seed), static_cast<long long>(s.games),
              s.date.c_str(), s.note.empty() ? "" : "; ", s.note.c_str());
}

void RunCheck() {
  // StrengthLadder and FittedCalibration end the program on a damaged file;
  // reaching the prints means both passed.
  const Ladder& ladder = StrengthLadder();
  const CalibrationData calibration =
      OrFail(ParseCalibrationData(EmbeddedCalibrationJson(), kCalibrationFile));
  std::printf("%s: ok, logistic Elo over %s (rules %s)\n", kLadderFile, kLadderReference,
              ladder.rules.c_str());
  for (const LadderLevel& l : ladder.levels) {
    if (l.name == kLadderReference) continue;
    std::printf("  %-10s %+6.0f [%+.0f, %+.0f]\n", l.name.c_str(), l.elo, l.elo_low, l.elo_high);
    PrintSource(l.source);
  }
  std::printf("%s: ok, maps for 2-4 players fitted on %lld positions\n", kCalibrationFile,
              static_cast<long long>(calibration.positions));
  PrintSource(calibration.source);
  const CalibrationData neural_calibration =
      OrFail(ParseCalibrationData(EmbeddedNeuralCalibrationJson(), kNeuralCalibrationFile));
  FittedNeuralCalibration();  // its estimate checked too
  std::printf("%s: ok, maps of the neural figure for 2-4 players fitted on %lld positions\n",
              kNeuralCalibrationFile, static_cast<long long>(neural_calibration.positions));
  PrintSource(neural_calibration.source);
  // The neural player's net (issue 21): every check of its loader, so that a
  // damaged data/neural.penknet fails the build too.
  const std::shared_ptr<const NeuralNet> net = OrFail(BuiltInNeuralNet());
  std::printf("%s: ok, layout %u, %d-%d-%d-%d, checksum %016llx\n", kNeuralNetFile, net->layout(),
              net->inputs(), net->hidden1(), net->hidden2(), kNeuralOutputs,
              static_cast<unsigned long long>(net->checksum()));
}

// A writing subcommand: its recorded runs, the file it writes, the runs'
// date and note (the same options for every data file).
void AddWriter(CLI::App* data, const char* name, const char* what, const char* runs_help,
               const char* file, void (*run)(const DataArgs&)) {
  auto args = std::make_shared<DataArgs>();
  CLI::App* w = data->add_subcommand(name, what);
  w->add_option("runs", args->runs, runs_help)->required();
  w->add_option("--out", args->out, absl::StrCat("the file to write (", file, ")"))->required();
  w->add_option("--date", args->date, "the date the runs were made, YYYY-MM-DD (default today, UTC)");
  w->add_option("--note", args->note, "anything a reader should know of the runs, kept in each source");
  if (run == RunLadder)
    w->add_option("--keep", args->keep,
                  "a ladder file whose entries are kept for the levels no run is given for");
  if (run == RunCalibration)
    w->add_option("--estimate", args->estimate,
                  "the figure mapped: expert (data/calibration.json) or neural "
                  "(data/neural_calibration.json, the run's neural_fit)")
        ->default_val("expert");
  w->callback([args, run] { run(*args); });
}

}  // namespace

void RegisterData(CLI::App& app) {
  CLI::App* data = app.add_subcommand(
      "data", "write or check the measured figures served as data (data/ladder.json, "
              "data/calibration.json, data/neural.penknet), each with the source of its run");
  data->require_subcommand(1);
  AddWriter(data, "ladder", "write the strength ladder from recorded `penk match LEVEL greedy --json` runs",
            "one penk match --json record per level but greedy", kLadderFile, RunLadder);
  AddWriter(data, "calibration", "write the calibration map from a recorded `penk calibrate --json` run",
            "the penk calibrate --json record (one)", kCalibrationFile, RunCalibration);
  CLI::App* check = data->add_subcommand(
      "check", "check the compiled-in data files and print their figures and sources");
  check->callback([] { RunCheck(); });
}

}  // namespace penk::cli
