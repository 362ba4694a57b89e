// The engine protocol (issue 6, docs/PROTOCOL.md): every command and every
// error path through HandleLine, and the `penk engine` process end to end.
// Tables: a small one (positions with at most 6 free cells) built once per
// machine into the test temp dir; no test builds a full table.
#include "protocol/protocol.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "absl/strings/str_format.h"
#include "engine/marking.h"
#include "engine/rules.h"
#include "engine/score.h"
#include "gtest/gtest.h"
#include "ai/bot.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tables/table_store.h"
#include "tests/completed_tables.h"

namespace penk::protocol {
namespace {

using json = nlohmann::json;

// 4 free cells, one closed column: solved by the small table.
constexpr char kSmallSheet[] = "ooooo/o.ooo/oo.oo/ooo.o/oooo.";
constexpr char kEmptySheet[] = "...../...../...../...../.....";
// Row 5 crossed by an opponent's PENK (R4.2), 4 free cells, column 1 closed.
constexpr char kBlockedSheet[] = "o.ooo/oo.oo/ooo.o/oooo./xxxxx";

std::string SmallTable(uint32_t blocked = 0) {
  const std::string path = testing::TempDir() + "penk_engine_test_v" +
                           std::to_string(kTableFormatVersion) + "_free6_blocked" +
                           std::to_string(blocked) + ".penktable";
  if (!std::filesystem::exists(path)) {
    SolitaireTable t = BuildSolitaireTable(Rules{}, 6, nullptr, blocked);
    EXPECT_TRUE(WriteTable(t, path).ok());  // atomic rename: parallel tests are safe
  }
  return path;
}

// A table folder holding, under the default file name (the AI players' and
// hints' default table), the small table completed beyond its 6 free cells
// by a synthetic estimate (tests/completed_tables.h): a partial table is
// refused there. Its values where the small table solves are the small
// table's, so hints on those positions equal `penk hint --table small`.
// Removed by the caller.
std::string SmallTableDir(const std::string& tag, uint32_t blocked = 0) {
  const std::string dir = testing::TempDir() + "penk_engine_test_" + tag + "_" + std::to_string(getpid());
  CompletedTableDir(dir, 6);
  if (blocked) CompletedTableDir(dir, 6, blocked);
  return dir;
}

json Call(Session& s, const json& request) {
  std::string reply = HandleLine(s, request.dump());
  json j = json::parse(reply);  // every reply is one valid JSON object
  EXPECT_TRUE(j.is_object()) << reply;
  EXPECT_EQ(j.count("result") + j.count("error"), 1u) << reply;
  return j;
}

json Raw(Session& s, const std::string& line) { return json::parse(HandleLine(s, line)); }

std::string ErrorOf(const json& reply) {
  if (!reply.contains("error")) return "(no error: " + reply.dump() + ")";
  return reply["error"]["code"].get<std::string>();
}

// Runs the penk binary and returns its stdout.
std::string RunPenk(const std::string& args, const std::string& env = "") {
  std::string out;
  FILE* p = popen((env + " " + PENK_BINARY + " " + args + " 2>/dev/null").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

TEST(EngineProtocol, HelloNamesVersionAndLevels) {
  Session s;
  json r = Call(s, {{"id", 1}, {"cmd", "hello"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["id"], 1);
  const json& h = r["result"];
  EXPECT_EQ(h["name"], "penk");
  EXPECT_EQ(h["version"], kEngineVersion);
  EXPECT_EQ(h["protocol"], kProtocolVersion);
  // One meaning (issue 24): "levels" are the levels, weakest first, one name
  // each; "seats" every name a seat takes, aliases included.
  EXPECT_EQ(h["levels"], json({"random", "solitaire", "greedy", "expert", "neural", "master"}));
  EXPECT_EQ(h["seats"], json({"human", "bot", "greedy", "random", "solitaire", "optimal",
                              "expert", "neural", "master"}));
  for (size_t i = 0; i < h["level_info"].size(); ++i)
    EXPECT_EQ(h["level_info"][i]["name"], h["levels"][i]);
  EXPECT_EQ(h["rules"]["default"], FormatRules(Rules{}));
  EXPECT_EQ(h["rules"]["variants"]["penk-lines"], json({"all", "columns"}));
  EXPECT_EQ(h["commands"].size(), 14u);  // export (game records), prepare and cancel (protocol 3)
  // Every offered level has a one-line description; optimal is solitaire's alias.
  ASSERT_EQ(h["level_info"].size(), std::size(kLevels));
  for (const json& l : h["level_info"]) EXPECT_FALSE(l["description"].get<std::string>().empty()) << l;
  EXPECT_EQ(h["level_info"][1]["name"], "solitaire");
  EXPECT_EQ(h["level_info"][1]["aliases"], json({"optimal"}));
}

TEST(EngineProtocol, IdIsEchoedAsGiven) {
  Session s;
  EXPECT_EQ(Call(s, {{"id", "abc"}, {"cmd", "hello"}})["id"], "abc");
  EXPECT_TRUE(Call(s, {{"cmd", "hello"}})["id"].is_null());
  EXPECT_EQ(Call(s, {{"id", -7}, {"cmd", "nope"}})["id"], -7);
  // Integers up to 2^53 come back exactly; anything else is refused.
  EXPECT_EQ(Raw(s, R"({"id":9007199254740992,"cmd":"hello"})")["id"], 9007199254740992ll);
  EXPECT_EQ(Raw(s, R"({"id":-9007199254740992,"cmd":"hello"})")["id"], -9007199254740992ll);
  for (const char* line : {R"({"id":9007199254740993,"cmd":"hello"})",
                           R"({"id":123456789012345678901234567890,"cmd":"hello"})",
                           R"({"id":2.5,"cmd":"hello"})", R"({"id":null,"cmd":"hello"})",
                           R"({"id":true,"cmd":"hello"})", R"({"id":"a\u0000b","cmd":"hello"})"}) {
    json r = Raw(s, line);
    EXPECT_EQ(ErrorOf(r), "bad_field") << line;
    EXPECT_TRUE(r["id"].is_null()) << line;
  }
}

TEST(EngineProtocol, UnknownFieldsAreRefusedByName) {
  // A misspelt field must never give the answer for a default (issue 10).
  Session s;
  struct Case {
    json request;
    const char* field;
  };
  const Case cases[] = {
      {{{"cmd", "hint"}, {"roll", "3335JJ"}, {"rerolls_left", 0}}, "rerolls_left"},
      {{{"cmd", "hint"}, {"roll", "3335JJ"}, {"opponent", "...../...../...../...../....."}}, "opponent"},
      {{{"cmd", "hint"}, {"roll", "3335JJ"}, {"turn", 3}}, "turn"},
      {{{"cmd", "hint"}, {"roll", "3335JJ"}, {"lastRound", true}}, "lastRound"},
      {{{"cmd", "value"}, {"rule", "line-min=1"}}, "rule"},
      {{{"cmd", "new_game"}, {"players", {"human"}}, {"rule", "line-min=1"}}, "rule"},
      {{{"cmd", "new_game"}, {"players", {"human"}}, {"Seed", 3}}, "Seed"},
      {{{"cmd", "hello"}, {"verbose", true}}, "verbose"},
      {{{"cmd", "new_game"}, {"players", {"human"}}, {"position", {{"sheet", {kEmptySheet}}}}},
       "position.sheet"},
  };
  for (const Case& c : cases) {
    json req = c.request;
    req["id"] = 1;
    json r = Call(s, req);
    EXPECT_EQ(ErrorOf(r), "bad_field") << req;
    const std::string message = r["error"]["message"];
    EXPECT_NE(message.find(std::string("\"") + c.field + "\""), std::string::npos) << message;
  }
  // The message lists the command's fields.
  json r = Call(s, {{"id", 1}, {"cmd", "value"}, {"rule", "x"}});
  EXPECT_NE(r["error"]["message"].get<std::string>().find("sheet, rules, table"), std::string::npos) << r;
  // hint with a game takes its position from the game only.
  Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 1}});
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 1}, {"cmd", "hint"}, {"game", 1}, {"roll", "3335JJ"}})), "bad_field");
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 1}, {"cmd", "hint"}, {"game", 2}})), "unknown_game");
  // Fields that describe opponents need opponents.
  for (const char* f : {"seat", "turns", "last_round"}) {
    json req = {{"id", 1}, {"cmd", "hint"}, {"roll", "3335JJ"}};
    req[f] = std::string(f) == "last_round" ? json(true) : json(1);
    EXPECT_EQ(ErrorOf(Call(s, req)), "bad_field") << f;
  }
}

TEST(EngineProtocol, EmptyActionsNulBytesAndRulesTexts) {
  Session s;
  Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 1}});
  json before = Call(s, {{"id", 1}, {"cmd", "state"}, {"game", 1}})["result"];
  for (const char* empty : {"", "  "}) {
    json r = Call(s, {{"id", 2}, {"cmd", "apply"}, {"game", 1}, {"action", empty}});
    EXPECT_EQ(ErrorOf(r), "bad_field") << empty;
  }
  // A NUL byte in the line or inside a string is refused, not cut short.
  std::string with_nul = "{\"id\":3,\"cmd\":\"hello\"}";
  with_nul += '\0';
  with_nul += "garbage";
  EXPECT_EQ(ErrorOf(Raw(s, with_nul)), "bad_json");
  EXPECT_EQ(ErrorOf(Raw(s, R"({"id":4,"cmd":"apply","game":1,"action":"-\u0000stop"})")), "bad_field");
  EXPECT_EQ(Call(s, {{"id", 5}, {"cmd", "state"}, {"game", 1}})["result"], before);  // unchanged
  // Rules texts: each option once, nothing empty.
  for (const char* bad : {"line-min=3,line-min=4", ",", "line-min=3,", "penk-lines=all,penk-lines=columns",
                          " , line-min=2"}) {
    json r = Call(s, {{"id", 6}, {"cmd", "value"}, {"sheet", kEmptySheet}, {"rules", bad}});
    EXPECT_EQ(ErrorOf(r), "bad_position") << bad;
  }
}

TEST(EngineProtocol, MalformedRequests) {
  Session s;
  for (const char* line : {"", "{", "garbage", "{\"id\":1,", "\xff\xfe", "{\"id\":1}}"}) {
    json r = Raw(s, line);
    EXPECT_EQ(ErrorOf(r), "bad_json") << line;
    EXPECT_TRUE(r["id"].is_null());
  }
  for (const char* line : {"[1,2]", "42", "\"hello\"", "null"}) EXPECT_EQ(ErrorOf(Raw(s, line)), "bad_json");
  EXPECT_EQ(ErrorOf(Raw(s, std::string(2 << 20, ' '))), "bad_json");  // overlong line
  json r = Call(s, {{"id", {1, 2}}, {"cmd", "hello"}});
  EXPECT_EQ(ErrorOf(r), "bad_field");
  EXPECT_TRUE(r["id"].is_null());
  EXPECT_EQ(ErrorOf(Call(s, {{"id", json::object()}, {"cmd", "hello"}})), "bad_field");
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 3}})), "bad_field");
  r = Call(s, {{"id", 4}, {"cmd", 17}});
  EXPECT_EQ(ErrorOf(r), "bad_field");
  EXPECT_EQ(r["id"], 4);
  r = Call(s, {{"id", 5}, {"cmd", "fly"}});
  EXPECT_EQ(ErrorOf(r), "unknown_command");
  EXPECT_NE(r["error"]["message"].get<std::string>().find("fly"), std::string::npos);
  // Invalid UTF-8 inside a string that the reply quotes: still a valid reply.
  r = Raw(s, "{\"id\":6,\"cmd\":\"\xc3\x28\"}");
  EXPECT_EQ(ErrorOf(r), "bad_json");  // nlohmann refuses invalid UTF-8 on input
  r = Raw(s, "{\"id\":7,\"cmd\":\"hint\",\"roll\":\"\\u00e9\\u00e9\"}");
  EXPECT_EQ(ErrorOf(r), "bad_position");
}

TEST(EngineProtocol, NewGameStateAndApply) {
  Session s;
  json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"seed", 7}});
  ASSERT_TRUE(r.contains("result")) << r;
  json st = r["result"];
  const int game = st["game"];
  EXPECT_EQ(st["players"].size(), 2u);
  EXPECT_EQ(st["players"][0]["seat"], "human");
  EXPECT_EQ(st["players"][1]["seat"], "greedy");
  EXPECT_EQ(st["players"][0]["sheet"], kEmptySheet);
  EXPECT_EQ(st["players"][0]["score"], 0);
  EXPECT_EQ(st["current"], 0);
  EXPECT_EQ(st["phase"], "keep");
  EXPECT_EQ(st["rerolls_left"], 2);
  EXPECT_EQ(st["last_round"], false);
  EXPECT_EQ(st["seed"], 7);
  EXPECT_EQ(st["dice"].get<std::string>().size(), 6u);
  EXPECT_FALSE(st.contains("winners"));
  // The same seed gives the same dice; the state command repeats the state.
  json again = Call(s, {{"id", 2}, {"cmd", "new_game"}, {"players", "human,greedy"}, {"seed", 7}});
  EXPECT_EQ(again["result"]["dice"], st["dice"]);
  EXPECT_NE(again["result"]["game"], game);
  EXPECT_EQ(Call(s, {{"id", 3}, {"cmd", "state"}, {"game", game}})["result"], st);

  // Keep: the first legal keep ("-" rerolls all) uses a reroll.
  ASSERT_EQ(st["legal_actions"][0], "-");
  r = Call(s, {{"id", 4}, {"cmd", "apply"}, {"game", game}, {"action", "-"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["rerolls_left"], 1);
  // Stop: the marking phase; every legal marking is listed.
  r = Call(s, {{"id", 5}, {"cmd", "apply"}, {"game", game}, {"action", "stop"}});
  EXPECT_EQ(r["result"]["phase"], "mark");
  EXPECT_EQ(r["result"]["rerolls_left"], 0);
  json before = r["result"];
  // An illegal action is refused and changes nothing.
  for (const char* bad : {"zzz", "fail:9", "123456J"}) {
    json e = Call(s, {{"id", 6}, {"cmd", "apply"}, {"game", game}, {"action", bad}});
    EXPECT_EQ(ErrorOf(e), "illegal_action") << bad;
    EXPECT_EQ(e["id"], 6);
  }
  EXPECT_EQ(Call(s, {{"id", 7}, {"cmd", "state"}, {"game", game}})["result"], before);
  // A legal marking ends the turn: the next player is to move.
  std::string marking = before["legal_actions"][0];
  r = Call(s, {{"id", 8}, {"cmd", "apply"}, {"game", game}, {"action", marking}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["current"], 1);
  EXPECT_EQ(r["result"]["players"][0]["turns"], 1);
  EXPECT_EQ(r["result"]["last_turn"]["player"], 0);
  EXPECT_EQ(r["result"]["last_turn"]["marking"], marking);
}

TEST(EngineProtocol, NewGameErrors) {
  SessionOptions o;
  o.max_games = 2;
  Session s(o);
  auto code = [&](json req) {
    req["id"] = 1;
    req["cmd"] = "new_game";
    return ErrorOf(Call(s, req));
  };
  EXPECT_EQ(code({}), "bad_field");                                      // no players
  EXPECT_EQ(code({{"players", json::array()}}), "bad_field");            // none
  EXPECT_EQ(code({{"players", {"greedy", "greedy", "greedy", "greedy", "greedy"}}}), "bad_field");
  EXPECT_EQ(code({{"players", {"human", 3}}}), "bad_field");
  EXPECT_EQ(code({{"players", 3}}), "bad_field");
  EXPECT_EQ(code({{"players", {"human", "grandmaster"}}}), "unknown_level");
  EXPECT_EQ(code({{"players", "human,"}}), "unknown_level");  // empty name
  EXPECT_EQ(code({{"players", {"human"}}, {"rules", "line-min=9"}}), "bad_position");
  EXPECT_EQ(code({{"players", {"human"}}, {"rules", 3}}), "bad_field");
  EXPECT_EQ(code({{"players", {"human"}}, {"seed", -1}}), "bad_field");
  for (const char* bad : {"", "x7", "-1", " 7", "18446744073709551616"})  // a seed as digits only
    EXPECT_EQ(code({{"players", {"human"}}, {"seed", bad}}), "bad_field") << bad;
  EXPECT_EQ(code({{"players", {"human"}}, {"seed", 1.5}}), "bad_field");
  // Rules variants and a seed beyond 2^63 are accepted; no seed: a random one.
  json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"HUMAN"}},
                    {"rules", "penk-lines=columns,line-min=1"}, {"seed", 18446744073709551615ull}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["rules"], "line-min=1,penk-lines=columns");
  // From 2^53 on the state shows the seed as a string (issue 22 item 2),
  // which new_game takes back.
  EXPECT_EQ(r["result"]["seed"], "18446744073709551615");
  EXPECT_EQ(r["result"]["players"][0]["seat"], "human");
  {  // the string form gives the same game (another session: max_games = 2 here)
    Session other(o);
    json again = Call(other, {{"id", 1}, {"cmd", "new_game"}, {"players", {"HUMAN"}},
                              {"rules", "penk-lines=columns,line-min=1"}, {"seed", "18446744073709551615"}});
    ASSERT_TRUE(again.contains("result")) << again;
    EXPECT_EQ(again["result"], r["result"]);
  }
  r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"random"}}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_TRUE(r["result"]["seed"].is_number_unsigned());
  EXPECT_EQ(code({{"players", {"human"}}}), "limit");  // max_games = 2
  EXPECT_TRUE(Call(s, {{"id", 1}, {"cmd", "close_game"}, {"game", 1}}).contains("result"));
  EXPECT_TRUE(Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}}).contains("result"));
}

TEST(EngineProtocol, GameIdErrors) {
  Session s;
  Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 1}});
  for (const char* cmd : {"state", "apply", "best_action", "close_game"}) {
    json base = {{"id", 1}, {"cmd", cmd}};
    if (std::string(cmd) == "apply") base["action"] = "stop";
    if (std::string(cmd) == "best_action") base["level"] = "greedy";
    EXPECT_EQ(ErrorOf(Call(s, base)), "bad_field") << cmd;  // no game
    base["game"] = "1";
    EXPECT_EQ(ErrorOf(Call(s, base)), "bad_field") << cmd;
    base["game"] = 0;
    EXPECT_EQ(ErrorOf(Call(s, base)), "bad_field") << cmd;
    base["game"] = 1.0;
    EXPECT_EQ(ErrorOf(Call(s, base)), "bad_field") << cmd;
    base["game"] = 42;
    EXPECT_EQ(ErrorOf(Call(s, base)), "unknown_game") << cmd;
  }
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 1}, {"cmd", "apply"}, {"game", 1}})), "bad_field");  // no action
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 1}, {"cmd", "apply"}, {"game", 1}, {"action", 5}})), "bad_field");
  // The game survived all of that.
  EXPECT_TRUE(Call(s, {{"id", 1}, {"cmd", "state"}, {"game", 1}}).contains("result"));
}

TEST(EngineProtocol, CloseGame) {
  Session s;
  Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 1}});
  json r = Call(s, {{"id", 2}, {"cmd", "close_game"}, {"game", 1}});
  EXPECT_EQ(r["result"]["closed"], 1);
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 3}, {"cmd", "state"}, {"game", 1}})), "unknown_game");
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 4}, {"cmd", "close_game"}, {"game", 1}})), "unknown_game");
  EXPECT_EQ(s.game_count(), 0u);
}

TEST(EngineProtocol, LimitOnOpenGames) {
  SessionOptions o;
  o.max_games = 1;
  Session s(o);
  EXPECT_TRUE(Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}}).contains("result"));
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 2}, {"cmd", "new_game"}, {"players", {"human"}}})), "limit");
  Call(s, {{"id", 3}, {"cmd", "close_game"}, {"game", 1}});
  EXPECT_TRUE(Call(s, {{"id", 4}, {"cmd", "new_game"}, {"players", {"human"}}}).contains("result"));
}

TEST(EngineProtocol, BestActionPlaysWholeGames) {
  for (const char* players : {"greedy,random", "random,greedy,bot", "greedy"}) {
    Session s;
    json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", players}, {"seed", 11}});
    const int game = r["result"]["game"];
    json st = r["result"];
    int moves = 0;
    while (st["phase"] != "over") {
      ASSERT_LT(++moves, 2000);
      // Without apply the action is only reported; it is one of the legal actions.
      json look = Call(s, {{"id", moves}, {"cmd", "best_action"}, {"game", game}});
      ASSERT_TRUE(look.contains("result")) << look;
      EXPECT_EQ(look["result"]["applied"], false);
      EXPECT_EQ(look["result"]["player"], st["current"]);
      const json& legal = st["legal_actions"];
      EXPECT_NE(std::find(legal.begin(), legal.end(), look["result"]["action"]), legal.end())
          << look;
      EXPECT_EQ(Call(s, {{"id", 0}, {"cmd", "state"}, {"game", game}})["result"], st);
      json play = Call(s, {{"id", moves}, {"cmd", "best_action"}, {"game", game}, {"apply", true}});
      ASSERT_TRUE(play.contains("result")) << play;
      EXPECT_EQ(play["result"]["applied"], true);
      st = play["result"]["state"];
    }
    EXPECT_EQ(st["legal_actions"], json::array());
    EXPECT_EQ(st["dice"], "");
    ASSERT_TRUE(st.contains("winners"));
    int best = -1;
    for (const json& p : st["players"]) best = std::max(best, p["score"].get<int>());
    for (const json& w : st["winners"]) EXPECT_EQ(st["players"][w.get<int>()]["score"], best);
    // R5.2: everyone had the same number of turns.
    for (const json& p : st["players"]) EXPECT_EQ(p["turns"], st["players"][0]["turns"]);
    // The game is over: no more decisions.
    EXPECT_EQ(ErrorOf(Call(s, {{"id", 1}, {"cmd", "best_action"}, {"game", game}})), "illegal_action");
    EXPECT_EQ(ErrorOf(Call(s, {{"id", 1}, {"cmd", "apply"}, {"game", game}, {"action", "stop"}})),
              "illegal_action");
  }
}

TEST(EngineProtocol, BestActionErrors) {
  Session s;
  Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"seed", 3}});
  // A human seat has no level of its own.
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 2}, {"cmd", "best_action"}, {"game", 1}})), "bad_field");
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 3}, {"cmd", "best_action"}, {"game", 1}, {"level", "god"}})),
            "unknown_level");
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 4}, {"cmd", "best_action"}, {"game", 1}, {"level", 2}})),
            "bad_field");
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 5}, {"cmd", "best_action"}, {"game", 1}, {"level", "greedy"},
                             {"apply", "yes"}})),
            "bad_field");
  // Any level may advise a human seat.
  json r = Call(s, {{"id", 6}, {"cmd", "best_action"}, {"game", 1}, {"level", "Greedy"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["level"], "greedy");
  // A session restricted to some levels refuses the others.
  SessionOptions o;
  o.levels = {"random"};
  Session restricted(o);
  EXPECT_EQ(ErrorOf(Call(restricted, {{"id", 1}, {"cmd", "new_game"}, {"players", {"greedy"}}})),
            "unknown_level");
  Call(restricted, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}});
  EXPECT_EQ(ErrorOf(Call(restricted,
                         {{"id", 1}, {"cmd", "best_action"}, {"game", 1}, {"level", "greedy"}})),
            "unknown_level");
}

TEST(EngineProtocol, FailureIsAnAction) {
  // Find a seeded one-player game that reaches a failure (R3.5) by stopping
  // at once and marking only when forced; apply "fail:v" through the protocol.
  Session s;
  for (int seed = 0; seed < 400; ++seed) {
    json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", seed}});
    const int game = r["result"]["game"];
    json st = r["result"];
    for (int turn = 0; turn < 40 && st["phase"] != "over"; ++turn) {
      st = Call(s, {{"id", 2}, {"cmd", "apply"}, {"game", game}, {"action", "stop"}})["result"];
      std::string first = st["legal_actions"][0];
      if (first.rfind("fail:", 0) == 0) {
        // A marking is refused now; a failure on a closed column too.
        EXPECT_EQ(ErrorOf(Call(s, {{"id", 3}, {"cmd", "apply"}, {"game", game}, {"action", "1:1"}})),
                  "illegal_action");
        r = Call(s, {{"id", 4}, {"cmd", "apply"}, {"game", game}, {"action", first}});
        ASSERT_TRUE(r.contains("result")) << r;
        EXPECT_EQ(r["result"]["last_turn"]["failed_column"], first[5] - '0');
        return;
      }
      // Use up the sheet quickly: the largest marking first.
      std::string best = first;
      for (const json& a : st["legal_actions"])
        if (a.get<std::string>().size() > best.size()) best = a;
      st = Call(s, {{"id", 5}, {"cmd", "apply"}, {"game", game}, {"action", best}})["result"];
    }
    Call(s, {{"id", 6}, {"cmd", "close_game"}, {"game", game}});
  }
  FAIL() << "no failure reached";
}

class EngineTables : public testing::Test {
 protected:
  // A session reading the tables of `dir` and building none.
  static SessionOptions FolderOnly(const std::string& dir) {
    SessionOptions o;
    o.table_dir = dir;
    o.build.allow = false;
    return o;
  }
  json Hint(Session& s, json fields) {
    fields["id"] = 1;
    fields["cmd"] = "hint";
    return Call(s, fields);
  }
  json Value(Session& s, json fields) {
    fields["id"] = 1;
    fields["cmd"] = "value";
    return Call(s, fields);
  }
};

TEST_F(EngineTables, HintEqualsPenkHintJson) {
  const std::string table = SmallTable();
  Session s;
  for (int rerolls : {2, 1, 0}) {
    for (const char* roll : {"12345J", "3335JJ", "JJJJJ2", "111111"}) {
      json r = Hint(s, {{"sheet", kSmallSheet}, {"roll", roll}, {"rerolls", rerolls}, {"table", table}});
      ASSERT_TRUE(r.contains("result")) << r;
      json cli = json::parse(RunPenk(std::string("hint --json --sheet ") + kSmallSheet +
                                     " --roll " + roll + " --rerolls " + std::to_string(rerolls) +
                                     " --table " + table));
      // Each action's sd (issue 13) too; the whole object is the CLI's.
      for (const json& a : r["result"]["actions"]) EXPECT_TRUE(a.contains("sd")) << a;
      EXPECT_EQ(r["result"], cli) << roll << " " << rerolls;
    }
  }
  // rerolls defaults to 2; top keeps the best K.
  json all = Hint(s, {{"sheet", kSmallSheet}, {"roll", "12345J"}, {"table", table}});
  EXPECT_EQ(all["result"]["rerolls"], 2);
  json top = Hint(s, {{"sheet", kSmallSheet}, {"roll", "12345J"}, {"table", table}, {"top", 3}});
  ASSERT_EQ(top["result"]["actions"].size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(top["result"]["actions"][i], all["result"]["actions"][i]);
  // A failure roll with no reroll left ranks the failures (R3.5).
  json fail = Hint(s, {{"sheet", kSmallSheet}, {"roll", "111111"},
                       {"rerolls", 0}, {"table", table}});
  ASSERT_TRUE(fail.contains("result")) << fail;
  EXPECT_EQ(fail["result"]["actions"][0]["action"].get<std::string>().substr(0, 5), "fail:");
}

// The target objective (issue 13) through the engine: the same answer as
// `penk hint/value --objective`, probabilities as values, and refusals.
TEST_F(EngineTables, TargetObjectiveEqualsTheCli) {
  const Sheet sheet = *ParseSheet(kSmallSheet);
  Sheet full = sheet;
  full.circled |= sheet.free();
  // One turn is left (column 1 is closed, every marking closes another): a
  // target a few points above the score is reached only by some rolls.
  const int target = Score(sheet, Rules{}) + (Score(full, Rules{}) - Score(sheet, Rules{})) / 4;
  const std::string objective = "target=" + std::to_string(target);
  const std::string table = testing::TempDir() + "penk_engine_test_v" +
                            std::to_string(kTableFormatVersion) + "_free6_" + objective + "_" +
                            std::to_string(getpid()) + ".penktable";
  SolitaireTable built = BuildSolitaireTable(Rules{}, 6, nullptr, 0, Objective{target});
  ASSERT_TRUE(WriteTable(built, table).ok());
  Session s;
  json v = Value(s, {{"sheet", kSmallSheet}, {"table", table}, {"objective", objective}});
  ASSERT_TRUE(v.contains("result")) << v;
  EXPECT_EQ(v["result"]["objective"], objective);
  const double p = v["result"]["value"].get<double>();
  EXPECT_NEAR(p, *built.Value(sheet), 1e-6);
  EXPECT_GT(p, 0.0);
  EXPECT_LT(p, 1.0);
  EXPECT_EQ(RunPenk("value --sheet " + std::string(kSmallSheet) + " --table " + table +
                    " --objective " + objective)
                .find(absl::StrFormat("value: %.6f", p)) != std::string::npos,
            true);
  json h = Hint(s, {{"sheet", kSmallSheet}, {"roll", "12345J"}, {"table", table},
                    {"objective", objective}});
  ASSERT_TRUE(h.contains("result")) << h;
  json cli = json::parse(RunPenk("hint --json --sheet " + std::string(kSmallSheet) +
                                 " --roll 12345J --table " + table + " --objective " + objective));
  EXPECT_EQ(h["result"], cli);
  // Each action's mean (the expected final score under the target policy)
  // and sd (issue 13), as the CLI's; the position's too, as `penk value`'s.
  for (const json& a : h["result"]["actions"]) {
    EXPECT_TRUE(a.contains("mean")) << a;
    EXPECT_TRUE(a.contains("sd")) << a;
    EXPECT_GE(a["mean"].get<double>(), Score(sheet, Rules{})) << a;
  }
  const std::string value_out = RunPenk("value --sheet " + std::string(kSmallSheet) + " --table " +
                                        table + " --objective " + objective);
  ASSERT_NE(value_out.find(absl::StrFormat("mean: %.6f", v["result"]["mean"].get<double>())),
            std::string::npos)
      << value_out << v;
  ASSERT_NE(value_out.find(absl::StrFormat("sd: %.6f", v["result"]["sd"].get<double>())),
            std::string::npos)
      << value_out << v;
  // A table of another objective, a malformed objective, or one with opponents.
  json wrong = Value(s, {{"sheet", kSmallSheet}, {"table", table}});
  EXPECT_EQ(ErrorOf(wrong), "table_error");
  EXPECT_NE(wrong.dump().find("it is for objective " + objective), std::string::npos) << wrong;
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", kSmallSheet}, {"objective", "target=191"}})), "bad_field");
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", kSmallSheet}, {"objective", 150}})), "bad_field");
  EXPECT_EQ(ErrorOf(Hint(s, {{"roll", "12345J"}, {"objective", objective},
                             {"opponents", {kEmptySheet}}})),
            "bad_field");
  std::filesystem::remove(table);
}

TEST_F(EngineTables, HintWithOpponentsEqualsPenkHintOpponent) {
  // Multiplayer hint (issue 4's `penk hint --opponent`): ranked by expert's
  // estimated win probability. Expert's tables come through the table cache
  // from a table folder holding the small table under the default name, for
  // the engine (its session's table cache) and the CLI (PENK_TABLE_DIR) alike.
  const std::string dir = SmallTableDir("mp");
  Session s(FolderOnly(dir));
  // A position a game can reach (R4.2): no line completed on either sheet.
  const char* mover = "oooo./ooo.o/oo.oo/o.ooo/.oooo";
  const char* opponent = ".oooo/o.ooo/oo.oo/ooo.o/oooo.";
  // The CLI builds the folder's spread table (each action's sd) and saves
  // it; the engine, not building, then reads it.
  RunPenk(std::string("hint --json --sheet ") + mover + " --roll 12345J --opponent " + opponent,
          "PENK_TABLE_DIR=" + dir);
  // Two columns closed by failures: the last round (R5.2).
  const char* closing = "xx.oo/xxo.o/xxoo./xxooo/xxooo";
  for (int rerolls : {1, 0}) {
    for (bool last_round : {false, true}) {
      const char* opp = last_round ? closing : opponent;
      json r = Hint(s, {{"sheet", mover}, {"roll", "12345J"}, {"rerolls", rerolls},
                        {"opponents", {opp}}, {"last_round", last_round}});
      ASSERT_TRUE(r.contains("result")) << r;
      json cli = json::parse(RunPenk(std::string("hint --json --sheet ") + mover +
                                         " --roll 12345J --rerolls " + std::to_string(rerolls) +
                                         " --opponent " + opp +
                                         (last_round ? " --last-round" : ""),
                                     "PENK_TABLE_DIR=" + dir));
      EXPECT_EQ(r["result"], cli) << rerolls << " " << last_round;
      EXPECT_TRUE(r["result"]["actions"][0].contains("win"));
    }
  }
  // seat and turns are passed on as --seat and --turn.
  json r = Hint(s, {{"sheet", mover}, {"roll", "3335JJ"}, {"rerolls", 2},
                    {"opponents", {opponent, opponent}}, {"seat", 2}, {"turns", 5}, {"top", 5}});
  ASSERT_TRUE(r.contains("result")) << r;
  json cli = json::parse(RunPenk(std::string("hint --json --sheet ") + mover +
                                     " --roll 3335JJ --opponent " + opponent + " --opponent " +
                                     opponent + " --seat 2 --turn 5 --top 5",
                                 "PENK_TABLE_DIR=" + dir));
  EXPECT_EQ(r["result"], cli);
  // Each action's sd is the solitaire hint's for that action (the play whose
  // mean "value" is), whatever the re-ranking by the chance of winning; on
  // the last turn of a sheet with two closed columns, the reason instead.
  {
    json multi = Hint(s, {{"sheet", mover}, {"roll", "3335JJ"}, {"rerolls", 2},
                          {"opponents", {opponent}}});
    json solo = Hint(s, {{"sheet", mover}, {"roll", "3335JJ"}, {"rerolls", 2}});
    ASSERT_TRUE(multi.contains("result") && solo.contains("result")) << multi << solo;
    std::map<std::string, json> solo_sd;
    for (const json& a : solo["result"]["actions"]) solo_sd[a["action"]] = a["sd"];
    ASSERT_EQ(multi["result"]["actions"].size(), solo_sd.size());
    for (const json& a : multi["result"]["actions"]) {
      ASSERT_TRUE(a.contains("sd")) << a;
      EXPECT_EQ(a["sd"], solo_sd[a["action"]]) << a;
    }
    json last = Hint(s, {{"sheet", closing}, {"roll", "12345J"}, {"rerolls", 0},
                         {"opponents", {opponent}}, {"last_round", true}});
    ASSERT_TRUE(last.contains("result")) << last;
    EXPECT_FALSE(last["result"]["actions"][0].contains("sd"));
    EXPECT_NE(last["result"].value("sd_error", "").find("two closed columns"), std::string::npos)
        << last;
  }
  // Errors of the multiplayer fields.
  auto code = [&](json f) {
    f["sheet"] = mover;
    f["roll"] = "12345J";
    return ErrorOf(Hint(s, f));
  };
  EXPECT_EQ(code({{"opponents", {opponent}}, {"seat", 3}}), "bad_field");
  EXPECT_EQ(code({{"opponents", {opponent}}, {"seat", 0}}), "bad_field");
  EXPECT_EQ(code({{"opponents", {opponent}}, {"turns", -2}}), "bad_field");
  EXPECT_EQ(code({{"opponents", {opponent}}, {"turns", "5"}}), "bad_field");
  EXPECT_EQ(code({{"opponents", {"x..../...../...../...../....."}}}), "bad_position");
  // Positions no game can reach (R4.2, R5.2): refused, naming the sheet and line.
  json bad = Hint(s, {{"sheet", kEmptySheet}, {"roll", "3335JJ"}, {"opponents", {"ooooo/...../...../...../....."}}});
  EXPECT_EQ(ErrorOf(bad), "bad_position");
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("row 1"), std::string::npos) << bad;
  EXPECT_EQ(code({{"opponents", {opponent}}, {"last_round", true}}), "bad_position");
  // Rollouts (issue 11): as `penk hint --rollouts N --candidates K --json`.
  json rolled = Hint(s, {{"sheet", mover}, {"roll", "12345J"}, {"rerolls", 1},
                         {"opponents", {opponent}}, {"rollouts", 40}, {"candidates", 3}});
  ASSERT_TRUE(rolled.contains("result")) << rolled;
  json cli_rolled = json::parse(RunPenk(std::string("hint --json --sheet ") + mover +
                                            " --roll 12345J --rerolls 1 --opponent " + opponent +
                                            " --rollouts 40 --candidates 3 --time-ms 10000",
                                        "PENK_TABLE_DIR=" + dir));
  EXPECT_EQ(rolled["result"], cli_rolled);  // the engine's default time bound given to both
  const json& actions = rolled["result"]["actions"];
  ASSERT_EQ(actions.size(), 3u);
  ASSERT_EQ(cli_rolled["actions"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(actions[i]["action"], cli_rolled["actions"][i]["action"]);
    EXPECT_EQ(actions[i]["rollout"], cli_rolled["actions"][i]["rollout"]);
    EXPECT_GE(actions[i]["rollout"]["win"].get<double>(), 0);
    EXPECT_LE(actions[i]["rollout"]["win"].get<double>(), 1);
  }
  EXPECT_EQ(rolled["result"]["rollouts"]["timed_out"], false);
  EXPECT_EQ(code({{"rollouts", 10}}), "bad_field");  // no opponents
  EXPECT_EQ(code({{"opponents", {opponent}}, {"candidates", 2}}), "bad_field");  // no rollouts
  EXPECT_EQ(code({{"opponents", {opponent}}, {"rollouts", 0}}), "bad_field");
  EXPECT_EQ(code({{"opponents", {opponent}}, {"rollouts", 10}, {"time_ms", 0}}), "bad_field");
  std::filesystem::remove_all(dir);
}

// One hint, every door (issue 24): for positions of real games (greedy play
// with random moves, 0-3 opponents, the last round when it comes), the
// engine's hint and `penk hint --json` with the same question are one
// object; with rollouts too (hint by game against the stateless hint: the
// test below). The questions are the mover's late positions, which the
// small table covers; a position needing a table the folder lacks is
// skipped (the engine builds none here, and the CLI would).
TEST_F(EngineTables, CliAndEngineGiveOneHintOnManyPositions) {
  const std::string dir = SmallTableDir("doors");
  Session s(FolderOnly(dir));
  // The CLI builds the folder's spread table and saves it; the engine, not
  // building, then reads it: both give each action's sd.
  RunPenk("hint --json --roll 12345J --sheet " + std::string(kSmallSheet), "PENK_TABLE_DIR=" + dir);
  int compared = 0, rolled_out = 0;
  for (uint64_t seed = 1; seed <= 200 && compared < 24; ++seed) {
    const int players = 1 + static_cast<int>(seed % 4);
    Game game = *Game::Create(players, Rules{}, seed);
    std::mt19937_64 rng(seed);
    GreedyBot greedy;
    int asked = 0;
    while (!game.over()) {
      const int me = game.current();
      if (asked < 2 && game.sheet(me).FreeCount() <= 6) {
        ++asked;  // two questions a game at most: more games, more variety
        const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
        json fields = {{"sheet", FormatSheet(game.sheet(me))},
                       {"roll", FormatDice(game.dice())},
                       {"rerolls", rerolls}};
        std::string flags = "hint --json --sheet " + FormatSheet(game.sheet(me)) + " --roll " +
                            FormatDice(game.dice()) + " --rerolls " + std::to_string(rerolls);
        if (players > 1) {
          json opp = json::array();
          for (int i = 1; i < players; ++i) {
            const std::string o_text = FormatSheet(game.sheet((me + i) % players));
            opp.push_back(o_text);
            flags += " --opponent " + o_text;
          }
          fields["opponents"] = opp;
          fields["last_round"] = game.last_round();
          fields["seat"] = me + 1;
          fields["turns"] = game.turns(me);
          flags += absl::StrFormat(" --seat %d --turn %d%s", me + 1, game.turns(me),
                                   game.last_round() ? " --last-round" : "");
          if (rolled_out < 3) {  // rollouts: the engine's default bound given to the CLI
            fields["rollouts"] = 12;
            fields["candidates"] = 2;
            flags += " --rollouts 12 --candidates 2 --time-ms 10000";
          }
        }
        json r = Hint(s, fields);
        if (r.contains("result")) {
          json cli = json::parse(RunPenk(flags, "PENK_TABLE_DIR=" + dir), nullptr, false);
          EXPECT_EQ(r["result"], cli) << flags;
          ++compared;
          if (fields.contains("rollouts")) ++rolled_out;
        } else {
          EXPECT_EQ(ErrorOf(r), "table_error") << r << flags;
        }
      }
      // Greedy play, with a random action one time in five: late positions
      // (greedy circles; random play fails its columns shut early) of
      // every kind.
      const std::vector<Action> legal = game.LegalActions();
      ASSERT_FALSE(legal.empty());
      const Action action = rng() % 5 == 0 ? legal[rng() % legal.size()] : greedy.Decide(game);
      ASSERT_TRUE(game.Apply(action).ok());
    }
  }
  EXPECT_GE(compared, 20);
  EXPECT_GE(rolled_out, 2) << compared;
  std::filesystem::remove_all(dir);
}

TEST_F(EngineTables, HintByGameEqualsTheStatelessHintAndBestActionSaysHowGood) {
  const std::string dir = SmallTableDir("bygame");
  Session s(FolderOnly(dir));
  const char* mover = "oooo./ooo.o/oo.oo/o.ooo/.oooo";
  const char* opponent = ".oooo/o.ooo/oo.oo/ooo.o/oooo.";
  // Solitaire: a position with a roll and one reroll left.
  json g = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 3},
                    {"position", {{"sheets", {mover}}, {"dice", "12345J"}, {"rerolls_left", 1}}}});
  ASSERT_TRUE(g.contains("result")) << g;
  int id = g["result"]["game"];
  json by_game = Hint(s, {{"game", id}});
  json plain = Hint(s, {{"sheet", mover}, {"roll", "12345J"}, {"rerolls", 1}});
  ASSERT_TRUE(by_game.contains("result")) << by_game;
  EXPECT_EQ(by_game["result"]["actions"], plain["result"]["actions"]);
  EXPECT_EQ(by_game["result"]["rerolls"], 1);
  // Two players: opponents, seat and turns come from the game.
  g = Call(s, {{"id", 2}, {"cmd", "new_game"}, {"players", {"human", "expert"}}, {"seed", 3},
               {"position", {{"sheets", {opponent, mover}}, {"current", 1}, {"turns", {11, 10}},
                             {"dice", "3335JJ"}, {"rerolls_left", 2}}}});
  ASSERT_TRUE(g.contains("result")) << g;
  id = g["result"]["game"];
  by_game = Hint(s, {{"game", id}});
  plain = Hint(s, {{"sheet", mover}, {"roll", "3335JJ"}, {"rerolls", 2}, {"opponents", {opponent}},
                   {"seat", 2}, {"turns", 10}});
  ASSERT_TRUE(by_game.contains("result")) << by_game;
  ASSERT_TRUE(plain.contains("result")) << plain;
  EXPECT_EQ(by_game["result"]["actions"], plain["result"]["actions"]);
  EXPECT_EQ(by_game["result"]["opponents"], json({opponent}));
  // best_action with expert: the hint's first action, with its numbers.
  json best = Call(s, {{"id", 3}, {"cmd", "best_action"}, {"game", id}});
  ASSERT_TRUE(best.contains("result")) << best;
  const json& first = plain["result"]["actions"][0];
  EXPECT_EQ(best["result"]["action"], first["action"]);
  EXPECT_EQ(best["result"]["value"], first["value"]);
  EXPECT_EQ(best["result"]["win"], first["win"]);
  EXPECT_EQ(best["result"]["rank"], 1);
  // Another level: its action's value and rank in the advisor's ranking.
  best = Call(s, {{"id", 4}, {"cmd", "best_action"}, {"game", id}, {"level", "greedy"}});
  ASSERT_TRUE(best.contains("result")) << best;
  EXPECT_FALSE(best["result"].contains("win"));
  bool found = false;
  json solitaire = Hint(s, {{"sheet", mover}, {"roll", "3335JJ"}, {"rerolls", 2}});
  for (size_t i = 0; i < solitaire["result"]["actions"].size(); ++i)
    if (solitaire["result"]["actions"][i]["action"] == best["result"]["action"]) {
      found = true;
      EXPECT_EQ(best["result"]["value"], solitaire["result"]["actions"][i]["value"]);
    }
  EXPECT_TRUE(found) << best;
  std::filesystem::remove_all(dir);
}

TEST_F(EngineTables, ALastRoundTurnWithTwoClosedColumnsIsAdvised) {
  // Seat 0 completed row 5 and column 1; its PENKs crossed them on seat 1's
  // sheet, closing seat 1's columns 1 and 3 (R4.2): the last round (R5.2),
  // and seat 1 still plays. Each marking is worth the final score it gives.
  const std::string dir = SmallTableDir("lastturn", 1u << 4);
  Session s(FolderOnly(dir));
  const char* first = "oooo./ooo.o/oo.oo/o.ooo/ooooo";
  const char* closed = "xoooo/xoooo/xoo.o/x.oo./xxxxx";
  json g = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "human"}}, {"seed", 1},
                    {"position", {{"sheets", {first, closed}}, {"current", 1}, {"turns", {9, 8}},
                                  {"dice", "2222J4"}, {"rerolls_left", 0}}}});
  ASSERT_TRUE(g.contains("result")) << g;
  EXPECT_EQ(g["result"]["last_round"], true);
  json h = Hint(s, {{"game", g["result"]["game"]}});
  ASSERT_TRUE(h.contains("result")) << h;
  ASSERT_FALSE(h["result"]["actions"].empty());
  // The opponent has finished: the mover's final score against its score
  // decides, so "win" is exact (1, 1/2 for a tie R6.4, 0) and says so.
  EXPECT_EQ(h["result"]["win_exact"], true);
  const int theirs = Score(*ParseSheet(first), Rules{});
  for (const json& a : h["result"]["actions"]) {
    Sheet after = *ParseSheet(closed);
    after.circled |= *ParseMarking(a["action"].get<std::string>(), after, *ParseRoll("2222J4"));
    EXPECT_NEAR(a["value"].get<double>(), Score(after, Rules{}), 1e-6) << a;
    const int mine = Score(after, Rules{});
    EXPECT_NEAR(a["win"].get<double>(), mine > theirs ? 1.0 : mine == theirs ? 0.5 : 0.0, 1e-6)
        << a << " mine " << mine << " theirs " << theirs;
  }
  // The stateless hint with the opponent answers the same.
  json plain = Hint(s, {{"sheet", closed}, {"roll", "2222J4"}, {"rerolls", 0},
                        {"opponents", {first}}, {"seat", 2}, {"turns", 8}, {"last_round", true}});
  ASSERT_TRUE(plain.contains("result")) << plain;
  EXPECT_EQ(plain["result"]["actions"], h["result"]["actions"]);
  // Against an opponent of 72 points, 5555J4 allows the marking 5:4 alone,
  // which ties at 72: "win" is exactly 1/2 (R6.4) -- no calibration map,
  // which would move it.
  const char* level = "o..../oo.../oo.../o..../ooooo";
  json close = Hint(s, {{"sheet", closed}, {"roll", "5555J4"}, {"rerolls", 0},
                        {"opponents", {level}}, {"seat", 2}, {"turns", 8}, {"last_round", true}});
  ASSERT_TRUE(close.contains("result")) << close;
  EXPECT_EQ(close["result"]["win_exact"], true);
  std::set<double> seen;
  const int theirs_level = Score(*ParseSheet(level), Rules{});
  for (const json& a : close["result"]["actions"]) {
    Sheet after = *ParseSheet(closed);
    after.circled |= *ParseMarking(a["action"].get<std::string>(), after, *ParseRoll("5555J4"));
    const int mine = Score(after, Rules{});
    const double exact = mine > theirs_level ? 1.0 : mine == theirs_level ? 0.5 : 0.0;
    EXPECT_NEAR(a["win"].get<double>(), exact, 1e-6) << a << " mine " << mine;
    seen.insert(exact);
  }
  EXPECT_EQ(theirs_level, 72);
  EXPECT_EQ(seen, (std::set<double>{0.5})) << close;
  std::filesystem::remove_all(dir);
}

TEST_F(EngineTables, HintErrors) {
  const std::string table = SmallTable();
  Session s;
  auto code = [&](json f) {
    if (!f.contains("table")) f["table"] = table;
    return ErrorOf(Hint(s, f));
  };
  EXPECT_EQ(code({{"sheet", kSmallSheet}}), "bad_field");                               // no roll
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", 123456}}), "bad_field");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345"}}), "bad_position");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "1234567"}}), "bad_position");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"rerolls", 3}}), "bad_field");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"rerolls", -1}}), "bad_field");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"rerolls", "2"}}), "bad_field");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"top", -1}}), "bad_field");
  EXPECT_EQ(code({{"sheet", "ooooo"}, {"roll", "12345J"}}), "bad_position");
  EXPECT_EQ(code({{"sheet", 5}, {"roll", "12345J"}}), "bad_field");
  // Unreachable (a lone crossed cell in an open column), finished, full.
  EXPECT_EQ(code({{"sheet", "x..../...../...../...../....."}, {"roll", "12345J"}}), "bad_position");
  EXPECT_EQ(code({{"sheet", "xo.../xo.../xo.../oo.../xo..."}, {"roll", "12345J"}}), "bad_position");
  EXPECT_EQ(code({{"sheet", "ooooo/ooooo/ooooo/ooooo/ooooo"}, {"roll", "12345J"}}), "bad_position");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"rules", "line-min=0"}}),
            "bad_position");
  // The small table does not cover the empty sheet; a table for other rules
  // or blocked rows is refused; a missing named file is not built.
  EXPECT_EQ(code({{"roll", "12345J"}}), "table_error");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"rules", "line-min=2"}}),
            "table_error");
  EXPECT_EQ(code({{"sheet", kBlockedSheet}, {"roll", "12345J"}}), "table_error");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"table", "/nonexistent/t.penktable"}}),
            "table_error");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"table", 1}}), "bad_field");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"opponents", {"bad"}}}),
            "bad_position");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"},
                  {"opponents", {kEmptySheet, kEmptySheet, kEmptySheet, kEmptySheet}}}),
            "bad_field");
  EXPECT_EQ(code({{"sheet", kSmallSheet}, {"roll", "12345J"}, {"last_round", 1}}), "bad_field");
  // A session that refuses table paths.
  SessionOptions o;
  o.allow_table_paths = false;
  Session closed(o);
  json r = Hint(closed, {{"sheet", kSmallSheet}, {"roll", "12345J"}, {"table", table}});
  EXPECT_EQ(ErrorOf(r), "bad_field");
}

TEST_F(EngineTables, HintWithBlockedRows) {
  // Row 5 blocked by an opponent's PENK: its table is a different file.
  const std::string table = SmallTable(1u << 4);
  Session s;
  const char* sheet = kBlockedSheet;
  json r = Hint(s, {{"sheet", sheet}, {"roll", "12345J"}, {"table", table}});
  ASSERT_TRUE(r.contains("result")) << r;
  json cli = json::parse(RunPenk(std::string("hint --json --sheet ") + sheet +
                                 " --roll 12345J --table " + table));
  EXPECT_TRUE(r["result"]["actions"][0].contains("sd")) << r;  // as the CLI's (issue 13)
  EXPECT_EQ(r["result"]["actions"], cli["actions"]);
}

TEST_F(EngineTables, ValueEqualsPenkValue) {
  const std::string table = SmallTable();
  Session s;
  for (const char* sheet : {kSmallSheet, "ooooo/oo.oo/o.ooo/ooo.o/oooo.",
                            "xo.../xo.../xo.../oo.../xo..."}) {
    json r = Value(s, {{"sheet", sheet}, {"table", table}});
    ASSERT_TRUE(r.contains("result")) << r;
    EXPECT_EQ(r["result"].size(), 2u);  // exactly {"value": X, "sd": S}
    std::string out = RunPenk(std::string("value --sheet ") + sheet + " --table " + table);
    size_t at = out.find("value: ");
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_EQ(r["result"]["value"].get<double>(), std::strtod(out.c_str() + at + 7, nullptr))
        << sheet;
    // The position's sd (issue 13), as `penk value`'s line.
    at = out.find("sd: ");
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_EQ(r["result"]["sd"].get<double>(), std::strtod(out.c_str() + at + 4, nullptr)) << sheet;
  }
  // E5: a finished sheet is worth its score.
  EXPECT_EQ(Value(s, {{"sheet", "xo.../xo.../xo.../oo.../xo..."}, {"table", table}})["result"]["value"],
            19.0);
}

TEST_F(EngineTables, ValueErrors) {
  const std::string table = SmallTable();
  Session s;
  EXPECT_EQ(ErrorOf(Value(s, {{"table", table}})), "table_error");  // empty sheet not covered
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", "o"}, {"table", table}})), "bad_position");
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", "x..../...../...../...../....."}, {"table", table}})),
            "bad_position");
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", kSmallSheet}, {"rules", "bogus"}, {"table", table}})),
            "bad_position");
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", true}, {"table", table}})), "bad_field");
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", kSmallSheet}, {"table", "/nonexistent"}})), "table_error");
  // A corrupt file is refused, not rebuilt over.
  const std::string junk = testing::TempDir() + "penk_engine_test_junk.penktable";
  std::ofstream(junk) << "not a table";
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", kSmallSheet}, {"table", junk}})), "table_error");
}

TEST_F(EngineTables, DefaultTableLoadsLazilyFromTableDir) {
  // A table dir holding a (completed) table under the default file name: no
  // "table" field needed. With building off, a missing default table is an error.
  const std::string dir = SmallTableDir("dir");
  Session s(FolderOnly(dir));
  json r = Value(s, {{"sheet", kSmallSheet}});
  ASSERT_TRUE(r.contains("result")) << r;
  json h = Hint(s, {{"sheet", kSmallSheet}, {"roll", "3335JJ"}});
  EXPECT_TRUE(h.contains("result")) << h;
  EXPECT_EQ(ErrorOf(Value(s, {{"sheet", kSmallSheet}, {"rules", "line-min=4"}})), "table_error");
  // fixed_table: every request uses that file (the fuzzers' setting).
  SessionOptions f;
  f.fixed_table = SmallTable();
  Session fixed(f);
  EXPECT_TRUE(Value(fixed, {{"sheet", kSmallSheet}, {"table", "/elsewhere"}}).contains("result"));
  std::filesystem::remove_all(dir);
}

TEST_F(EngineTables, APartialTableAtTheDefaultPathIsRefused) {
  // `tables build --max-free 6 --out F` copied under the default name: its
  // gaps would be errors mid-game, so it is refused (not rebuilt over: the
  // file is someone's), naming the file and what to do.
  const std::string dir = testing::TempDir() + "penk_engine_test_partial_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string path = TablePathIn(dir, Rules{}, 0);
  std::filesystem::copy_file(SmallTable(), path, std::filesystem::copy_options::overwrite_existing);
  const auto size = std::filesystem::file_size(path);
  SessionOptions o = FolderOnly(dir);
  o.build.allow = true;  // even when building is allowed
  Session s(o);
  json r = Value(s, {{"sheet", kSmallSheet}});
  ASSERT_EQ(ErrorOf(r), "table_error") << r;
  const std::string message = r["error"]["message"].get<std::string>();
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("partial table (positions with at most 6 free cells)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("remove it"), std::string::npos) << message;
  EXPECT_EQ(std::filesystem::file_size(path), size);  // left as it was
  // Named as a file of its own, the same table answers.
  EXPECT_TRUE(Value(s, {{"sheet", kSmallSheet}, {"table", SmallTable()}}).contains("result"));
  std::filesystem::remove_all(dir);
}

TEST_F(EngineTables, APlayerMeetingAGapOfAPartialTableIsATableError) {
  // The session's table cache gives the players the small table; the
  // solitaire player on an empty sheet needs values it does not have: a
  // table_error naming the table, not a quiet score.
  SessionOptions o;
  o.shared_tables = std::make_shared<TableCache>(
      [](const TableKey& key) -> absl::StatusOr<SolitaireTable> {
        return BuildSolitaireTable(key.rules, 6, nullptr, key.blocked_rows, key.objective);
      });
  Session s(o);
  json g = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "solitaire"}}, {"seed", 2}});
  ASSERT_TRUE(g.contains("result")) << g;
  json r = Call(s, {{"id", 2}, {"cmd", "best_action"}, {"game", g["result"]["game"]},
                    {"level", "solitaire"}});
  ASSERT_EQ(ErrorOf(r), "table_error") << r;
  const std::string message = r["error"]["message"].get<std::string>();
  EXPECT_NE(message.find("is partial (positions with at most 6 free cells)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("line-min=3"), std::string::npos) << message;
}

TEST(EngineProtocol, PhysicalDiceUndoAndHistory) {
  Session s;
  json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"dice", "manual"}});
  ASSERT_TRUE(r.contains("result")) << r;
  const int id = r["result"]["game"];
  EXPECT_EQ(r["result"]["phase"], "roll");
  EXPECT_EQ(r["result"]["dice_source"], "manual");
  auto call = [&](json req) {
    req["id"] = 2;
    req["game"] = id;
    return Call(s, req);
  };
  // Nothing to decide before the dice are given; the AI does not roll either.
  EXPECT_EQ(ErrorOf(call({{"cmd", "apply"}, {"action", "stop"}})), "illegal_action");
  EXPECT_EQ(ErrorOf(call({{"cmd", "best_action"}, {"level", "greedy"}})), "illegal_action");
  EXPECT_EQ(ErrorOf(call({{"cmd", "roll"}, {"dice", "1234"}})), "bad_position");
  EXPECT_EQ(ErrorOf(call({{"cmd", "roll"}, {"dice", ""}})), "bad_field");
  r = call({{"cmd", "roll"}, {"dice", "1133j5"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["dice"], "11335J");
  EXPECT_EQ(r["result"]["phase"], "keep");
  r = call({{"cmd", "apply"}, {"action", "11"}});
  EXPECT_EQ(r["result"]["phase"], "roll");
  EXPECT_EQ(r["result"]["kept"], "11");
  EXPECT_EQ(ErrorOf(call({{"cmd", "roll"}, {"dice", "22345J"}})), "illegal_action");  // 11 kept
  r = call({{"cmd", "roll"}, {"dice", "111234"}});
  ASSERT_TRUE(r.contains("result")) << r;
  r = call({{"cmd", "apply"}, {"action", "stop"}});
  EXPECT_EQ(r["result"]["phase"], "mark");
  r = call({{"cmd", "apply"}, {"action", "1:3+2:1"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["current"], 1);
  // The history so far: one finished turn, and the AI's turn waiting for dice.
  const json& h = r["result"]["history"];
  ASSERT_EQ(h.size(), 2u) << h;
  EXPECT_EQ(h[0]["rolls"], json({"11335J", "111234"}));
  EXPECT_EQ(h[0]["keeps"], json({"11"}));
  EXPECT_EQ(h[0]["stopped"], true);
  EXPECT_EQ(h[0]["marking"], "1:3+2:1");
  EXPECT_EQ(h[1]["player"], 1);
  EXPECT_EQ(h[1]["rolls"], json::array());
  EXPECT_EQ(r["result"]["undo_steps"], 5);
  // Undo walks back one step at a time, to the start.
  json after_roll = call({{"cmd", "undo"}})["result"];
  EXPECT_EQ(after_roll["phase"], "mark");
  EXPECT_EQ(after_roll["current"], 0);
  EXPECT_EQ(after_roll["players"][0]["sheet"], kEmptySheet);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(call({{"cmd", "undo"}}).contains("result"));
  r = call({{"cmd", "state"}});
  EXPECT_EQ(r["result"]["phase"], "roll");
  EXPECT_EQ(r["result"]["history"], json({{{"player", 0}, {"rolls", json::array()}, {"keeps", json::array()}, {"stopped", false}}}));
  EXPECT_EQ(ErrorOf(call({{"cmd", "undo"}})), "illegal_action");
  // Engine dice: roll is refused, and undo brings the same dice again.
  r = Call(s, {{"id", 3}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 9}});
  const int e = r["result"]["game"];
  EXPECT_EQ(ErrorOf(Call(s, {{"id", 3}, {"cmd", "roll"}, {"game", e}, {"dice", "11111J"}})), "illegal_action");
  json first = Call(s, {{"id", 4}, {"cmd", "apply"}, {"game", e}, {"action", "-"}})["result"];
  Call(s, {{"id", 5}, {"cmd", "undo"}, {"game", e}});
  json again = Call(s, {{"id", 6}, {"cmd", "apply"}, {"game", e}, {"action", "-"}})["result"];
  EXPECT_EQ(again["dice"], first["dice"]);
  EXPECT_EQ(again, first);
}

TEST(EngineProtocol, PenkCrossingsAreShownByCause) {
  // Seat 0 completes column 1 (R4.1); seat 1's free cells of column 1 are
  // crossed by seat 0's PENK (R4.2), shown as "0" in its crossings.
  Session s;
  json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human", "human"}}, {"seed", 1},
                    {"position", {{"sheets", {"o..../o..../o..../o..../.....", ".o.../..o../...../...../....."}},
                                  {"turns", {2, 2}}, {"dice", "11111J"}, {"rerolls_left", 0}}}});
  ASSERT_TRUE(r.contains("result")) << r;
  const int id = r["result"]["game"];
  r = Call(s, {{"id", 2}, {"cmd", "apply"}, {"game", id}, {"action", "1:5"}});
  ASSERT_TRUE(r.contains("result")) << r;
  const json& st = r["result"];
  EXPECT_EQ(st["players"][1]["sheet"], "xo.../x.o../x..../x..../x....");
  EXPECT_EQ(st["players"][1]["crossings"], "0..../0..../0..../0..../0....");
  EXPECT_EQ(st["players"][1]["closed_columns"], json({1}));
  EXPECT_EQ(st["players"][0]["column_scores"], json({19, 0, 0, 0, 0}));
  EXPECT_EQ(st["players"][0]["row_scores"], json({0, 0, 0, 0, 0}));
  EXPECT_EQ(st["players"][0]["score"], 19);
  const json& turn = st["history"][0];
  EXPECT_EQ(turn["penk_columns"], json({1}));
  EXPECT_EQ(turn["crossed_by_penk"], json({{{"player", 1}, {"cells", {"1:1", "1:2", "1:3", "1:4", "1:5"}}}}));
  // A failure (R3.5) is "f"; crossings from before the game was followed "?".
  r = Call(s, {{"id", 3}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 1},
               {"position", {{"sheets", {"x..../x..../x..../x..../x...."}}, {"turns", {1}},
                             {"dice", "111111"}, {"rerolls_left", 0}}}});
  ASSERT_TRUE(r.contains("result")) << r;
  const int solo = r["result"]["game"];
  EXPECT_EQ(r["result"]["legal_actions"], json({"fail:2", "fail:3", "fail:4", "fail:5"}));
  r = Call(s, {{"id", 4}, {"cmd", "apply"}, {"game", solo}, {"action", "fail:2"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["players"][0]["crossings"], "?f.../?f.../?f.../?f.../?f...");
  EXPECT_EQ(r["result"]["history"][0]["failure"], 2);
  EXPECT_EQ(r["result"]["phase"], "over");  // two closed columns (R5.2)
  EXPECT_TRUE(r["result"]["current"].is_null());
  EXPECT_EQ(r["result"]["round"], 2);  // the last round played
  // A set-up position's earlier crossings are of unknown cause.
  r = Call(s, {{"id", 5}, {"cmd", "new_game"}, {"players", {"human"}}, {"seed", 1},
               {"position", {{"sheets", {"x..../x..../x..../x..../x...."}}}}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["players"][0]["crossings"], "?..../?..../?..../?..../?....");
}

TEST(EngineProtocol, PositionsAreCheckedAsInAGame) {
  Session s;
  auto code = [&](json position, json players = {"human", "human"}) {
    json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", players}, {"position", position}});
    return r.contains("error") ? ErrorOf(r) + ": " + r["error"]["message"].get<std::string>() : "ok";
  };
  EXPECT_EQ(code({{"sheets", {kEmptySheet, kEmptySheet}}}), "ok");
  EXPECT_EQ(code({{"sheets", {kEmptySheet}}}).substr(0, 12), "bad_position");  // 1 sheet, 2 players
  EXPECT_NE(code({{"sheets", {kEmptySheet, "ooooo/...../...../...../....."}}}).find("row 1"), std::string::npos);
  EXPECT_EQ(code({{"sheets", {kEmptySheet, kEmptySheet}}, {"current", 4}}).substr(0, 9), "bad_field");
  EXPECT_EQ(code({{"sheets", {kEmptySheet, kEmptySheet}}, {"rerolls_left", 1}}).substr(0, 9), "bad_field");
  EXPECT_EQ(code({{"sheets", {kEmptySheet, kEmptySheet}}, {"turns", {1, 0}}}).substr(0, 12), "bad_position");
  EXPECT_EQ(code({{"sheets", {kEmptySheet, kEmptySheet}}, {"last_round", true}}).substr(0, 12), "bad_position");
  EXPECT_EQ(code({{"sheets", {kEmptySheet, kEmptySheet}}, {"dice", "1234"}}).substr(0, 12), "bad_position");
  EXPECT_EQ(code(json::array()).substr(0, 9), "bad_field");
  // A position with dice: the player to move decides on them.
  json r = Call(s, {{"id", 1}, {"cmd", "new_game"}, {"players", {"human"}},
                    {"position", {{"sheets", {kEmptySheet}}, {"dice", "3335JJ"}, {"rerolls_left", 0}}}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_EQ(r["result"]["phase"], "mark");
  EXPECT_EQ(r["result"]["legal_actions"].size(), 22u);  // E2b
}

TEST(EngineProtocol, Quit) {
  Session s;
  EXPECT_FALSE(s.quit_requested());
  json r = Call(s, {{"id", 9}, {"cmd", "quit"}});
  EXPECT_EQ(r["result"]["quit"], true);
  EXPECT_TRUE(s.quit_requested());
}

TEST(EngineProtocol, ErrorCodeNamesAreDistinct) {
  std::set<std::string> names;
  for (int c = 1; c <= 11; ++c) names.insert(ErrorCodeName(static_cast<ErrorCode>(c)));
  EXPECT_EQ(names.size(), 11u);
}

// The real process: a transcript through stdin/stdout, errors in between do
// not end it, and quit does.
TEST(EngineProcess, ServesLinesUntilQuit) {
  const std::string in = testing::TempDir() + "penk_engine_test_in_" + std::to_string(getpid());
  std::ofstream(in) << "{\"id\":1,\"cmd\":\"hello\"}\n"
                       "not json\n"
                       "\n"
                       "{\"id\":2,\"cmd\":\"new_game\",\"players\":[\"human\",\"random\"],\"seed\":5}\r\n"
                       "{\"id\":3,\"cmd\":\"apply\",\"game\":1,\"action\":\"5:5\"}\n"
                       "{\"id\":4,\"cmd\":\"apply\",\"game\":1,\"action\":\"stop\"}\n"
                       "{\"id\":5,\"cmd\":\"quit\"}\n"
                       "{\"id\":6,\"cmd\":\"hello\"}\n";
  std::string out = RunPenk("engine --no-build < " + in);
  std::vector<json> replies;
  size_t start = 0;
  for (size_t nl; (nl = out.find('\n', start)) != std::string::npos; start = nl + 1)
    replies.push_back(json::parse(out.substr(start, nl - start)));
  ASSERT_EQ(replies.size(), 6u) << out;  // the blank line gets no reply; after quit nothing
  EXPECT_EQ(replies[0]["id"], 1);
  EXPECT_EQ(ErrorOf(replies[1]), "bad_json");
  EXPECT_EQ(replies[2]["result"]["game"], 1);
  EXPECT_EQ(ErrorOf(replies[3]), "illegal_action");
  EXPECT_EQ(replies[4]["result"]["phase"], "mark");
  EXPECT_EQ(replies[5]["result"]["quit"], true);
  std::filesystem::remove(in);
}

}  // namespace
}  // namespace penk::protocol
