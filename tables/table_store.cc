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

std::string DefaultTablePath(const Rules& rules) {
  return (std::filesystem::path(DefaultTableDir()) /
          absl::StrCat("solitaire_", absl::StrReplaceAll(FormatRules(rules), {{",", "_"}}),
                       ".penktable"))
      .string();
}

SolitaireTable BuildTableWithProgress(const Rules& rules, bool show_progress) {
  const auto start = std::chrono::steady_clock::now();
  BuildProgress bar;
  if (show_progress) {
    bar = [start, last = -1](int64_t done, int64_t total) mutable {
      int percent = static_cast<int>(100 * done / std::max<int64_t>(total, 1));
      if (percent == last) return;
      last = percent;
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      double eta = done > 0 ? elapsed * (total - done) / done : 0;
      int filled = percent * 30 / 100;
      std::fprintf(stderr, "\r[%.*s%*s] %3d%%  %lld/%lld positions  %.1fs, ETA %.1fs", filled,
                   "##############################", 30 - filled, "", percent,
                   static_cast<long long>(done), static_cast<long long>(total), elapsed, eta);
      if (done == total) std::fprintf(stderr, "\n");
    };
  }
  return BuildSolitaireTable(rules, kRows * kColumns, bar);
}

absl::StatusOr<SolitaireTable> LoadOrBuildTable(const Rules& rules, const std::string& path_arg) {
  const std::string path = path_arg.empty() ? DefaultTablePath(rules) : path_arg;
  if (std::filesystem::exists(path)) return ReadTable(path, rules);
  std::fprintf(stderr, "penk: no table at %s; building it (once, about 10 s)\n", path.c_str());
  SolitaireTable table = BuildTableWithProgress(rules, isatty(2));
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (absl::Status s = WriteTable(table, path); !s.ok())
    std::fprintf(stderr, "penk: warning: %s; the table is used but not saved\n",
                 std::string(s.message()).c_str());
  return table;
}

}  // namespace penk
