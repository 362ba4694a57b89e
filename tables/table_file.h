// The solitaire value table on disk.
//
// A fixed 48-byte header (magic, format version, rule variant, solved depth,
// blocked rows, objective, state count, checksum; native little-endian fields), then the
// values as one flat array of doubles in state-index order, so loading is one
// read. Loading reads and checks the header first -- magic, version, rules,
// blocked rows, count, and the file's exact size -- before it allocates
// anything large, then the checksum, which covers the header fields and the
// values (a header edited to claim full coverage is refused). A missing,
// unreadable, non-regular (FIFO, directory), truncated, corrupted or
// mismatched file is refused with a one-line reason and never blocks.
//
// Writing goes to an unnamed temporary file (O_TMPFILE) in the table's folder,
// linked under a per-process name and renamed into place: an interrupted
// write never loses a table, and a killed writer leaves at most a
// `X.tmp.PID` file, which the next write of X removes once PID is dead.
#ifndef PENK_TABLES_TABLE_FILE_H_
#define PENK_TABLES_TABLE_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "solver/solitaire_dp.h"
#include "solver/table_cache.h"  // BlockedRowsDigits

namespace penk {

// 4: own header (was a Boost archive), checksum over header and values.
// 5: the objective in the header (was a reserved zero field).
// 6: a blocked-row table holds only the positions its blocked rows allow
//    (PositionIndex: 1.6 M entries with one row blocked, 140 k with four,
//    where every table held 1.8 M); the solitaire table is unchanged.
inline constexpr uint32_t kTableFormatVersion = 6;
inline constexpr uint64_t kTableMagic = 0x31454c4241544b50;  // "PKTABLE1"
// The same layout holding the variances of the final score
// (solver/score_spread.h, tables/spread_store.h): another magic, so that one
// kind of table is never read as the other.
inline constexpr uint64_t kSpreadMagic = 0x3144415250534b50;  // "PKSPRAD1"
// The same layout holding the expected final score under a target table's
// policy (a target table's values are probabilities, not means): its own magic.
inline constexpr uint64_t kMeanMagic = 0x31304e41454d4b50;  // "PKMEAN01"
inline constexpr size_t kTableHeaderBytes = 48;

// Fixed-size fields only: a damaged file can make no field ask for memory.
struct TableHeader {
  uint64_t magic = kTableMagic;
  uint32_t format_version = kTableFormatVersion;
  int32_t line_min = 0;   // Rules::line_min
  int32_t penk_rows = 0;  // Rules::penk_rows
  uint64_t state_count = 0;
  int32_t max_free = 0;   // positions with more free cells are not solved
  uint32_t blocked_rows = 0;  // rows crossed by opponents (0: solitaire)
  uint32_t objective = 0;  // 0: expected score; X + 1: P(score >= X) (solver/objective.h)
  uint64_t checksum = 0;  // TableChecksum
};

// Four interleaved FNV-1a style lanes over the values' 64-bit words: a flipped
// bit anywhere changes it, and it runs at memory speed.
uint64_t ValuesChecksum(const std::vector<double>& values);
// ValuesChecksum mixed with every header field but the checksum itself, so
// that an edited header (rules, blocked rows, objective, solved depth) is
// refused too.
uint64_t TableChecksum(const TableHeader& header, const std::vector<double>& values);

// The name a new table is linked under before the rename into `path`: per
// process, so that processes building the same table at once (parallel
// tests, two commands) never touch each other's file; the last rename wins.
std::string TableTempPath(const std::string& path);

// Writes any header with the values; WriteTable is this with the right header.
// Tests use it to make files with a wrong version, count or checksum. Removes
// `path`.tmp.PID files left by dead processes first.
absl::Status WriteTableFile(const TableHeader& header, const std::vector<double>& values,
                            const std::string& path);

absl::Status WriteTable(const SolitaireTable& table, const std::string& path);
// Whether a table can be written at `path` (its folder takes a new file),
// tried for real and left as it was: commands check it before a build of
// seconds, so that a read-only folder is said at once, with the reason.
absl::Status CheckTableWritable(const std::string& path);
// Reads a table and checks that it is for `rules`, `blocked_rows` and `objective`. Errors:
// NotFound (no such file), PermissionDenied, FailedPrecondition (not a
// regular file, or cannot be opened: the reason), InvalidArgument (not a PENK
// table, or a table of other rules or blocked rows: the message says which),
// DataLoss (one of ours, damaged or of another format version: the message
// says how to rebuild it).
// `magic`: kSpreadMagic reads a spread table's variances as the values,
// kMeanMagic a mean table's means.
absl::StatusOr<SolitaireTable> ReadTable(const std::string& path, const Rules& rules,
                                         uint32_t blocked_rows = 0, Objective objective = {},
                                         uint64_t magic = kTableMagic);

// What a value table file says it is for (rules, blocked rows, objective),
// read from its header alone; ReadTable with them checks the rest. A file
// that is not a value table of this format is refused as ReadTable does.
absl::StatusOr<TableKey> ReadTableKey(const std::string& path);

// Whether ReadTable refused a table of ours only because it has another
// format version (an older penk wrote it): the default table folder rebuilds
// those, as a build output of an older build.
bool IsOtherTableFormat(const absl::Status& status);



}  // namespace penk

#endif  // PENK_TABLES_TABLE_FILE_H_
