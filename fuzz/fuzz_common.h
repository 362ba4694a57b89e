// Shared by the fuzz targets: the small value table they use (positions with
// at most 6 free cells), so that no fuzz run ever builds a full table.
#ifndef PENK_FUZZ_FUZZ_COMMON_H_
#define PENK_FUZZ_FUZZ_COMMON_H_

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/rules.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"

namespace penk::fuzz {

// $PENK_FUZZ_TABLE, or /tmp/penk_fuzz_free6.penktable, built here if missing
// (a few seconds).
inline std::string SmallTablePath() {
  const char* env = std::getenv("PENK_FUZZ_TABLE");
  std::string path = env && *env ? env : "/tmp/penk_fuzz_free6.penktable";
  if (!std::filesystem::exists(path)) {
    std::fprintf(stderr, "fuzz: building the small table %s\n", path.c_str());
    if (!WriteTable(BuildSolitaireTable(Rules{}, 6), path).ok()) std::abort();
  }
  return path;
}

}  // namespace penk::fuzz

#endif  // PENK_FUZZ_FUZZ_COMMON_H_
