// Table files (issue 3, item 3): a round trip keeps every value; a missing,
// truncated, corrupted or mismatched file is refused with a one-line reason.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/shared_tables.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tables/table_store.h"

namespace penk {
namespace {

class TableFileTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { table_ = new SolitaireTable(testing_support::SharedTable(5)); }
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("penk_table_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "t.penktable").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void Spit(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  // The message is one line and contains `what`.
  static void ExpectRefused(const absl::Status& s, const std::string& what) {
    EXPECT_FALSE(s.ok());
    EXPECT_NE(std::string(s.message()).find(what), std::string::npos) << s.message();
    EXPECT_EQ(std::string(s.message()).find('\n'), std::string::npos) << s.message();
  }

  static SolitaireTable* table_;
  std::filesystem::path dir_;
  std::string path_;
};
SolitaireTable* TableFileTest::table_ = nullptr;

bool SameValues(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

TEST_F(TableFileTest, RoundTripKeepsEverything) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  absl::StatusOr<SolitaireTable> back = ReadTable(path_, Rules{});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->max_free(), 5);
  EXPECT_EQ(back->rules(), Rules{});
  EXPECT_TRUE(SameValues(back->values(), table_->values()));
  EXPECT_FALSE(std::filesystem::exists(TableTempPath(path_)));
}

TEST_F(TableFileTest, MissingFileIsRefused) {
  absl::StatusOr<SolitaireTable> t = ReadTable(path_, Rules{});
  ExpectRefused(t.status(), "not found");
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
}

TEST_F(TableFileTest, TruncatedFileIsRefused) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  std::string bytes = Slurp(path_);
  for (size_t keep : {size_t{0}, size_t{10}, size_t{60}, bytes.size() / 2, bytes.size() - 1}) {
    Spit(path_, bytes.substr(0, keep));
    ExpectRefused(ReadTable(path_, Rules{}).status(), "refused");
  }
}

TEST_F(TableFileTest, CorruptedValuesAreRefusedByTheChecksum) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  std::string bytes = Slurp(path_);
  bytes[bytes.size() / 2] ^= 0x10;
  Spit(path_, bytes);
  ExpectRefused(ReadTable(path_, Rules{}).status(), "checksum");
}

TEST_F(TableFileTest, JunkAndTrailingBytesAreRefused) {
  Spit(path_, std::string(5000, 'x'));
  ExpectRefused(ReadTable(path_, Rules{}).status(), "refused");
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  Spit(path_, Slurp(path_) + "extra");
  ExpectRefused(ReadTable(path_, Rules{}).status(), "trailing");
}

TEST_F(TableFileTest, OtherVariantIsRefused) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  Rules other;
  other.line_min = 2;
  ExpectRefused(ReadTable(path_, other).status(), "it is for rules line-min=3,penk-lines=all");
  other = Rules{};
  other.penk_rows = false;
  ExpectRefused(ReadTable(path_, other).status(), "not line-min=3,penk-lines=columns");
  ExpectRefused(ReadTable(path_, Rules{}, 0b101).status(), "blocked rows");
}

// A table of one objective is never read as another's (issue 13): its values
// mean something else (probabilities, not scores).
TEST_F(TableFileTest, OtherObjectiveIsRefused) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}, 0, Objective{150}).status(),
                "it is for objective mean, not target=150 (pass --objective mean");
  SolitaireTable target = BuildSolitaireTable(Rules{}, 4, nullptr, 0, Objective{150});
  ASSERT_TRUE(WriteTable(target, path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}).status(), "it is for objective target=150, not mean");
  ExpectRefused(ReadTable(path_, Rules{}, 0, Objective{151}).status(), "not target=151");
  absl::StatusOr<SolitaireTable> back = ReadTable(path_, Rules{}, 0, Objective{150});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->objective().target, 150);
  EXPECT_TRUE(SameValues(back->values(), target.values()));
  // An objective field no writer makes is damage, and an edited one fails the checksum.
  TableHeader h;
  h.line_min = 3;
  h.penk_rows = 1;
  h.state_count = target.values().size();
  h.max_free = 4;
  h.objective = 151;
  h.checksum = TableChecksum(h, target.values());
  TableHeader bad = h;
  bad.objective = 500;
  bad.checksum = TableChecksum(bad, target.values());
  ASSERT_TRUE(WriteTableFile(bad, target.values(), path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}, 0, Objective{150}).status(), "names no objective");
  bad = h;
  bad.objective = 0;  // claims to be the expected-score table; checksum of the real header
  ASSERT_TRUE(WriteTableFile(bad, target.values(), path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}).status(), "checksum");
}

TEST_F(TableFileTest, HeaderFieldsAreChecked) {
  TableHeader h;
  h.line_min = 3;
  h.penk_rows = 1;
  h.state_count = table_->values().size();
  h.max_free = 5;
  h.checksum = TableChecksum(h, table_->values());
  TableHeader bad = h;
  bad.format_version = kTableFormatVersion + 1;
  ASSERT_TRUE(WriteTableFile(bad, table_->values(), path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}).status(), "format version");
  bad = h;
  bad.magic ^= 1;
  ASSERT_TRUE(WriteTableFile(bad, table_->values(), path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}).status(), "not a PENK value table");
  bad = h;
  bad.state_count = 12;
  ASSERT_TRUE(WriteTableFile(bad, table_->values(), path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}).status(), "positions, expected 1808664");
  bad = h;
  bad.checksum ^= 1;
  ASSERT_TRUE(WriteTableFile(bad, table_->values(), path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}).status(), "checksum");
  ASSERT_TRUE(WriteTableFile(h, table_->values(), path_).ok());
  EXPECT_TRUE(ReadTable(path_, Rules{}).ok());
}

// Table format 6 (issue 23): a blocked-row table holds only the positions
// its rows allow. A format-5 file (every table a full array) is refused with
// the command that makes the new one; a full array under a format-6 header
// (written by hand) is refused by its size.
TEST_F(TableFileTest, BlockedTablesHoldOnlyTheirPositions) {
  const uint32_t blocked = 0b00101;  // rows 1 and 3
  const SolitaireTable table = BuildSolitaireTable(Rules{}, 4, nullptr, blocked);
  ASSERT_EQ(table.values().size(), 1208256u);
  ASSERT_TRUE(WriteTable(table, path_).ok());
  EXPECT_EQ(std::filesystem::file_size(path_), kTableHeaderBytes + 1208256 * sizeof(double));
  absl::StatusOr<SolitaireTable> back = ReadTable(path_, Rules{}, blocked);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(SameValues(back->values(), table.values()));
  // The same positions in format 5's full array (NaN where none can be).
  std::vector<double> full(kNumSolitaireStates, std::nan(""));
  for (int64_t i = 0; i < table.index().size(); ++i)
    full[StateIndex(table.index().CodesOf(i))] = table.values()[i];
  TableHeader h;
  h.line_min = 3;
  h.penk_rows = 1;
  h.state_count = full.size();
  h.max_free = 4;
  h.blocked_rows = blocked;
  h.format_version = 5;
  h.checksum = TableChecksum(h, full);
  ASSERT_TRUE(WriteTableFile(h, full, path_).ok());
  absl::Status s = ReadTable(path_, Rules{}, blocked).status();
  ExpectRefused(s, "format version 5, this penk reads version 6");
  ExpectRefused(s, "rebuild it with: penk tables build --out " + path_ +
                       " --rules line-min=3,penk-lines=all --blocked-rows 13");
  EXPECT_TRUE(IsOtherTableFormat(s));  // the default folder builds the new one instead
  h.format_version = kTableFormatVersion;
  h.checksum = TableChecksum(h, full);
  ASSERT_TRUE(WriteTableFile(h, full, path_).ok());
  ExpectRefused(ReadTable(path_, Rules{}, blocked).status(),
                "it has 1808664 positions, expected 1208256 for its blocked rows");
}

TEST_F(TableFileTest, FailedWriteLeavesTheOldTable) {
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  const std::string before = Slurp(path_);
  // The temporary file cannot be created: a directory stands in its place.
  std::filesystem::create_directory(TableTempPath(path_));
  EXPECT_FALSE(WriteTable(*table_, path_).ok());
  EXPECT_EQ(Slurp(path_), before);
}

TEST_F(TableFileTest, LoadOrBuildRefusesABadFileAndKeepsIt) {
  // Not a table at all: said so, and no rebuild is suggested over it.
  Spit(path_, "not a table");
  absl::StatusOr<SolitaireTable> t = LoadOrBuildTable(Rules{}, path_);
  ExpectRefused(t.status(), "not a PENK value table");
  EXPECT_EQ(std::string(t.status().message()).find("rebuild"), std::string::npos);
  EXPECT_EQ(Slurp(path_), "not a table");
  // One of ours, damaged: rebuilding it is the fix.
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  std::string bytes = Slurp(path_);
  bytes[bytes.size() - 3] ^= 1;
  Spit(path_, bytes);
  t = LoadOrBuildTable(Rules{}, path_);
  ExpectRefused(t.status(), "rebuild it with: penk tables build --out " + path_);
  EXPECT_EQ(Slurp(path_), bytes);
  // Another variant: pass its rules instead.
  ASSERT_TRUE(WriteTable(*table_, path_).ok());
  Rules other;
  other.line_min = 2;
  t = LoadOrBuildTable(other, path_);
  ExpectRefused(t.status(), "pass --rules line-min=3,penk-lines=all");
  EXPECT_EQ(std::string(t.status().message()).find("rebuild"), std::string::npos);
}

TEST(TablePathTest, VariantsAndBlockedRowsHaveTheirOwnFiles) {
  Rules two;
  two.line_min = 2;
  EXPECT_NE(DefaultTablePath(Rules{}), DefaultTablePath(two));
  EXPECT_NE(DefaultTablePath(Rules{}), DefaultTablePath(Rules{}, 1));
  EXPECT_NE(DefaultTablePath(Rules{}, 0b101).find("blocked=13"), std::string::npos);
  EXPECT_NE(DefaultTablePath(Rules{}), DefaultTablePath(Rules{}, 0, Objective{150}));
  EXPECT_NE(DefaultTablePath(Rules{}, 0, Objective{150}), DefaultTablePath(Rules{}, 0, Objective{15}));
  EXPECT_NE(DefaultTablePath(Rules{}, 0b101, Objective{150}).find("blocked=13_target=150"),
            std::string::npos);
}

}  // namespace
}  // namespace penk
