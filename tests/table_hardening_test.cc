// Table files against hostile paths and bytes (issue 9): FIFOs, over-long
// names, symlink loops, files that are not tables, altered headers, named
// tables that must only be read, stale temporary files, `tables build --all`
// and the bounds of `penk simulate`. CLI cases run the real binary with a
// timeout, so a regression that blocks fails instead of hanging the suite.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/shared_tables.h"
#include "penk_process.h"
#include "engine/sheet.h"
#include "solver/score_spread.h"
#include "solver/solitaire_dp.h"
#include "solver/solitaire_state.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"
#include "tables/table_store.h"

namespace penk {
namespace {

using testing_support::PenkRun;
using testing_support::RunPenk;
using testing_support::RunPenkShell;
using testing_support::ShellQuote;

constexpr int kTimeout = 30;  // seconds; every case here takes well under one

// Runs `body`; if it has not returned after `seconds`, the test binary exits
// with a failure instead of hanging (a blocking open() cannot be cancelled).
template <class F>
void WithinSeconds(int seconds, F body) {
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    for (int i = 0; i < seconds * 20 && !done; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!done) {
      std::fprintf(stderr, "FAILED: still blocked after %d s\n", seconds);
      std::_Exit(1);
    }
  });
  body();
  done = true;
  watchdog.join();
}

class TableHardening : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { table_ = new SolitaireTable(testing_support::SharedTable(5)); }
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("penk_hardening_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "t.penktable").string();
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void Spit(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  // A penk run that ended by itself with exit 2 and one line on stderr
  // containing `what`.
  static void ExpectOneLineError(const PenkRun& r, const std::string& what) {
    EXPECT_TRUE(r.exited) << "killed by a signal";
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
  }
  static SolitaireTable* table_;
  std::filesystem::path dir_;
  std::string path_;
};
SolitaireTable* TableHardening::table_ = nullptr;

TEST_F(TableHardening, FifoIsRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(path_.c_str(), 0644), 0);
  WithinSeconds(kTimeout, [&] {
    absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.status().message().find("not a regular file"), absl::string_view::npos)
        << t.status();
  });
  ExpectOneLineError(RunPenkShell("value --table " + ShellQuote(path_), "", "", kTimeout),
                     "not a regular file");
  ExpectOneLineError(
      RunPenkShell("hint --roll 12345J --table " + ShellQuote(path_), "", "", kTimeout),
      "not a regular file");
  // A FIFO under the default name in PENK_TABLE_DIR: refused, not replaced.
  const std::string fifo = TablePathIn(dir_.string(), Rules{}, 0);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  ExpectOneLineError(RunPenkShell("value", "", "PENK_TABLE_DIR=" + ShellQuote(dir_.string()),
                                  kTimeout),
                     "not a regular file");
  struct stat st;
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(TableHardening, OverLongNamesAndSymlinkLoopsAreOneLineErrors) {
  const std::string long_dir = dir_.string() + "/" + std::string(300, 'x');
  ExpectOneLineError(RunPenkShell("value --table " + ShellQuote(long_dir + "/t"), "", "", kTimeout),
                     "File name too long");
  ExpectOneLineError(
      RunPenkShell("value", "", "PENK_TABLE_DIR=" + ShellQuote(long_dir), kTimeout),
      "File name too long");
  const std::string a = (dir_ / "a").string(), b = (dir_ / "b").string();
  ASSERT_EQ(::symlink(a.c_str(), b.c_str()), 0);
  ASSERT_EQ(::symlink(b.c_str(), a.c_str()), 0);
  ExpectOneLineError(RunPenkShell("value --table " + ShellQuote(a), "", "", kTimeout),
                     "Too many levels of symbolic links");
  ExpectOneLineError(
      RunPenkShell("hint --roll 12345J --table " + ShellQuote(a), "", "", kTimeout),
      "Too many levels of symbolic links");
}

TEST_F(TableHardening, NonTablesAreSaidToBeNoPenkTables) {
  for (const std::string& file : {std::string("/etc/passwd"), path_}) {
    if (file == path_) Spit(path_, std::string(1 << 16, '\x5a'));  // random-looking bytes
    PenkRun r = RunPenkShell("value --table " + ShellQuote(file), "", "", kTimeout);
    ExpectOneLineError(r, "not a PENK value table");
    EXPECT_EQ(r.err.find("rebuild"), std::string::npos) << r.err;  // not ours to rebuild
    EXPECT_EQ(r.err.find("basic_string"), std::string::npos) << r.err;
  }
}

// Runs `body` in a child process that is not root (root reads and writes
// everything: as root the child becomes user nobody); its exit code.
template <class F>
int Unprivileged(F body) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(100);
    ::_exit(body());
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(TableHardening, UnreadableFileIsPermissionDenied) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  ASSERT_EQ(::chmod(path_.c_str(), 0), 0);
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  const int code = Unprivileged([&] {
    absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
    if (t.ok()) return 1;
    if (t.status().code() != absl::StatusCode::kPermissionDenied) return 2;
    if (t.status().message().find("Permission denied") == absl::string_view::npos) return 3;
    if (t.status().message().find("not found") != absl::string_view::npos) return 4;
    return 0;
  });
  EXPECT_EQ(code, 0) << "1: read, 2: other code, 3: no reason, 4: said not found";
  if (::geteuid() != 0)
    ExpectOneLineError(RunPenkShell("value --table " + ShellQuote(path_), "", "", kTimeout),
                       "Permission denied");
}

TEST_F(TableHardening, ReadOnlyFolderIsSaidWithTheReason) {
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);  // only its owner may write
  const int code = Unprivileged([&] {
    absl::Status s = CheckTableWritable(path_);
    if (s.ok()) return 1;
    if (s.message().find("cannot write a table file in " + dir_.string() + ": Permission denied") ==
        absl::string_view::npos)
      return 2;
    if (WriteTable(*table_, path_).message().find("Permission denied") == absl::string_view::npos)
      return 3;
    return 0;
  });
  EXPECT_EQ(code, 0) << "1: writable, 2/3: no reason";
  EXPECT_FALSE(std::filesystem::exists(path_));
}

TEST_F(TableHardening, AlteredHeaderIsRefusedAtOnce) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  const std::string good = Slurp(path_);
  struct Edit {
    size_t offset;
    std::string bytes;
    const char* why;
  };
  const Edit edits[] = {
      {0, std::string(8, '\xff'), "not a PENK value table"},          // magic
      {8, std::string("\x03\0\0\0", 4), "format version"},            // version
      {32, std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8), "positions, expected"},  // a huge count
      {32, std::string("\0\0\0\0\0\0\0\0", 8), "positions, expected"},
  };
  // "At once": from the header alone. The same header with no values after
  // it is refused for the same reason, not as truncated: the reason was
  // found before the file's size was compared with the header's count or a
  // value was read or allocated (a count of 2^63 - 1 doubles would not fit).
  for (const Edit& e : edits) {
    std::string bytes = good;
    bytes.replace(e.offset, e.bytes.size(), e.bytes);
    for (const std::string& file : {bytes, bytes.substr(0, kTableHeaderBytes)}) {
      Spit(path_, file);
      absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
      ASSERT_FALSE(t.ok()) << e.offset;
      EXPECT_NE(t.status().message().find(e.why), absl::string_view::npos)
          << file.size() << " bytes: " << t.status();
      EXPECT_EQ(t.status().message().find("truncated"), absl::string_view::npos)
          << file.size() << " bytes: " << t.status();
    }
  }
  // A file of the right header and the wrong size is refused before reading.
  Spit(path_, good.substr(0, kTableHeaderBytes) + "short");
  EXPECT_NE(ReadTable(path_, Rules{}).status().message().find("truncated"),
            absl::string_view::npos);
}

TEST_F(TableHardening, OlderFormatIsNamedAndOnlyTheDefaultFolderRebuildsIt) {
  // What penk up to format 3 wrote: a Boost archive (length-prefixed signature).
  const std::string boost_header =
      std::string("\x16\0\0\0\0\0\0\0serialization::archive\x13\0", 32) +
      std::string(64, '\0');
  Spit(path_, boost_header);
  absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(IsOtherTableFormat(t.status()));
  EXPECT_NE(t.status().message().find("format version 3 or older"), absl::string_view::npos)
      << t.status();
  EXPECT_NE(t.status().message().find("rebuild it with: penk tables build --out " + path_),
            absl::string_view::npos)
      << t.status();
  EXPECT_FALSE(LoadOrBuildTable(Rules{}, path_).ok());  // a named file: refused, kept
  EXPECT_EQ(Slurp(path_), boost_header);
  // In the table folder it is a build output of an older penk: rebuilt when
  // building is allowed, else named with the way to make it.
  const std::string in_folder = TablePathIn(dir_.string(), Rules{}, 0);
  Spit(in_folder, boost_header);
  t = LoadOrBuildDefaultTable(Rules{}, dir_.string(), 0, /*allow_build=*/false);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("an older penk's table at " + in_folder),
            absl::string_view::npos)
      << t.status();
  EXPECT_NE(t.status().message().find("penk tables build --all"), absl::string_view::npos);
  EXPECT_FALSE(IsOtherTableFormat(ReadTable("/etc/passwd", Rules{}).status()));
}

TEST_F(TableHardening, HeaderEditedToClaimMoreIsRefusedByTheChecksum) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());  // solves positions with <= 5 free cells
  std::string bytes = Slurp(path_);
  const int32_t full = 25;
  std::memcpy(&bytes[20], &full, sizeof full);  // max_free: claims every position
  Spit(path_, bytes);
  absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("checksum"), absl::string_view::npos) << t.status();
  // The same for the blocked rows and the rules.
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  bytes = Slurp(path_);
  const uint32_t rows = 0b101;
  std::memcpy(&bytes[24], &rows, sizeof rows);
  Spit(path_, bytes);
  t = ReadTable(path_, Rules{}, 0b101);
  ASSERT_FALSE(t.ok());
  // Since table format 6 the blocked rows also set the array's length
  // (PositionIndex): the edit is refused by the size before the checksum.
  EXPECT_NE(t.status().message().find("it has 1808664 positions, expected 1208256"),
            absl::string_view::npos)
      << t.status();
}

TEST_F(TableHardening, NamedTableIsOnlyRead) {
  // A mistyped path: an error at once, nothing built, no folder created.
  const std::string missing = (dir_ / "no" / "such.penktable").string();
  PenkRun r = RunPenkShell("value --table " + ShellQuote(missing), "", "", kTimeout);
  ExpectOneLineError(r, "not found");
  EXPECT_NE(r.err.find("penk tables build --out " + missing), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "no"));
  // A dangling symlink stays as it is; its target is not created.
  const std::string link = (dir_ / "link.penktable").string();
  const std::string target = (dir_ / "target.penktable").string();
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ExpectOneLineError(RunPenkShell("hint --roll 12345J --table " + ShellQuote(link), "", "",
                                  kTimeout),
                     "not found");
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(std::filesystem::read_symlink(link).string(), target);
  EXPECT_FALSE(std::filesystem::exists(target));
}

TEST_F(TableHardening, StaleTemporaryFilesOfDeadWritersAreRemoved) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);  // now a dead process id
  const std::string dead = path_ + ".tmp." + std::to_string(child);
  const std::string alive = path_ + ".tmp." + std::to_string(::getppid());
  Spit(dead, std::string(1000, 'x'));
  Spit(alive, "being written");
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(alive));  // a live writer's file is its own
  EXPECT_FALSE(std::filesystem::exists(TableTempPath(path_)));
  EXPECT_TRUE(ReadTable(path_, Rules{}).ok());
  // Nothing but the table and the live writer's file is left.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 2);
}

TEST_F(TableHardening, UnwritableFolderGivesTheReason) {
  // Said before the build (one line, no progress bar), with the reason.
  PenkRun r = RunPenkShell("tables build --max-free 4 --out /proc/penk_test.penktable", "", "",
                           kTimeout);
  ExpectOneLineError(r, "cannot write a table file in /proc: No such file or directory");
  r = RunPenkShell("tables build --all --max-free 4 --table-dir /sys", "", "", kTimeout);
  ExpectOneLineError(r, "cannot write a table file in /sys: Permission denied");
}

TEST(BlockedRowSets, EveryRowSetWhenRowsBlockElseNone) {
  const std::vector<uint32_t> all = BlockedRowSets(Rules{});
  ASSERT_EQ(all.size(), 32u);
  for (uint32_t rows = 0; rows < 32; ++rows) EXPECT_EQ(all[rows], rows);
  Rules columns;
  columns.penk_rows = false;  // R4.3: rows never block
  EXPECT_EQ(BlockedRowSets(columns), std::vector<uint32_t>{0});
}

TEST_F(TableHardening, BuildAllMakesEveryBlockedRowTableOnce) {
  const std::string d = ShellQuote(dir_.string());
  const std::string columns_all =
      "tables build --all --rules penk-lines=columns --max-free 4 --table-dir " + d;
  PenkRun r = RunPenkShell(columns_all, "", "", 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 built, 0 kept"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("[1/1] blocked rows none: building"), std::string::npos) << r.err;
  Rules columns;
  columns.penk_rows = false;
  const std::string table = TablePathIn(dir_.string(), columns, 0);
  EXPECT_TRUE(ReadTable(table, columns, 0).ok());
  // A valid table is kept; a damaged one is rebuilt.
  r = RunPenkShell(columns_all, "", "", 120);
  EXPECT_NE(r.out.find("0 built, 1 kept"), std::string::npos) << r.out;
  Spit(table, "junk");
  r = RunPenkShell(columns_all, "", "", 120);
  EXPECT_NE(r.out.find("1 built, 0 kept"), std::string::npos) << r.out;
  EXPECT_TRUE(ReadTable(table, columns, 0).ok());
  // (With rows blocking, the same loop runs over the 32 sets of
  // BlockedRowSets, tested above: 32 builds would take the suite 30 s.)
  ExpectOneLineError(RunPenk({"tables", "build", "--all", "--out", path_}), "--table-dir");
}

TEST(SimulateBounds, GamesAndThreadsAreCappedWithOneLine) {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"--games 2147483647", "--games must be 1..1000000000"},
      {"--games 0", "--games must be 1..1000000000"},
      {"--threads 100000", "--threads must be 1..256"},
      {"--threads 0", "--threads must be 1..256"},
      {"--table-cache-mb 0", "--table-cache-mb"},
  };
  for (const Case& c : cases) {
    PenkRun r = RunPenkShell(std::string("simulate --players greedy,random ") + c.args, "", "",
                             kTimeout);
    EXPECT_TRUE(r.exited) << c.args;
    EXPECT_EQ(r.exit_code, 2) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // The other commands' cache option.
  for (const char* args : {"play --players greedy --table-cache-mb 0",
                           "hint --roll 12345J --opponent ...../...../...../...../..... "
                           "--table-cache-mb 2000000"}) {
    PenkRun r = RunPenkShell(args, "", "", kTimeout);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find("--table-cache-mb"), std::string::npos) << r.err;
  }
  // The largest thread count is served.
  PenkRun r = RunPenkShell("simulate --players random --games 300 --threads 256", "", "", 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace penk

namespace penk {
namespace {

// Issue 20, item 12: a file whose checksum matches but whose numbers no build
// writes is refused on load with a one-line reason, never served.
class ForgedTable : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("penk_forged_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "t.penktable").string();
    table_ = BuildSolitaireTable(Rules{}, 4);
    solved_ = StateIndex(PositionOfSheet(*ParseSheet("ooooo/o.ooo/oo.oo/ooo.o/oooo."))->codes);
    unsolved_ = StateIndex(PositionOfSheet(Sheet{})->codes);  // 25 free cells
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  // The table with entry `index` set to `v`, written with a valid checksum.
  void WriteWith(int64_t index, double v) {
    std::vector<double> values = table_.values();
    values[index] = v;
    ASSERT_TRUE(WriteTable(SolitaireTable(Rules{}, 4, std::move(values)), path_).ok());
  }
  std::filesystem::path dir_;
  std::string path_;
  SolitaireTable table_;
  int64_t solved_ = 0, unsolved_ = 0;
};

TEST_F(ForgedTable, ValuesOutsideWhatABuildWritesAreRefused) {
  ASSERT_TRUE(std::isfinite(table_.values()[solved_]));
  ASSERT_TRUE(std::isnan(table_.values()[unsolved_]));
  struct Case {
    int64_t index;
    double value;
    const char* said;
  } cases[] = {
      {solved_, std::nan(""), "is not an expected score (a finite number in 0..190)"},
      {solved_, std::numeric_limits<double>::infinity(), "is not an expected score"},
      {solved_, -3, "is not an expected score"},
      {solved_, 191, "is not an expected score"},
      {unsolved_, 100, "where a build leaves no value (NaN)"},
  };
  for (const Case& c : cases) {
    WriteWith(c.index, c.value);
    absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
    ASSERT_FALSE(t.ok()) << c.value;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_NE(t.status().message().find(c.said), absl::string_view::npos) << t.status();
    EXPECT_NE(t.status().message().find("rebuild it with: penk tables build"),
              absl::string_view::npos) << t.status();
    EXPECT_EQ(t.status().message().find('\n'), absl::string_view::npos);
  }
  // The CLI says it in one line and exits 2, instead of printing a value.
  WriteWith(solved_, std::nan(""));
  PenkRun r = RunPenk({"value", "--sheet", "ooooo/o.ooo/oo.oo/ooo.o/oooo.", "--table", path_});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("is not an expected score"), std::string::npos) << r.err;
  // The table as built is read.
  ASSERT_TRUE(WriteTable(table_, path_).ok());
  EXPECT_TRUE(ReadTable(path_, Rules{}).ok());
}

TEST_F(ForgedTable, ProbabilitiesAndVariancesHaveTheirBounds) {
  const Objective target{150};
  SolitaireTable p = BuildSolitaireTable(Rules{}, 4, nullptr, 0, target);
  std::vector<double> values = p.values();
  values[solved_] = 1.5;
  ASSERT_TRUE(WriteTable(SolitaireTable(Rules{}, 4, std::move(values), 0, target), path_).ok());
  absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{}, 0, target);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("is not a probability (a finite number in 0..1)"),
            absl::string_view::npos) << t.status();
  SpreadTable spreads = BuildSpreadTable(table_, {});
  const std::string spread_path = SpreadPathFor(path_);
  ASSERT_TRUE(WriteSpreadTable(spreads, spread_path).ok());
  ASSERT_TRUE(ReadSpreadTable(spread_path, Rules{}, 0).ok());
  for (double bad : {-1.0, std::nan(""), 1e6}) {
    std::vector<double> v = spreads.variances();
    v[solved_] = bad;
    ASSERT_TRUE(WriteSpreadTable(SpreadTable(Rules{}, 4, 0, std::move(v)), spread_path).ok());
    absl::StatusOr<SpreadTable> s = ReadSpreadTable(spread_path, Rules{}, 0);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.status().message().find("is not a variance"), absl::string_view::npos)
        << s.status();
  }
}

// Item 13: a damaged spread file costs the sd, not the value, in the CLI as
// in the engine (which answers with sd_error).
TEST_F(ForgedTable, ADamagedSpreadFileCostsOnlyTheSd) {
  ASSERT_TRUE(WriteTable(table_, path_).ok());
  std::vector<double> v = BuildSpreadTable(table_, {}).variances();
  v[solved_] = -1;
  ASSERT_TRUE(WriteSpreadTable(SpreadTable(Rules{}, 4, 0, std::move(v)), SpreadPathFor(path_)).ok());
  const std::string sheet = "ooooo/o.ooo/oo.oo/ooo.o/oooo.";
  PenkRun r = RunPenk({"value", "--sheet", sheet, "--table", path_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("sd: not available: table file"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("is not a variance"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nvalue: "), std::string::npos) << r.out;
  r = RunPenk({"hint", "--sheet", sheet, "--roll", "3345JJ", "--table", path_, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"sd_error\":\"table file"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"sd\":"), std::string::npos) << r.out;
  r = RunPenkShell("engine", "{\"id\":1,\"cmd\":\"value\",\"sheet\":\"" + sheet +
                                 "\",\"table\":\"" + path_ + "\"}\n", "", 30);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"sd_error\":\"table file"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"value\":"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace penk
