#include "tables/table_store.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "solver/work_progress.h"
#include "tables/progress_line.h"
#include "tables/table_file.h"

namespace penk {

std::string DefaultTableDir() {
  if (const char* dir = std::getenv("PENK_TABLE_DIR"); dir && *dir) return dir;
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "tables";
  return (exe.parent_path() / "tables").string();
}

std::string TablePathIn(const std::string& dir, const Rules& rules, uint32_t blocked_rows,
                        Objective objective) {
  const std::string blocked = BlockedRowsDigits(blocked_rows);
  return (std::filesystem::path(dir) /
          absl::StrCat("solitaire_", absl::StrReplaceAll(FormatRules(rules), {{",", "_"}}),
                       blocked.empty() ? "" : "_blocked=", blocked,
                       objective.is_target() ? "_" : "",
                       objective.is_target() ? FormatObjective(objective) : "", ".penktable"))
      .string();
}

std::string DefaultTablePath(const Rules& rules, uint32_t blocked_rows, Objective objective) {
  return TablePathIn(DefaultTableDir(), rules, blocked_rows, objective);
}

BuildProgress ProgressBar(const std::string& label) {
  auto line = std::make_shared<ProgressLine>(label, "positions");
  return [line](int64_t done, int64_t total) { line->Update(done, total); };
}

BuildProgress WatchedProgress(const std::string& what, bool show_progress,
                              const std::string& label) {
  BuildProgress bar = show_progress ? ProgressBar(label) : BuildProgress{};
  // The builder may call from any of its threads: the watcher is taken now,
  // on the thread that asked for the build.
  WorkProgress* watcher = CurrentWorkProgress();
  if (!watcher) return bar;
  watcher->Set(what, 0, 0);
  return [bar, watcher, what](int64_t done, int64_t total) {
    if (bar) bar(done, total);
    watcher->Update(done, total);
  };
}

SolitaireTable BuildTableWithProgress(const Rules& rules, int max_free, bool show_progress,
                                      uint32_t blocked_rows, Objective objective) {
  const std::string what = absl::StrCat(
      "building table ", DescribeTableKey(TableKey{rules, blocked_rows, "", objective}));
  return BuildSolitaireTable(rules, max_free, WatchedProgress(what, show_progress, ""),
                             blocked_rows, objective);
}

absl::Status FolderWritable(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  // A probe file, not access(2): root passes access() on a read-only mount.
  const std::string probe =
      (std::filesystem::path(dir) / absl::StrCat(".penk-write-probe-", getpid())).string();
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (f == nullptr)
    return absl::UnavailableError(absl::StrCat(dir, " is not writable: ", std::strerror(errno)));
  std::fclose(f);
  std::filesystem::remove(probe, ec);
  return absl::OkStatus();
}

std::string TableBuildCommand(const Rules& rules, Objective objective, const std::string& dir) {
  return absl::StrCat(
      "penk tables build --all --rules ", FormatRules(rules),
      objective.is_target() ? absl::StrCat(" --objective ", FormatObjective(objective)) : "",
      " --table-dir ", dir);
}

absl::StatusOr<SolitaireTable> LoadOrBuildDefaultTable(const Rules& rules, const std::string& dir_arg,
                                                       uint32_t blocked_rows, bool allow_build,
                                                       Objective objective) {
  return LoadOrBuildDefaultTable(rules, dir_arg, blocked_rows, BuildPolicy::All(allow_build),
                                 objective);
}

absl::StatusOr<SolitaireTable> LoadOrBuildDefaultTable(const Rules& rules, const std::string& dir_arg,
                                                       uint32_t blocked_rows,
                                                       const BuildPolicy& policy,
                                                       Objective objective) {
  const std::string dir = dir_arg.empty() ? DefaultTableDir() : dir_arg;
  const std::string path = TablePathIn(dir, rules, blocked_rows, objective);
  absl::StatusOr<SolitaireTable> read = ReadTable(path, rules, blocked_rows, objective);
  // Only a missing file, or a build output of an older penk, is (re)built.
  bool missing = read.status().code() == absl::StatusCode::kNotFound;
  // A missing file may be had from the policy's source (the host of the
  // static site); one it gives that is refused is not kept, but built.
  if (missing && policy.Fetched(dir, path)) {
    read = ReadTable(path, rules, blocked_rows, objective);
    if (read.ok() && read->max_free() == kRows * kColumns) return read;
    ProgressLine::Message(stderr, absl::StrCat("penk: the table fetched to ", path, " is refused (",
                                               read.ok() ? "a partial table" : read.status().message(),
                                               "); building it instead"));
    std::error_code ec;
    std::filesystem::remove(path, ec);
    read = absl::NotFoundError(absl::StrCat("no table at ", path));
  }
  // A partial table (`tables build --max-free N --out F`) is never the
  // default: its gaps would be errors in the middle of a game. It is the
  // user's file, so it is refused, not rebuilt over.
  if (read.ok() && read->max_free() < kRows * kColumns)
    return absl::FailedPreconditionError(absl::StrCat(
        path, " is a partial table (positions with at most ", read->max_free(),
        " free cells), not the full table this default path holds: remove it so penk builds "
        "the full one, or name a partial table as a file of its own (--table, the protocol's "
        "\"table\" field)"));
  if (read.ok() || !(missing || IsOtherTableFormat(read.status()))) return read;
  const absl::Status may = policy.MayBuild(TableKey{rules, blocked_rows, "", objective}, dir,
                                           TableBuildCommand(rules, objective, dir));
  if (!may.ok())
    return absl::NotFoundError(absl::StrCat(missing ? "no table at " : "an older penk's table at ",
                                            path, " and ", may.message()));
  // A folder we cannot write is said before the build, not after: every
  // process would build again while promising "once".
  const absl::Status writable = FolderWritable(dir);
  // A blocked-row table comes with the others a game with opponents needs
  // (up to 31 per rule set): the command that makes them all at once is
  // named, so a first use need not stall on them one by one (issue 22).
  const std::string all =
      blocked_rows ? absl::StrCat("; games with opponents need up to 31 such tables: make them "
                                  "all at once with: ", TableBuildCommand(rules, objective, dir))
                   : "";
  // Above any progress bar on stderr, not through it (ProgressLine).
  if (writable.ok())
    ProgressLine::Message(stderr, absl::StrCat("penk: no table at ", path,
                                               "; building it (once, a few seconds)", all));
  else
    ProgressLine::Message(
        stderr, absl::StrCat("penk: no table at ", path, "; building it for this process only (",
                             writable.message(),
                             "); make the tables once in a writable folder (PENK_TABLE_DIR) with: ",
                             TableBuildCommand(rules, objective, "DIR")));
  SolitaireTable table =
      BuildTableWithProgress(rules, kRows * kColumns, isatty(2), blocked_rows, objective);
  if (writable.ok()) {
    const absl::Status saved = WriteTable(table, path);
    if (!saved.ok())
      std::fprintf(stderr, "penk: warning: %s; the table is used but not saved\n",
                   std::string(saved.message()).c_str());
  }
  return table;
}

absl::StatusOr<SolitaireTable> LoadOrBuildTable(const Rules& rules, const std::string& path,
                                                 uint32_t blocked_rows, Objective objective) {
  if (path.empty()) return LoadOrBuildDefaultTable(rules, "", blocked_rows, true, objective);
  absl::StatusOr<SolitaireTable> table = ReadTable(path, rules, blocked_rows, objective);
  if (table.status().code() == absl::StatusCode::kNotFound)  // a named file is never made here
    return absl::NotFoundError(absl::StrCat(
        table.status().message(), " (make one with: penk tables build --out ", path, " --rules ",
        FormatRules(rules),
        objective.is_target() ? absl::StrCat(" --objective ", FormatObjective(objective)) : "",
        ")"));
  return table;
}

TableLoader FileTableLoader(const std::string& dir, bool allow_build) {
  return FileTableLoader(dir, BuildPolicy::All(allow_build));
}

TableLoader FileTableLoader(const std::string& dir, BuildPolicy policy) {
  return [dir, policy = std::move(policy)](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
    if (!key.file.empty()) return ReadTable(key.file, key.rules, key.blocked_rows, key.objective);
    return LoadOrBuildDefaultTable(key.rules, dir, key.blocked_rows, policy, key.objective);
  };
}

std::vector<uint32_t> BlockedRowSets(const Rules& rules) {
  std::vector<uint32_t> sets;
  for (uint32_t b = 0; b < (rules.penk_rows ? 32u : 1u); ++b) sets.push_back(b);
  return sets;
}

}  // namespace penk
