#include "tables/build_policy.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "solver/work_progress.h"

namespace penk {

std::string DescribeBuildPolicy(const BuildPolicy& p) {
  if (!p.allow) return "no table";
  std::vector<std::string> rules, objectives;
  for (const Rules& r : p.rules) rules.push_back(FormatRules(r));
  for (const Objective& o : p.objectives) objectives.push_back(FormatObjective(o));
  std::string out = absl::StrCat(
      "tables of ", rules.empty() ? "any rules" : absl::StrCat("rules ", absl::StrJoin(rules, " or ")),
      " for ", objectives.empty() ? "any objective"
                                  : absl::StrCat("objective ", absl::StrJoin(objectives, " or ")));
  if (!p.spreads) absl::StrAppend(&out, " (value tables: spread tables are read, not built)");
  if (p.disk_budget_bytes > 0)
    absl::StrAppend(&out, ", while the folder holds under ", p.disk_budget_bytes >> 20, " MB");
  return out;
}

uint64_t FolderBytes(const std::string& dir) {
  std::error_code ec;
  uint64_t total = 0;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) {
      const uintmax_t n = it->file_size(size_ec);
      if (!size_ec) total += n;
    }
  }
  return total;
}

absl::Status BuildPolicy::MayBuild(const TableKey& key, const std::string& dir,
                                   const std::string& make) const {
  const std::string hint = make.empty() ? "" : absl::StrCat("; make it with: ", make);
  if (!allow) return absl::FailedPreconditionError(absl::StrCat("building tables is off", hint));
  const bool rules_ok =
      rules.empty() || std::find(rules.begin(), rules.end(), key.rules) != rules.end();
  const bool objective_ok = objectives.empty() || std::find(objectives.begin(), objectives.end(),
                                                            key.objective) != objectives.end();
  if (!rules_ok || !objective_ok)
    return absl::FailedPreconditionError(absl::StrCat(
        "this engine builds only ", DescribeBuildPolicy(*this), ", not rules ",
        FormatRules(key.rules), " for objective ", FormatObjective(key.objective), hint));
  if (disk_budget_bytes > 0) {
    const uint64_t used = folder_bytes ? folder_bytes(dir) : FolderBytes(dir);
    if (used >= disk_budget_bytes)
      return absl::FailedPreconditionError(
          absl::StrCat("the table folder ", dir, " holds ", used >> 20, " MB, its budget is ",
                       disk_budget_bytes >> 20, " MB: no more tables are built", hint));
  }
  return absl::OkStatus();
}

bool BuildPolicy::Fetched(const std::string& dir, const std::string& path) const {
  if (!fetch) return false;
  if (disk_budget_bytes > 0 && FolderBytes(dir) >= disk_budget_bytes) return false;
  WorkStage fetching(CurrentWorkProgress(), absl::StrCat("fetching table ", path));
  std::error_code ec;
  return fetch(path) && std::filesystem::is_regular_file(path, ec);
}

}  // namespace penk
