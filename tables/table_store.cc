#include "tables/table_store.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "tables/table_file.h"

namespace penk {

std::string DefaultTableDir() {
  if (const char* dir = std::getenv("PENK_TABLE_DIR"); dir && *dir) return dir;
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "tables";
  return (exe.parent_path() / "tables").string();
}

std::string DefaultTablePath(const Rules& rules, uint32_t blocked_rows) {
  std::string blocked;
  for (int k = 1; k <= kRows; ++k)
    if (blocked_rows >> (k - 1) & 1) absl::StrAppend(&blocked, k);
  return (std::filesystem::path(DefaultTableDir()) /
          absl::StrCat("solitaire_", absl::StrReplaceAll(FormatRules(rules), {{",", "_"}}),
                       blocked.empty() ? "" : "_blocked=", blocked, ".penktable"))
      .string();
}

SolitaireTable BuildTableWithProgress(const Rules& rules, int max_free, bool show_progress,
                                      uint32_t blocked_rows) {
  const auto start = std::chrono::steady_clock::now();
  BuildProgress bar;
  if (show_progress) {
    // On a terminal the bar redraws in place; in a log, one line per 10%.
    const bool tty = isatty(2);
    bar = [start, tty, last = -1](int64_t done, int64_t total) mutable {
      int percent = static_cast<int>(100 * done / std::max<int64_t>(total, 1));
      if (!tty) percent -= percent % 10;
      if (percent == last) return;
      last = percent;
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      double eta = done > 0 ? elapsed * (total - done) / done : 0;
      int filled = percent * 30 / 100;
      std::fprintf(stderr, "%s[%.*s%*s] %3d%%  %lld/%lld positions  %.1fs, ETA %.1fs",
                   tty ? "\r" : "", filled,
                   "##############################", 30 - filled, "", percent,
                   static_cast<long long>(done), static_cast<long long>(total), elapsed, eta);
      if (done == total || !tty) std::fprintf(stderr, "\n");
    };
  }
  return BuildSolitaireTable(rules, max_free, bar, blocked_rows);
}

absl::StatusOr<SolitaireTable> LoadOrBuildTable(const Rules& rules, const std::string& path_arg,
                                                 uint32_t blocked_rows) {
  const std::string path = path_arg.empty() ? DefaultTablePath(rules, blocked_rows) : path_arg;
  if (std::filesystem::exists(path)) {
    absl::StatusOr<SolitaireTable> table = ReadTable(path, rules, blocked_rows);
    if (!table.ok() && table.status().code() == absl::StatusCode::kDataLoss)
      return absl::DataLossError(absl::StrCat(table.status().message(),
                                              "; rebuild it with: penk tables build --out ", path,
                                              " --rules ", FormatRules(rules),
                                              blocked_rows ? " --blocked-rows ..." : ""));
    return table;
  }
  std::fprintf(stderr, "penk: no table at %s; building it (once, a few seconds)\n", path.c_str());
  SolitaireTable table =
      BuildTableWithProgress(rules, kRows * kColumns, isatty(2), blocked_rows);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (absl::Status s = WriteTable(table, path); !s.ok())
    std::fprintf(stderr, "penk: warning: %s; the table is used but not saved\n",
                 std::string(s.message()).c_str());
  return table;
}

}  // namespace penk
