// One request must never crash the engine nor get past a bound (issue 20):
// deeply nested JSON is refused before it is parsed, a player name is
// bounded and its options given once, a session's spread tables live in its
// table cache under the cap (shared with a server's other connections), and
// a build policy decides which missing tables are built.
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "penk_process.h"
#include "scratch_dir.h"
#include "protocol/json_text.h"
#include "protocol/protocol.h"
#include "solver/solitaire_dp.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"
#include "tables/table_store.h"
#include "tests/completed_tables.h"

namespace penk::protocol {
namespace {

using json = nlohmann::json;

constexpr char kSmallSheet[] = "ooooo/o.ooo/oo.oo/ooo.o/oooo.";  // 4 free cells

json CallLine(Session& s, const std::string& line) { return json::parse(HandleLine(s, line)); }
json Call(Session& s, json request) {
  request["id"] = 1;
  return CallLine(s, request.dump());
}
std::string ErrorOf(const json& reply) {
  if (!reply.contains("error")) return "(no error: " + reply.dump() + ")";
  return reply["error"]["code"].get<std::string>();
}
std::string MessageOf(const json& reply) {
  return reply.contains("error") ? reply["error"]["message"].get<std::string>() : "";
}

// `depth` arrays within each other inside a hello request.
std::string Nested(size_t depth) {
  return "{\"x\":" + std::string(depth, '[') + std::string(depth, ']') + ",\"cmd\":\"hello\"}";
}

TEST(JsonDepth, CountsBracketsOutsideStringsOnly) {
  EXPECT_EQ(JsonDepth("1"), 0);
  EXPECT_EQ(JsonDepth("{}"), 1);
  EXPECT_EQ(JsonDepth(R"({"a":[1,{"b":[]}],"c":{}})"), 4);
  // Brackets in strings, escaped quotes and backslashes do not count.
  EXPECT_EQ(JsonDepth(R"({"a":"[[[{{{"})"), 1);
  EXPECT_EQ(JsonDepth(R"({"a":"\"[[[","b":"\\","c":[]})"), 2);
  // It stops at the first level past the limit.
  EXPECT_EQ(JsonDepth(std::string(1000, '['), 32), 33);
  EXPECT_EQ(JsonDepth(std::string(32, '[') + std::string(32, ']'), 32), 32);
}

TEST(JsonDepth, ParseRefusesDeepNestingAndAcceptsTheBound) {
  EXPECT_TRUE(ParseBoundedJson(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']')).ok());
  absl::StatusOr<nlohmann::ordered_json> deep =
      ParseBoundedJson(std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']'));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nested deeper than 32 levels"), std::string::npos)
      << deep.status();
  EXPECT_EQ(ParseBoundedJson("{\"a\":").status().message(), "not valid JSON");
}

TEST(RequestHardening, DeeplyNestedRequestIsBadJsonNotACrash) {
  Session s;
  // 130,000 levels crashed the engine (a recursion per level); 1,000,000
  // (2 MB) is over the line limit, refused for that.
  for (size_t depth : {33, 1000, 130000, 500000}) {
    json r = CallLine(s, Nested(depth));
    EXPECT_EQ(ErrorOf(r), "bad_json") << depth;
    EXPECT_NE(MessageOf(r).find("nested deeper than 32 levels"), std::string::npos) << r;
  }
  // Objects count as arrays do; the bound itself is served.
  json r = CallLine(s, "{\"x\":" + std::string(40000, '{') + "}");
  EXPECT_EQ(ErrorOf(r), "bad_json") << r;
  json ok = CallLine(s, "{\"id\":1,\"cmd\":\"hello\"}");
  EXPECT_TRUE(ok.contains("result")) << ok;
}

TEST(RequestHardening, EngineProcessAnswersADeepLineAndGoesOn) {
  // 260 KB of nesting ended `penk engine` with SIGSEGV.
  const std::string input = Nested(130000) + "\n{\"id\":2,\"cmd\":\"hello\"}\n";
  testing_support::PenkRun r = testing_support::RunPenkShell("engine --no-build", input, "", 60);
  ASSERT_TRUE(r.exited) << "penk engine was killed by a signal";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = testing_support::SplitLines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out.substr(0, 300);
  EXPECT_EQ(ErrorOf(json::parse(lines[0])), "bad_json");
  EXPECT_EQ(json::parse(lines[1])["id"], 2);
}

TEST(RequestHardening, PlayerNamesAreBoundedAndOptionsGivenOnce) {
  Session s;
  json g = Call(s, {{"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"seed", 9}});
  const int game = g["result"]["game"];
  // 500 KB of options was kept as a player and echoed in every reply.
  std::string lon = "expert";
  while (lon.size() < 500000) lon += ":lambda=1";
  json r = Call(s, {{"cmd", "best_action"}, {"game", game}, {"level", lon}});
  EXPECT_EQ(ErrorOf(r), "unknown_level") << r.dump().substr(0, 300);
  EXPECT_NE(MessageOf(r).find("at most 100 characters"), std::string::npos) << MessageOf(r).substr(0, 300);
  EXPECT_LT(r.dump().size(), 400u) << "the refusal must not echo the name";
  json twice = Call(s, {{"cmd", "best_action"}, {"game", game}, {"level", "expert:lambda=1:lambda=2"}});
  EXPECT_EQ(ErrorOf(twice), "unknown_level") << twice;
  EXPECT_NE(MessageOf(twice).find("\"lambda\" is given twice"), std::string::npos) << twice;
  json unknown = Call(s, {{"cmd", "new_game"}, {"players", {"human", std::string(100000, 'z')}}});
  EXPECT_EQ(ErrorOf(unknown), "unknown_level");
  EXPECT_LT(unknown.dump().size(), 400u);
}

TEST(RequestHardening, TurnsAreBoundedInTheCoreForEveryDoor) {
  Session s;
  std::vector<RankedAction> ranked;
  try {
    s.RankForWinOrFail(Sheet{}, Dice{}, 2, Rules{}, {Sheet{}}, false, 1, 5000, ranked);
    ADD_FAILURE() << "turns 5000 accepted";
  } catch (const EngineError& e) {
    EXPECT_EQ(e.code, ErrorCode::kBadField);
    EXPECT_NE(e.message.find("turns must be 0..1000"), std::string::npos) << e.message;
  }
}

class TablePolicy : public testing::Test {
 protected:
  size_t FilesInDir() const { return scratch_.files(); }
  testing_support::ScratchDir scratch_{"penk_request_hardening"};
  const std::string dir_ = scratch_.path();
};

TEST_F(TablePolicy, TablesOutsideThePolicyAreNotBuilt) {
  SessionOptions o;
  o.table_dir = dir_;
  o.build.rules = {Rules{}};
  o.build.objectives = {Objective{}};
  Session s(o);
  // Another rule variant, another objective: refused, nothing written.
  json r = Call(s, {{"cmd", "value"}, {"sheet", kSmallSheet}, {"rules", "line-min=2"}});
  EXPECT_EQ(ErrorOf(r), "table_error") << r;
  EXPECT_NE(MessageOf(r).find("builds only tables of rules line-min=3,penk-lines=all"),
            std::string::npos) << r;
  EXPECT_NE(MessageOf(r).find("penk tables build --all --rules line-min=2"), std::string::npos)
      << r;
  r = Call(s, {{"cmd", "value"}, {"sheet", kSmallSheet}, {"objective", "target=120"}});
  EXPECT_EQ(ErrorOf(r), "table_error") << r;
  EXPECT_NE(MessageOf(r).find("objective target=120"), std::string::npos) << r;
  EXPECT_EQ(FilesInDir(), 0u);
  // A table already in the folder is served whatever the policy (complete:
  // a partial one is refused at a default path; exact for kSmallSheet).
  ASSERT_TRUE(WriteTable(CompletedTable(Rules{.line_min = 2}, 6),
                         TablePathIn(dir_, Rules{.line_min = 2}))
                  .ok());
  r = Call(s, {{"cmd", "value"}, {"sheet", kSmallSheet}, {"rules", "line-min=2"}});
  EXPECT_TRUE(r.contains("result")) << r;
}

TEST_F(TablePolicy, DiskBudgetStopsBuilds) {
  BuildPolicy p;
  p.disk_budget_bytes = 1000;
  EXPECT_TRUE(p.MayBuild(TableKey{}, dir_, "").ok());
  {
    std::FILE* f = std::fopen((dir_ + "/filler").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(std::string(2000, 'x').data(), 1, 2000, f);
    std::fclose(f);
  }
  absl::Status st = p.MayBuild(TableKey{}, dir_, "penk tables build ...");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("its budget is 0 MB"), std::string::npos) << st;
  EXPECT_NE(st.message().find("make it with: penk tables build"), std::string::npos) << st;
  absl::StatusOr<SolitaireTable> t = LoadOrBuildDefaultTable(Rules{}, dir_, 0, p);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound) << t.status();
  EXPECT_EQ(FilesInDir(), 1u);
}

TEST_F(TablePolicy, AnUnwritableFolderIsSaidBeforeABuild) {
  EXPECT_TRUE(FolderWritable(dir_).ok());
  // A folder below a regular file can never be made (root ignores modes).
  const std::string file = dir_ + "/a_file";
  std::fclose(std::fopen(file.c_str(), "wb"));
  absl::Status st = FolderWritable(file + "/tables");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot create " + file + "/tables"), std::string::npos) << st;
  // A spread table of that folder is built for this process only, and said so.
  SolitaireTable values = BuildSolitaireTable(Rules{}, 4);
  testing::internal::CaptureStderr();
  absl::StatusOr<SpreadTable> spreads = LoadOrBuildSpreadTable(
      values, SpreadSource{file + "/tables/x.penktable", true, true, nullptr});
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(spreads.ok()) << spreads.status();
  EXPECT_NE(err.find("building it for this process only"), std::string::npos) << err;
  EXPECT_EQ(err.find("once"), std::string::npos) << err;
}

// A first blocked-row table names the command that makes all of a game's
// tables at once (issue 22: no stall on them one by one); the solitaire
// table does not need it. Rows 1-5 blocked: a build of a fraction of a second.
TEST_F(TablePolicy, ABlockedRowBuildNamesTheCommandForAll) {
  testing::internal::CaptureStderr();
  absl::StatusOr<SolitaireTable> t =
      LoadOrBuildDefaultTable(Rules{}, dir_, 0b11111, BuildPolicy::All(true));
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_NE(err.find("building it (once, a few seconds); games with opponents need up to 31 such "
                     "tables: make them all at once with: penk tables build --all"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("--table-dir " + dir_), std::string::npos) << err;
}

TEST_F(TablePolicy, SpreadTablesLiveInTheCacheUnderItsCap) {
  ASSERT_TRUE(WriteTable(CompletedTable(Rules{}, 6), TablePathIn(dir_, Rules{})).ok());
  SessionOptions o;
  o.table_dir = dir_;
  o.table_cache_mb = 40;  // a value table and its spread table (14.5 MB each)
  auto shared = MakeTableCache(o);
  o.shared_tables = shared;
  // Sixteen sessions of one server: one spread table among them, not one each.
  std::vector<std::unique_ptr<Session>> sessions;
  for (int i = 0; i < 16; ++i) sessions.push_back(std::make_unique<Session>(o));
  std::vector<std::thread> threads;
  std::atomic<int> with_sd{0};
  for (auto& s : sessions)
    threads.emplace_back([&, session = s.get()] {
      json r = Call(*session, {{"cmd", "value"}, {"sheet", kSmallSheet}});
      if (r.contains("result") && r["result"].contains("sd")) ++with_sd;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(with_sd.load(), 16);
  EXPECT_EQ(shared->size(), 1u);
  EXPECT_EQ(shared->spread_count(), 1u);
  EXPECT_LE(shared->bytes(), size_t{40} << 20);
  // One build of the spread table for all of them, saved once.
  EXPECT_TRUE(std::filesystem::exists(SpreadPathFor(TablePathIn(dir_, Rules{}))));
}

// The static site's sources (issue 23): a missing default table is first
// asked of the policy's fetch (a tables/ folder beside the page), which may
// give a good file (used, nothing built), a bad one (removed, built) or none.
// Rows 2-5 blocked: tables of a fraction of a second, yet not empty (with
// all five blocked a table has no position: every column is closed).
class TableFetch : public TablePolicy {
 protected:
  static constexpr uint32_t kFourRows = 0b11110;
  // A "host" folder holding the value and spread tables of kFourRows.
  void SetUp() override {
    std::filesystem::create_directories(host_);
    ASSERT_TRUE(LoadOrBuildDefaultTable(Rules{}, host_, kFourRows, BuildPolicy::All(true)).ok());
    absl::StatusOr<SolitaireTable> values = ReadTable(TablePathIn(host_, Rules{}, kFourRows), Rules{}, kFourRows);
    ASSERT_TRUE(values.ok());
    ASSERT_TRUE(LoadOrBuildSpreadTable(*values, SpreadSource{TablePathIn(host_, Rules{}, kFourRows), true, true, nullptr}).ok());
  }
  // Copies the host's file of the same name, as the page's fetch does.
  BuildPolicy Fetching(bool allow) {
    BuildPolicy p = BuildPolicy::All(allow);
    p.fetch = [this](const std::string& path) {
      asked_.push_back(path);
      std::error_code ec;
      const std::filesystem::path from = std::filesystem::path(host_) / std::filesystem::path(path).filename();
      return std::filesystem::copy_file(from, path, ec);
    };
    return p;
  }
  const std::string host_ = dir_ + "/host";
  std::vector<std::string> asked_;
};

TEST_F(TableFetch, AFetchedTableIsUsedWithoutABuild) {
  // Building is off: only the fetch can give the tables.
  const BuildPolicy p = Fetching(false);
  absl::StatusOr<SolitaireTable> t = LoadOrBuildDefaultTable(Rules{}, dir_, kFourRows, p);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(asked_, std::vector<std::string>{TablePathIn(dir_, Rules{}, kFourRows)});
  absl::StatusOr<SolitaireTable> host = ReadTable(TablePathIn(host_, Rules{}, kFourRows), Rules{}, kFourRows);
  ASSERT_TRUE(host.ok());
  // Bit for bit (positions no game reaches hold NaN, never equal to itself).
  ASSERT_EQ(t->values().size(), host->values().size());
  ASSERT_GT(t->values().size(), 0u);
  EXPECT_EQ(std::memcmp(t->values().data(), host->values().data(), t->values().size() * sizeof(double)), 0);
  absl::StatusOr<SpreadTable> spreads = FileSpreadLoader(dir_, p)(TableKey{Rules{}, kFourRows, "", {}}, *t);
  ASSERT_TRUE(spreads.ok()) << spreads.status();
  EXPECT_EQ(asked_.size(), 2u);
  EXPECT_EQ(asked_.back(), SpreadPathFor(TablePathIn(dir_, Rules{}, kFourRows)));
  // A table already there is not asked for again.
  ASSERT_TRUE(LoadOrBuildDefaultTable(Rules{}, dir_, kFourRows, p).ok());
  EXPECT_EQ(asked_.size(), 2u);
}

TEST_F(TableFetch, ARefusedFetchedTableIsRemovedAndBuilt) {
  BuildPolicy p = BuildPolicy::All(true);
  p.fetch = [](const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fputs("<html>not found</html>", f);  // a host that answers any name with a page
    std::fclose(f);
    return true;
  };
  testing::internal::CaptureStderr();
  absl::StatusOr<SolitaireTable> t = LoadOrBuildDefaultTable(Rules{}, dir_, kFourRows, p);
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_NE(err.find("is refused (table file " + TablePathIn(dir_, Rules{}, kFourRows) +
                     " refused: not a PENK value table); building it instead"),
            std::string::npos)
      << err;
  EXPECT_TRUE(ReadTable(TablePathIn(dir_, Rules{}, kFourRows), Rules{}, kFourRows).ok());
  testing::internal::CaptureStderr();
  absl::StatusOr<SpreadTable> spreads = FileSpreadLoader(dir_, p)(TableKey{Rules{}, kFourRows, "", {}}, *t);
  const std::string spread_err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(spreads.ok()) << spreads.status();
  EXPECT_NE(spread_err.find("is refused"), std::string::npos) << spread_err;
  EXPECT_TRUE(ReadSpreadTable(SpreadPathFor(TablePathIn(dir_, Rules{}, kFourRows)), Rules{}, kFourRows).ok());
}

TEST_F(TableFetch, NothingIsFetchedOverTheBudget) {
  BuildPolicy p = Fetching(true);
  p.disk_budget_bytes = 1000;
  std::FILE* f = std::fopen((dir_ + "/filler").c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(std::string(2000, 'x').data(), 1, 2000, f);
  std::fclose(f);
  absl::StatusOr<SolitaireTable> t = LoadOrBuildDefaultTable(Rules{}, dir_, kFourRows, p);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound) << t.status();
  EXPECT_TRUE(asked_.empty());
}

// build: 'values' of the static site's first worker: value tables are built,
// spread tables only read; the hint's sd_error says why.
TEST_F(TableFetch, ASpreadTableIsReadNotBuiltWhenSpreadsAreOff) {
  BuildPolicy p = BuildPolicy::All(true);
  p.spreads = false;
  absl::StatusOr<SolitaireTable> t = LoadOrBuildDefaultTable(Rules{}, dir_, kFourRows, p);
  ASSERT_TRUE(t.ok()) << t.status();
  const std::string spread_path = SpreadPathFor(TablePathIn(dir_, Rules{}, kFourRows));
  absl::StatusOr<SpreadTable> spreads = FileSpreadLoader(dir_, p)(TableKey{Rules{}, kFourRows, "", {}}, *t);
  EXPECT_EQ(spreads.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(spreads.status().message().find("no spread table at " + spread_path +
                                            " and this engine reads spread tables but does not "
                                            "build them"),
            std::string::npos)
      << spreads.status();
  EXPECT_FALSE(std::filesystem::exists(spread_path));
  EXPECT_NE(DescribeBuildPolicy(p).find("spread tables are read, not built"), std::string::npos);
  // Once another engine has put it there, it is read.
  ASSERT_TRUE(std::filesystem::copy_file(SpreadPathFor(TablePathIn(host_, Rules{}, kFourRows)), spread_path));
  EXPECT_TRUE(FileSpreadLoader(dir_, p)(TableKey{Rules{}, kFourRows, "", {}}, *t).ok());
}

// The second worker learns what a value table is for from its header.
TEST_F(TableFetch, ATableFileSaysWhatItIsFor) {
  absl::StatusOr<TableKey> key = ReadTableKey(TablePathIn(host_, Rules{}, kFourRows));
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->blocked_rows, kFourRows);
  EXPECT_EQ(key->rules, Rules{});
  EXPECT_FALSE(key->objective.is_target());
  absl::StatusOr<TableKey> spread = ReadTableKey(SpreadPathFor(TablePathIn(host_, Rules{}, kFourRows)));
  EXPECT_EQ(spread.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(spread.status().message().find("not a PENK value table of format version"), std::string::npos);
  EXPECT_EQ(ReadTableKey(dir_ + "/none.penktable").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace penk::protocol

namespace penk::protocol {
namespace {

// A seed the engine draws survives a JavaScript client's JSON.parse (a
// double holds integers up to 2^53), so that the game can be replayed.
TEST(RequestHardening, DrawnSeedsFitADouble) {
  Session s;
  for (int i = 0; i < 64; ++i) {
    json g = Call(s, {{"cmd", "new_game"}, {"players", {"human"}}});
    ASSERT_TRUE(g.contains("result")) << g;
    const uint64_t seed = g["result"]["seed"];
    EXPECT_LT(seed, uint64_t{1} << 53) << seed;
    Call(s, {{"cmd", "close_game"}, {"game", g["result"]["game"]}});
  }
}

}  // namespace
}  // namespace penk::protocol
