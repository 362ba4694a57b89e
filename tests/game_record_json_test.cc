// A game is a record (issue 22 item 3, docs/PROTOCOL.md "The game record"):
// `export` and new_game's "record" through HandleLine. A restored game is
// compared with the original played on straight through: the same state
// now, the same dice and states after every later step, the same undo.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "protocol/game_record_json.h"
#include "protocol/protocol.h"

namespace penk::protocol {
namespace {

using json = nlohmann::json;

json Call(Session& s, const json& request) {
  const std::string reply = HandleLine(s, request.dump());
  json j = json::parse(reply);  // every reply is one JSON object
  EXPECT_EQ(j.count("result") + j.count("error"), 1u) << reply;
  return j;
}

json Result(Session& s, const json& request) {
  json j = Call(s, request);
  EXPECT_TRUE(j.contains("result")) << request.dump() << " -> " << j.dump();
  return j.contains("result") ? j["result"] : json::object();
}

// The state without its game id: what two copies of one game share.
json Game(json state) {
  state.erase("game");
  return state;
}

json Export(Session& s, int id) { return Result(s, {{"cmd", "export"}, {"game", id}})["record"]; }

int Restore(Session& s, const json& record) {
  return Result(s, {{"cmd", "new_game"}, {"record", record}})["game"].get<int>();
}

// The next request of a game played by chance (`rng`): a legal decision, the
// physical dice of a roll (containing those kept, R2.2), sometimes an undo.
json NextRequest(const json& state, std::mt19937_64& rng) {
  if (state["undo_steps"].get<int>() > 0 && rng() % 9 == 0) return {{"cmd", "undo"}};
  if (state["phase"] == "roll") {
    std::string dice = state["kept"] == "-" ? "" : state["kept"].get<std::string>();
    while (dice.size() < 6) dice += "12345J"[rng() % 6];
    return {{"cmd", "roll"}, {"dice", dice}};
  }
  const json& legal = state["legal_actions"];
  return {{"cmd", "apply"}, {"action", legal[rng() % legal.size()]}};
}

json Send(Session& s, int id, json request) {
  request["game"] = id;
  return Result(s, request);
}

// Plays the same requests on games a and b to the end (or `limit` steps),
// checking after each that they are one game.
void PlayOnAlike(Session& s, int a, int b, std::mt19937_64& rng, int limit = 100000) {
  json state = Game(Result(s, {{"cmd", "state"}, {"game", a}}));
  for (int i = 0; i < limit && state["phase"] != "over"; ++i) {
    const json request = NextRequest(state, rng);
    state = Game(Send(s, a, request));
    ASSERT_EQ(Game(Send(s, b, request)), state) << "after " << request.dump();
  }
}

// One game played by chance for `limit` requests.
void PlayAlone(Session& s, int id, std::mt19937_64& rng, int limit) {
  json state = Game(Result(s, {{"cmd", "state"}, {"game", id}}));
  for (int i = 0; i < limit && state["phase"] != "over"; ++i)
    state = Game(Send(s, id, NextRequest(state, rng)));
}

// A game of `players` seats (engine or manual dice) played by chance for
// `steps` requests, exported, restored: the restored game is the original,
// now and to the end.
void CheckRoundTrip(int players, uint64_t seed, const std::string& dice, int steps,
                    const json& position = nullptr) {
  SCOPED_TRACE(testing::Message() << players << " players, seed " << seed << ", " << dice
                                  << " dice, " << steps << " steps");
  Session s;
  json seats = json::array();
  for (int p = 0; p < players; ++p) seats.push_back(p % 2 ? "greedy" : "human");
  json request = {{"cmd", "new_game"}, {"players", seats}, {"seed", seed}, {"dice", dice}};
  if (!position.is_null()) request["position"] = position;
  const int a = Result(s, request)["game"].get<int>();
  std::mt19937_64 rng(seed * 7919 + players);
  PlayAlone(s, a, rng, steps);
  const json record = Export(s, a);
  EXPECT_EQ(record["format"], "penk-game");
  EXPECT_EQ(record["version"], 1);
  EXPECT_EQ(record["players"], seats);
  EXPECT_EQ(record["dice"], dice);
  const json before = Game(Result(s, {{"cmd", "state"}, {"game", a}}));
  // Every step undo can take back, and nothing else: undone steps are gone.
  EXPECT_EQ(record["steps"].size(), before["undo_steps"].get<size_t>());
  const int b = Restore(s, record);
  ASSERT_EQ(Game(Result(s, {{"cmd", "state"}, {"game", b}})), before);
  EXPECT_EQ(Export(s, b), record);
  PlayOnAlike(s, a, b, rng);
  EXPECT_EQ(Export(s, b), Export(s, a));
}

TEST(GameRecordJson, EngineDiceRestoredGameIsTheGameAndRollsTheSameDice) {
  for (int players = 1; players <= 4; ++players)
    for (uint64_t seed : {1u, 7u, 42u})
      for (int steps : {0, 5, 37, 120}) CheckRoundTrip(players, seed, "engine", steps);
}

TEST(GameRecordJson, ManualDiceRestoredGameIsTheGame) {
  for (int players = 1; players <= 4; ++players)
    for (uint64_t seed : {3u, 11u})
      for (int steps : {0, 1, 2, 9, 80}) CheckRoundTrip(players, seed, "manual", steps);
}

// A game set up part-way: with the dice of the position, and without (the
// engine's first roll, which the seed gives again; or physical dice).
TEST(GameRecordJson, GameFromAPositionRestored) {
  const json sheets = {".oooo/o.ooo/oo.oo/ooo.o/oooo.", "oooo./ooo.o/oo.oo/o.ooo/.oooo"};
  const json with_dice = {{"sheets", sheets}, {"current", 1}, {"turns", {11, 10}},
                          {"dice", "3335JJ"}, {"rerolls_left", 2}};
  const json without = {{"sheets", sheets}, {"current", 1}};
  for (int steps : {0, 3, 10}) {
    CheckRoundTrip(2, 5, "engine", steps, with_dice);
    CheckRoundTrip(2, 5, "engine", steps, without);
    CheckRoundTrip(2, 5, "manual", steps, without);
    CheckRoundTrip(2, 5, "manual", steps, with_dice);
  }
  Session s;
  const int id = Result(s, {{"cmd", "new_game"}, {"players", {"human", "human"}}, {"seed", 5},
                            {"position", without}})["game"].get<int>();
  EXPECT_EQ(Export(s, id)["position"], without);  // as given
}

// Undo after a restore takes back the same steps, one by one, to the start.
TEST(GameRecordJson, UndoAfterRestoreTakesBackTheSameSteps) {
  for (const char* dice : {"engine", "manual"}) {
    Session s;
    const int a = Result(s, {{"cmd", "new_game"}, {"players", {"human", "greedy", "human"}},
                             {"seed", 9}, {"dice", dice}})["game"].get<int>();
    std::mt19937_64 rng(9);
    PlayAlone(s, a, rng, 60);
    const int b = Restore(s, Export(s, a));
    json state = Game(Result(s, {{"cmd", "state"}, {"game", a}}));
    ASSERT_GT(state["undo_steps"].get<int>(), 10) << dice;
    while (state["undo_steps"].get<int>() > 0) {
      state = Game(Send(s, a, {{"cmd", "undo"}}));
      ASSERT_EQ(Game(Send(s, b, {{"cmd", "undo"}})), state) << dice;
    }
    EXPECT_EQ(Call(s, {{"cmd", "undo"}, {"game", b}})["error"]["code"], "illegal_action");
    // At the start again, the restored game plays on as the original.
    PlayOnAlike(s, a, b, rng);
  }
}

// Seeds below 2^53 are numbers, larger ones decimal strings (JSON.parse
// keeps both exactly); both are read back.
TEST(GameRecordJson, SeedsSurviveJavaScript) {
  Session s;
  for (uint64_t seed : {uint64_t{0}, (uint64_t{1} << 53) - 1, uint64_t{1} << 53, ~uint64_t{0}}) {
    const int a = Result(s, {{"cmd", "new_game"}, {"players", {"human"}}, {"seed", seed}})["game"];
    std::mt19937_64 rng(seed);
    PlayAlone(s, a, rng, 20);
    const json record = Export(s, a);
    if (seed < (uint64_t{1} << 53)) {
      EXPECT_EQ(record["seed"], seed);
    } else {
      EXPECT_EQ(record["seed"], std::to_string(seed));
    }
    const int b = Restore(s, record);
    EXPECT_EQ(Game(Result(s, {{"cmd", "state"}, {"game", b}})),
              Game(Result(s, {{"cmd", "state"}, {"game", a}})));
    // The other way of writing it is read alike.
    json other = record;
    other["seed"] = record["seed"].is_string() ? json(seed) : json(std::to_string(seed));
    EXPECT_EQ(Export(s, Restore(s, other)), record);
    PlayOnAlike(s, a, b, rng);
  }
}

TEST(GameRecordJson, ExportErrors) {
  Session s;
  EXPECT_EQ(Call(s, {{"cmd", "export"}})["error"]["code"], "bad_field");
  EXPECT_EQ(Call(s, {{"cmd", "export"}, {"game", 3}})["error"]["code"], "unknown_game");
  EXPECT_EQ(Call(s, {{"cmd", "export"}, {"game", 1}, {"seed", 1}})["error"]["code"], "bad_field");
  const json hello = Result(s, {{"cmd", "hello"}});
  EXPECT_NE(hello["commands"].dump().find("\"export\""), std::string::npos);
}

// A hostile or broken record: refused with its code and a one-line message
// naming what was wrong (and the step), no game made, the session going on.
TEST(GameRecordJson, BadRecordsAreRefusedByName) {
  Session s;
  const int a = Result(s, {{"cmd", "new_game"}, {"players", {"human", "greedy"}}, {"seed", 4}})["game"];
  std::mt19937_64 rng(4);
  PlayAlone(s, a, rng, 12);
  const json good = Export(s, a);
  ASSERT_GE(good["steps"].size(), 4u);
  auto with = [&](const char* key, json value) {
    json r = good;
    r[key] = std::move(value);
    return r;
  };
  auto without = [&](const char* key) {
    json r = good;
    r.erase(key);
    return r;
  };
  json illegal = good;
  illegal["steps"][2] = {{"action", "5:5"}};
  json roll_in_engine = good;
  roll_in_engine["steps"][0] = {{"roll", "11335J"}};
  json manual = with("dice", "manual");
  manual["steps"] = json::array({json{{"roll", "1133"}}});
  json two_keys = good;
  two_keys["steps"][1] = {{"action", "stop"}, {"roll", "111111"}};
  json number = good;
  number["steps"][3] = {{"action", 5}};
  json too_many = good;
  too_many["steps"] = json::array();
  for (int i = 0; i < 10001; ++i) too_many["steps"].push_back(json{{"action", "stop"}});
  struct Case {
    json record;
    const char* code;
    const char* message;  // a part of the message
  } cases[] = {
      {json::array(), "bad_field", "record: a record is a JSON object"},
      {"penk", "bad_field", "a record is a JSON object"},
      {with("format", "chess-pgn"), "bad_field", "record: field \"format\" must be \"penk-game\""},
      {without("format"), "bad_field", "\"format\""},
      {with("version", 2), "bad_field", "record: version 2 is not known: this penk reads version 1"},
      {with("version", "1"), "bad_field", "\"version\" must be an integer"},
      {with("moves", json::array()), "bad_field", "record: unknown field \"moves\""},
      {without("players"), "bad_field", "missing field \"players\""},
      {with("players", "human,greedy"), "bad_field", "\"players\" must be a list of strings"},
      {with("players", {"human", "wizard"}), "unknown_level", "record: "},
      {with("players", json::array()), "bad_field", "record: "},
      {with("rules", "line-min=9"), "bad_position", "record: "},
      {without("seed"), "bad_field", "missing field \"seed\""},
      {with("seed", -1), "bad_field", "\"seed\" must be an integer 0..18446744073709551615"},
      {with("seed", 1.5), "bad_field", "\"seed\""},
      {with("seed", "12a"), "bad_field", "\"seed\""},
      {with("seed", "18446744073709551616"), "bad_field", "\"seed\""},
      {with("seed", ""), "bad_field", "\"seed\""},
      {with("dice", "loaded"), "bad_field", "\"dice\" must be \"engine\" or \"manual\""},
      {with("position", {{"sheets", {"ooooo/ooooo/ooooo/ooooo/ooooo", "....."}}}), "bad_position",
       "record: "},
      {with("position", {{"sheet", json::array()}}), "bad_field", "record: unknown field \"position.sheet\""},
      {without("steps"), "bad_field", "\"steps\" must be a list"},
      {with("steps", json::array({json::array({"action", "stop"})})), "bad_field",
       "record: step 1: a step is"},
      {with("steps", json::array({"stop"})), "bad_field", "record: step 1: a step is"},
      {with("steps", json{{"action", "stop"}}), "bad_field", "\"steps\" must be a list"},
      {two_keys, "bad_field", "record: step 2: a step is"},
      {number, "bad_field", "record: step 4: \"action\" must be a non-empty string"},
      {illegal, "illegal_action", "record: step 3 (action \"5:5\"): "},
      {roll_in_engine, "illegal_action", "record: step 1 (roll \"11335J\"): the engine rolls"},
      {manual, "bad_position", "record: step 1 (roll \"1133\"): "},
      {too_many, "bad_field", "record: at most 10000 steps"},
  };
  const size_t games = s.game_count();
  for (const Case& c : cases) {
    const json reply = Call(s, {{"cmd", "new_game"}, {"record", c.record}});
    ASSERT_TRUE(reply.contains("error")) << c.record.dump().substr(0, 200);
    EXPECT_EQ(reply["error"]["code"], c.code) << reply.dump();
    const std::string message = reply["error"]["message"];
    EXPECT_NE(message.find(c.message), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_LT(message.size(), 400u) << message;
  }
  EXPECT_EQ(s.game_count(), games);
  // The record says the whole game: no other field of new_game with it.
  for (const char* f : {"players", "rules", "seed", "dice", "position"}) {
    json request = {{"cmd", "new_game"}, {"record", good}, {f, good.contains(f) ? good[f] : json(1)}};
    const json reply = Call(s, request);
    EXPECT_EQ(reply["error"]["code"], "bad_field") << f;
    EXPECT_NE(reply["error"]["message"].get<std::string>().find("cannot be given with \"record\""),
              std::string::npos)
        << reply.dump();
  }
  // A finished game's record takes no step more.
  Result(s, {{"cmd", "new_game"}, {"record", good}});
  const int done = Result(s, {{"cmd", "new_game"}, {"players", {"greedy"}}, {"seed", 2}})["game"];
  PlayAlone(s, done, rng, 100000);
  ASSERT_EQ(Result(s, {{"cmd", "state"}, {"game", done}})["phase"], "over");
  json over = Export(s, done);
  over["steps"].push_back(json{{"action", "stop"}});
  const json reply = Call(s, {{"cmd", "new_game"}, {"record", over}});
  EXPECT_EQ(reply["error"]["code"], "illegal_action") << reply.dump();
  EXPECT_NE(reply["error"]["message"].get<std::string>().find(
                "step " + std::to_string(over["steps"].size()) + " (action \"stop\"): the game is over"),
            std::string::npos)
      << reply.dump();
}

}  // namespace
}  // namespace penk::protocol
