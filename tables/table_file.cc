#include "tables/table_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"
#include "engine/fd_io.h"
#include "absl/strings/str_cat.h"
#include "engine/score.h"
#include "tables/value_check.h"

namespace penk {
namespace {

constexpr char kOtherFormatPayload[] = "penk/table-format";

// Closes a file descriptor at the end of a scope.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

// The header's fields one after another, each in native (little-endian) order.
void EncodeHeader(const TableHeader& h, char* out) {
  size_t at = 0;
  auto put = [&](const auto& field) {
    std::memcpy(out + at, &field, sizeof field);
    at += sizeof field;
  };
  put(h.magic), put(h.format_version), put(h.line_min), put(h.penk_rows), put(h.max_free);
  put(h.blocked_rows), put(h.objective), put(h.state_count), put(h.checksum);
}

TableHeader DecodeHeader(const char* in) {
  TableHeader h;
  size_t at = 0;
  auto get = [&](auto& field) {
    std::memcpy(&field, in + at, sizeof field);
    at += sizeof field;
  };
  get(h.magic), get(h.format_version), get(h.line_min), get(h.penk_rows), get(h.max_free);
  get(h.blocked_rows), get(h.objective), get(h.state_count), get(h.checksum);
  return h;
}

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Removes `path`.tmp.PID files whose process is gone (a writer killed by
// SIGKILL or a power cut); files of live processes are their writes.
void RemoveStaleTemps(const std::string& path) {
  const std::string folder = FolderOf(path);
  const size_t slash = path.rfind('/');
  const std::string prefix =
      absl::StrCat(slash == std::string::npos ? path : path.substr(slash + 1), ".tmp.");
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* e = ::readdir(dir)) {
    absl::string_view name = e->d_name;
    if (!absl::ConsumePrefix(&name, prefix)) continue;
    int pid;
    if (!absl::SimpleAtoi(name, &pid) || pid <= 0) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    ::unlink(absl::StrCat(folder, "/", e->d_name).c_str());
  }
  ::closedir(dir);
}

std::string RulesText(const TableHeader& h) {
  Rules r;
  r.line_min = h.line_min;
  r.penk_rows = h.penk_rows != 0;
  return FormatRules(r);
}

}  // namespace

std::string TableTempPath(const std::string& path) {
  return absl::StrCat(path, ".tmp.", ::getpid());
}

uint64_t ValuesChecksum(const std::vector<double>& values) {
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  uint64_t lane[4] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL, 0x9e3779b97f4a7c15ULL,
                      0xbf58476d1ce4e5b9ULL};
  const size_t n = values.size();
  auto word = [&](size_t i) {
    uint64_t w;
    std::memcpy(&w, &values[i], sizeof w);
    return w;
  };
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 4; ++j) lane[j] = (lane[j] ^ word(i + j)) * kPrime;
  for (; i < n; ++i) lane[0] = (lane[0] ^ word(i)) * kPrime;
  uint64_t h = n;
  for (uint64_t x : lane) h = (h ^ x ^ (x >> 29)) * kPrime;
  return h;
}

uint64_t TableChecksum(const TableHeader& header, const std::vector<double>& values) {
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  TableHeader fields = header;
  fields.checksum = 0;
  char bytes[kTableHeaderBytes];
  EncodeHeader(fields, bytes);
  uint64_t h = ValuesChecksum(values);
  for (size_t i = 0; i < kTableHeaderBytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes + i, sizeof w);
    h = (h ^ w) * kPrime;
  }
  return h ^ (h >> 31);
}

absl::Status WriteTable(const SolitaireTable& table, const std::string& path) {
  TableHeader h;
  h.line_min = table.rules().line_min;
  h.penk_rows = table.rules().penk_rows;
  h.state_count = table.values().size();
  h.max_free = table.max_free();
  h.blocked_rows = table.blocked_rows();
  h.objective = static_cast<uint32_t>(table.objective().target + 1);
  h.checksum = TableChecksum(h, table.values());
  return WriteTableFile(h, table.values(), path);
}

// A new file beside `path`: unnamed if the file system can, else
// TableTempPath(path) (*named set). -1 with errno on failure.
int OpenNewTableFile(const std::string& path, bool* named) {
  *named = false;
  int fd = ::open(FolderOf(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
    *named = true;  // the file system has no O_TMPFILE: a named one, removed on failure
    fd = ::open(TableTempPath(path).c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
  }
  return fd;
}

absl::Status CheckTableWritable(const std::string& path) {
  bool named;
  const int fd = OpenNewTableFile(path, &named);
  if (fd < 0)
    return absl::UnavailableError(absl::StrCat("cannot write a table file in ", FolderOf(path),
                                               ": ", std::strerror(errno)));
  ::close(fd);
  if (named) ::unlink(TableTempPath(path).c_str());
  return absl::OkStatus();
}

absl::Status WriteTableFile(const TableHeader& h, const std::vector<double>& values,
                            const std::string& path) {
  RemoveStaleTemps(path);
  const std::string folder = FolderOf(path);
  const std::string tmp = TableTempPath(path);
  // An unnamed file first: a writer killed now leaves nothing behind.
  bool named;
  const int raw = OpenNewTableFile(path, &named);
  const bool unnamed = !named;
  if (raw < 0)
    return absl::UnavailableError(absl::StrCat("cannot write a table file in ", folder, ": ",
                                               std::strerror(errno)));
  Fd fd(raw);
  char header[kTableHeaderBytes];
  EncodeHeader(h, header);
  auto fail = [&](absl::string_view what) {
    const std::string reason = std::strerror(errno);
    if (!unnamed) ::unlink(tmp.c_str());
    return absl::UnavailableError(absl::StrCat(what, ": ", reason));
  };
  if (!WriteAll(fd.fd, header, sizeof header) ||
      !WriteAll(fd.fd, reinterpret_cast<const char*>(values.data()),
                values.size() * sizeof(double)))
    return fail(absl::StrCat("writing table file ", path, " failed"));
  if (unnamed) {
    // linkat(AT_EMPTY_PATH) needs a capability; /proc/self/fd does not.
    const std::string self = absl::StrCat("/proc/self/fd/", fd.fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0)
      return fail(absl::StrCat("cannot create ", tmp));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp.c_str());
    return absl::UnavailableError(
        absl::StrCat("cannot move the new table into ", path, ": ", reason));
  }
  return absl::OkStatus();
}

bool IsOtherTableFormat(const absl::Status& status) {
  return status.GetPayload(kOtherFormatPayload).has_value();
}

absl::StatusOr<TableKey> ReadTableKey(const std::string& path) {
  const int raw = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (raw < 0) return absl::NotFoundError(absl::StrCat("table file ", path, " not found"));
  Fd fd(raw);
  struct stat st;
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return absl::InvalidArgumentError(absl::StrCat("table file ", path, " refused: not a regular file"));
  char bytes[kTableHeaderBytes];
  const ssize_t got = ReadAll(fd.fd, bytes, sizeof bytes);
  const TableHeader h = DecodeHeader(bytes);
  if (got != static_cast<ssize_t>(sizeof bytes) || h.magic != kTableMagic ||
      h.format_version != kTableFormatVersion || h.line_min < 1 || h.line_min > 5 ||
      (h.penk_rows != 0 && h.penk_rows != 1) || h.blocked_rows >= 32 ||
      h.objective > static_cast<uint32_t>(kMaxTarget) + 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "table file ", path, " refused: not a PENK value table of format version ", kTableFormatVersion));
  TableKey key;
  key.rules.line_min = h.line_min;
  key.rules.penk_rows = h.penk_rows != 0;
  key.blocked_rows = h.blocked_rows;
  key.objective = Objective{static_cast<int>(h.objective) - 1};
  return key;
}

absl::StatusOr<SolitaireTable> ReadTable(const std::string& path, const Rules& rules,
                                         uint32_t blocked_rows, Objective objective,
                                         uint64_t magic) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const int raw = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (raw < 0) {
    const int err = errno;
    // ENOTDIR: a part of the path is a file, so there is no such table.
    if (err == ENOENT || err == ENOTDIR)
      return absl::NotFoundError(absl::StrCat("table file ", path, " not found"));
    const std::string why = absl::StrCat("cannot open table file ", path, ": ", std::strerror(err));
    if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(why);
    return absl::FailedPreconditionError(why);
  }
  Fd fd(raw);
  const std::string rebuild =
      absl::StrCat("; rebuild it with: penk tables build --out ", path, " --rules ",
                   FormatRules(rules),
                   blocked_rows ? absl::StrCat(" --blocked-rows ", BlockedRowsDigits(blocked_rows))
                                : "",
                   objective.is_target()
                       ? absl::StrCat(" --objective ", FormatObjective(objective))
                       : "");
  auto refused = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("table file ", path, " refused: ", why));
  };
  auto damaged = [&](absl::string_view why) {
    return absl::DataLossError(absl::StrCat("table file ", path, " refused: ", why, rebuild));
  };
  struct stat st;
  if (::fstat(fd.fd, &st) != 0)
    return absl::FailedPreconditionError(
        absl::StrCat("cannot read table file ", path, ": ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) return refused("not a regular file");
  char bytes[kTableHeaderBytes];
  const ssize_t got = ReadAll(fd.fd, bytes, sizeof bytes);
  if (got < 0)
    return absl::FailedPreconditionError(
        absl::StrCat("cannot read table file ", path, ": ", std::strerror(errno)));
  const TableHeader h = DecodeHeader(bytes);
  if (got >= 30 && absl::string_view(bytes + 8, 22) == "serialization::archive") {
    absl::Status s = damaged(absl::StrCat("format version 3 or older, this penk reads version ",
                                          kTableFormatVersion));
    s.SetPayload(kOtherFormatPayload, absl::Cord("old"));
    return s;
  }
  if (got < 8 || h.magic != magic)
    return refused(magic == kTableMagic    ? "not a PENK value table"
                   : magic == kSpreadMagic ? "not a PENK spread table"
                                           : "not a PENK mean table");
  if (static_cast<size_t>(got) < sizeof bytes) return damaged("truncated header");
  if (h.format_version != kTableFormatVersion) {
    absl::Status s = damaged(absl::StrCat("format version ", h.format_version,
                                          ", this penk reads version ", kTableFormatVersion));
    s.SetPayload(kOtherFormatPayload, absl::Cord("other"));
    return s;
  }
  Rules file_rules;
  file_rules.line_min = h.line_min;
  file_rules.penk_rows = h.penk_rows != 0;
  if (h.line_min < 1 || h.line_min > 5 || (h.penk_rows != 0 && h.penk_rows != 1))
    return damaged("its header names no rule variant");
  if (file_rules != rules)
    return refused(absl::StrCat("it is for rules ", RulesText(h), ", not ", FormatRules(rules),
                                " (pass --rules ", RulesText(h), " to use it)"));
  if (h.blocked_rows >= 32) return damaged("its header names no set of blocked rows");
  // The positions its blocked rows allow (PositionIndex), as every build writes.
  const int64_t positions = PositionIndex(h.blocked_rows).size();
  if (h.state_count != static_cast<uint64_t>(positions))
    return damaged(absl::StrCat("it has ", h.state_count, " positions, expected ", positions,
                                " for its blocked rows"));
  if (h.blocked_rows != blocked_rows)
    return refused(absl::StrCat("it is for blocked rows ",
                                h.blocked_rows ? BlockedRowsDigits(h.blocked_rows) : "none",
                                ", not ", blocked_rows ? BlockedRowsDigits(blocked_rows) : "none"));
  if (h.objective > static_cast<uint32_t>(kMaxTarget) + 1)
    return damaged("its header names no objective");
  const Objective file_objective{static_cast<int>(h.objective) - 1};
  if (file_objective != objective)
    return refused(absl::StrCat("it is for objective ", FormatObjective(file_objective), ", not ",
                                FormatObjective(objective), " (pass --objective ",
                                FormatObjective(file_objective), " to use it)"));
  if (h.max_free < 0 || h.max_free > kRows * kColumns)
    return damaged(absl::StrCat("solved depth ", h.max_free, " is not 0..25"));
  // The exact size before the values are allocated: a short or long file is
  // refused without reading it.
  const uint64_t expected = kTableHeaderBytes + h.state_count * sizeof(double);
  if (static_cast<uint64_t>(st.st_size) < expected)
    return damaged(absl::StrCat("truncated: ", st.st_size, " bytes, expected ", expected));
  if (static_cast<uint64_t>(st.st_size) > expected)
    return damaged(absl::StrCat("trailing bytes after the values (", st.st_size,
                                " bytes, expected ", expected, ")"));
  std::vector<double> values(h.state_count);
  const size_t value_bytes = values.size() * sizeof(double);
  const ssize_t read = ReadAll(fd.fd, reinterpret_cast<char*>(values.data()), value_bytes);
  if (read < 0)
    return absl::FailedPreconditionError(
        absl::StrCat("cannot read table file ", path, ": ", std::strerror(errno)));
  if (static_cast<size_t>(read) != value_bytes) return damaged("truncated while reading");
  char extra;
  if (ReadAll(fd.fd, &extra, 1) != 0) return damaged("trailing bytes after the values");
  if (TableChecksum(h, values) != h.checksum)
    return damaged("checksum mismatch: the header or the values are corrupted");
  // A matching checksum says the file is as written, not that what was
  // written is a table: its numbers are checked too.
  const ValueBounds bounds =
      magic == kSpreadMagic ? ValueBounds{0, (kMaxScore / 2.0) * (kMaxScore / 2.0), "a variance"}
      : magic == kTableMagic && objective.is_target() ? ValueBounds{0, 1, "a probability"}
                                                      : ValueBounds{0, kMaxScore, "an expected score"};
  if (absl::Status values_ok = CheckTableValues(values, h.max_free, blocked_rows, bounds);
      !values_ok.ok())
    return damaged(values_ok.message());
  return SolitaireTable(rules, h.max_free, std::move(values), blocked_rows, objective);
}

}  // namespace penk
