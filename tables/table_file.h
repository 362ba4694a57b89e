// The solitaire value table on disk.
//
// A Boost.Serialization binary archive: a header (magic, format version, rule
// variant, state count, solved depth, a 64-bit checksum of the values), then the values
// as one flat array of doubles in state-index order, so loading is one read.
// Loading checks every header field against what the caller expects and the
// checksum against the values, and refuses a missing, truncated, corrupted or
// mismatched file with a one-line reason. Writing goes to a temporary file
// renamed into place, so a failed or interrupted write never loses a table.
#ifndef PENK_TABLES_TABLE_FILE_H_
#define PENK_TABLES_TABLE_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "solver/solitaire_dp.h"

namespace penk {

inline constexpr uint32_t kTableFormatVersion = 3;
inline constexpr uint64_t kTableMagic = 0x31454c4241544b50;  // "PKTABLE1"

// Fixed-size fields only: a damaged file can make no field ask for memory.
struct TableHeader {
  uint64_t magic = kTableMagic;
  uint32_t format_version = kTableFormatVersion;
  int32_t line_min = 0;   // Rules::line_min
  int32_t penk_rows = 0;  // Rules::penk_rows
  uint64_t state_count = 0;
  int32_t max_free = 0;   // positions with more free cells are not solved
  uint32_t blocked_rows = 0;  // rows crossed by opponents (0: solitaire)
  uint64_t checksum = 0;  // ValuesChecksum
};

// Four interleaved FNV-1a style lanes over the values' 64-bit words: a flipped
// bit anywhere changes it, and it runs at memory speed (Boost's byte-wise CRC-32
// took 20 ms of a 30 ms load).
uint64_t ValuesChecksum(const std::vector<double>& values);

// Where WriteTable writes before renaming into `path`: per process, so that
// processes building the same table at once (parallel tests, two commands)
// never write into each other's file; the last rename wins, whole.
std::string TableTempPath(const std::string& path);

// Writes any header with the values; WriteTable is this with the right header.
// Tests use it to make files with a wrong version, count or checksum.
absl::Status WriteTableFile(const TableHeader& header, const std::vector<double>& values,
                            const std::string& path);

absl::Status WriteTable(const SolitaireTable& table, const std::string& path);
// Reads a table and checks that it is for `rules` and `blocked_rows`.
absl::StatusOr<SolitaireTable> ReadTable(const std::string& path, const Rules& rules,
                                         uint32_t blocked_rows = 0);

}  // namespace penk

#endif  // PENK_TABLES_TABLE_FILE_H_
