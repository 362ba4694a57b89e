#include "tables/spread_store.h"

#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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

absl::Status WriteSpreadTable(const SpreadTable& spreads, const std::string& path) {
  TableHeader h;
  h.magic = kSpreadMagic;
  h.line_min = spreads.rules().line_min;
  h.penk_rows = spreads.rules().penk_rows;
  h.state_count = spreads.variances().size();
  h.max_free = spreads.max_free();
  h.blocked_rows = spreads.blocked_rows();
  h.checksum = TableChecksum(h, spreads.variances());
  return WriteTableFile(h, spreads.variances(), path);
}

absl::StatusOr<SpreadTable> ReadSpreadTable(const std::string& path, const Rules& rules,
                                            uint32_t blocked_rows) {
  absl::StatusOr<SolitaireTable> t = ReadTable(path, rules, blocked_rows, Objective{}, kSpreadMagic);
  if (!t.ok()) return t.status();
  return SpreadTable(rules, t->max_free(), blocked_rows,
                     std::move(const_cast<std::vector<double>&>(t->values())));
}

SpreadTable BuildSpreadWithProgress(const SolitaireTable& values, bool show_progress) {
  return BuildSpreadTable(values, show_progress ? ProgressBar("spread table ") : BuildProgress{});
}

absl::StatusOr<SpreadTable> LoadOrBuildSpreadTable(const SolitaireTable& values,
                                                   const std::string& value_path) {
  const bool ours = value_path.empty();
  const std::string path =
      SpreadPathFor(ours ? DefaultTablePath(values.rules(), values.blocked_rows()) : value_path);
  absl::StatusOr<SpreadTable> read = ReadSpreadTable(path, values.rules(), values.blocked_rows());
  if (read.ok() && read->max_free() == values.max_free()) return read;
  const bool missing = read.status().code() == absl::StatusCode::kNotFound;
  if (!read.ok() && !missing && !IsOtherTableFormat(read.status())) return read.status();
  if (ours)
    std::fprintf(stderr, "penk: no spread table at %s; building it (once, a few seconds)\n",
                 path.c_str());
  else
    std::fprintf(stderr,
                 "penk: no spread table at %s; building it for this command (make it once "
                 "with: penk tables build --out %s)\n",
                 path.c_str(), value_path.c_str());
  SpreadTable spreads = BuildSpreadWithProgress(values, isatty(2));
  if (ours) {
    absl::Status saved = WriteSpreadTable(spreads, path);
    if (!saved.ok())
      std::fprintf(stderr, "penk: warning: %s; the spread table is used but not saved\n",
                   std::string(saved.message()).c_str());
  }
  return spreads;
}

}  // namespace penk
