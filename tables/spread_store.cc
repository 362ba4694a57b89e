#include "tables/spread_store.h"

#include <cstdio>
#include <filesystem>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tables/progress_line.h"
#include "tables/table_file.h"
#include "tables/table_store.h"

namespace penk {

std::string SpreadPathFor(const std::string& value_path) {
  constexpr absl::string_view kValueSuffix = ".penktable";
  if (absl::EndsWith(value_path, kValueSuffix))
    return absl::StrCat(value_path.substr(0, value_path.size() - kValueSuffix.size()),
                        ".penkspread");
  return absl::StrCat(value_path, ".spread");
}

std::string MeanPathFor(const std::string& value_path) {
  constexpr absl::string_view kValueSuffix = ".penktable";
  if (absl::EndsWith(value_path, kValueSuffix))
    return absl::StrCat(value_path.substr(0, value_path.size() - kValueSuffix.size()),
                        ".penkmean");
  return absl::StrCat(value_path, ".mean");
}

namespace {

// One array in the table file layout, with the spread table's identity
// (rules, depth, blocked rows, objective) in its header.
absl::Status WriteArray(const SpreadTable& spreads, uint64_t magic,
                        const std::vector<double>& values, const std::string& path) {
  TableHeader h;
  h.magic = magic;
  h.line_min = spreads.rules().line_min;
  h.penk_rows = spreads.rules().penk_rows;
  h.state_count = values.size();
  h.max_free = spreads.max_free();
  h.blocked_rows = spreads.blocked_rows();
  h.objective = static_cast<uint32_t>(spreads.objective().target + 1);
  h.checksum = TableChecksum(h, values);
  return WriteTableFile(h, values, path);
}

}  // namespace

absl::Status WriteSpreadTable(const SpreadTable& spreads, const std::string& path,
                              const std::string& mean_path) {
  if (spreads.objective().is_target()) {
    if (mean_path.empty())
      return absl::InvalidArgumentError("a target objective's spread table needs its mean table's path");
    if (absl::Status s = WriteArray(spreads, kMeanMagic, spreads.means(), mean_path); !s.ok())
      return s;
  }
  return WriteArray(spreads, kSpreadMagic, spreads.variances(), path);
}

absl::StatusOr<SpreadTable> ReadSpreadTable(const std::string& path, const Rules& rules,
                                            uint32_t blocked_rows, Objective objective,
                                            const std::string& mean_path) {
  absl::StatusOr<SolitaireTable> t = ReadTable(path, rules, blocked_rows, objective, kSpreadMagic);
  if (!t.ok()) return t.status();
  std::vector<double> means;
  if (objective.is_target()) {
    if (mean_path.empty())
      return absl::InvalidArgumentError("a target objective's spread table needs its mean table");
    absl::StatusOr<SolitaireTable> m =
        ReadTable(mean_path, rules, blocked_rows, objective, kMeanMagic);
    if (!m.ok()) return m.status();
    if (m->max_free() != t->max_free())
      return absl::InvalidArgumentError(absl::StrCat(
          "the mean table ", mean_path, " is solved to depth ", m->max_free(),
          ", its spread table ", path, " to ", t->max_free(), ": rebuild both"));
    means = std::move(const_cast<std::vector<double>&>(m->values()));
  }
  return SpreadTable(rules, t->max_free(), blocked_rows,
                     std::move(const_cast<std::vector<double>&>(t->values())), objective,
                     std::move(means));
}

SpreadTable BuildSpreadWithProgress(const SolitaireTable& values, bool show_progress) {
  const std::string what = absl::StrCat(
      "building spread table ",
      DescribeTableKey(TableKey{values.rules(), values.blocked_rows(), "", values.objective()}));
  return BuildSpreadTable(values, WatchedProgress(what, show_progress, "spread table "));
}

absl::StatusOr<SpreadTable> LoadOrBuildSpreadTable(const SolitaireTable& values,
                                                   const std::string& value_path) {
  const bool ours = value_path.empty();
  return LoadOrBuildSpreadTable(
      values,
      SpreadSource{ours ? DefaultTablePath(values.rules(), values.blocked_rows(), values.objective())
                        : value_path,
                   ours, true, nullptr});
}

absl::StatusOr<SpreadTable> LoadOrBuildSpreadTable(const SolitaireTable& values,
                                                   const SpreadSource& source) {
  const bool ours = source.ours;
  const std::string& base = source.value_path;
  const std::string path = SpreadPathFor(base);
  const std::string mean_path = values.objective().is_target() ? MeanPathFor(base) : "";
  absl::StatusOr<SpreadTable> read = ReadSpreadTable(path, values.rules(), values.blocked_rows(),
                                                     values.objective(), mean_path);
  if (read.ok() && read->max_free() == values.max_free()) return read;
  const bool missing = read.status().code() == absl::StatusCode::kNotFound;
  if (!read.ok() && !missing && !IsOtherTableFormat(read.status())) return read.status();
  // A target's policy needs its means as well (one pass builds both).
  const std::string what = mean_path.empty()
                               ? absl::StrCat("spread table at ", path)
                               : absl::StrCat("spread and mean tables at ", path, ", ", mean_path);
  if (!source.allow_build)
    return absl::NotFoundError(absl::StrCat("no ", what, " (building is off; make it with: "
                                            "penk tables build --out ", base, ")"));
  if (source.may_build)
    if (absl::Status may = source.may_build(); !may.ok())
      return absl::NotFoundError(absl::StrCat("no ", what, " and ", may.message()));
  // A folder we cannot write is said before the build (as for value tables).
  const absl::Status writable =
      ours ? FolderWritable(std::filesystem::path(path).parent_path().string()) : absl::OkStatus();
  // Above any progress bar on stderr, not through it (ProgressLine).
  if (ours && !writable.ok())
    ProgressLine::Message(stderr, absl::StrCat("penk: no ", what, "; building it for this process only (",
                                               writable.message(), ")"));
  else if (ours)
    ProgressLine::Message(stderr, absl::StrCat("penk: no ", what, "; building it (once, a few seconds)"));
  else
    ProgressLine::Message(stderr, absl::StrCat("penk: no ", what,
                                               "; building it for this command (make it once with: "
                                               "penk tables build --out ",
                                               base, ")"));
  SpreadTable spreads = BuildSpreadWithProgress(values, isatty(2));
  if (ours && writable.ok()) {
    absl::Status saved = WriteSpreadTable(spreads, path, mean_path);
    if (!saved.ok())
      std::fprintf(stderr, "penk: warning: %s; the spread table is used but not saved\n",
                   std::string(saved.message()).c_str());
  }
  return spreads;
}

SpreadLoader FileSpreadLoader(const std::string& dir, BuildPolicy policy) {
  return [dir, policy = std::move(policy)](const TableKey& key,
                                           const SolitaireTable& values) -> absl::StatusOr<SpreadTable> {
    const bool ours = key.file.empty();
    const std::string folder = dir.empty() ? DefaultTableDir() : dir;
    const std::string value_path =
        ours ? TablePathIn(folder, key.rules, key.blocked_rows, key.objective) : key.file;
    SpreadSource source{value_path, ours, !ours || policy.allow, nullptr};
    // `tables build --all` writes value tables only: one build with --out
    // writes the value table and its spread table.
    if (ours)
      source.may_build = [&] {
        if (!policy.spreads)
          return absl::FailedPreconditionError(
              "this engine reads spread tables but does not build them (its host has them built "
              "elsewhere)");
        return policy.MayBuild(
            key, folder,
            absl::StrCat("penk tables build --out ", value_path, " --rules ", FormatRules(key.rules),
                         key.blocked_rows ? absl::StrCat(" --blocked-rows ",
                                                         BlockedRowsDigits(key.blocked_rows))
                                          : "",
                         key.objective.is_target()
                             ? absl::StrCat(" --objective ", FormatObjective(key.objective))
                             : ""));
      };
    // Missing files may be had from the policy's source (the host of the
    // static site); if what it gives is refused, it is removed and built.
    std::vector<std::string> fetched;
    if (ours && policy.fetch) {
      std::vector<std::string> files = {SpreadPathFor(value_path)};
      if (key.objective.is_target()) files.push_back(MeanPathFor(value_path));
      for (const std::string& file : files) {
        std::error_code ec;
        if (!std::filesystem::exists(file, ec) && policy.Fetched(folder, file)) fetched.push_back(file);
      }
    }
    absl::StatusOr<SpreadTable> got = LoadOrBuildSpreadTable(values, source);
    if (got.ok() || fetched.empty()) return got;
    ProgressLine::Message(stderr, absl::StrCat("penk: the spread table fetched beside ", value_path,
                                               " is refused (", got.status().message(),
                                               "); building it instead"));
    for (const std::string& file : fetched) {
      std::error_code ec;
      std::filesystem::remove(file, ec);
    }
    return LoadOrBuildSpreadTable(values, source);
  };
}

}  // namespace penk
