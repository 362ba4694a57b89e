// libpenk: the C API of capi/penk.h over the engine core of
// protocol/protocol.h. Every entry point runs inside Guard(), which turns
// EngineError and any other exception into a status code and a thread-local
// message: no exception crosses the C boundary.
#include "penk.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <string>
#include <optional>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ai/bot.h"
#include "protocol/json_text.h"
#include "protocol/protocol.h"
#include "protocol/request.h"

using penk::protocol::EngineError;
using penk::protocol::ErrorCode;
using penk::protocol::Fail;
using penk::protocol::GameSession;
using penk::protocol::Session;

struct penk_context {
  std::shared_ptr<Session> session;
  // Requests in flight (penk_submit); after `session`, so destroyed first
  // (its destructor cancels and waits for them).
  std::unique_ptr<penk::protocol::Dispatcher> dispatcher;
  // The last penk_request whose reply did not fit the caller's buffer, and
  // that reply: the documented retry (the same request with a larger
  // buffer) gets it without running the request again, which would make a
  // second game of one new_game or take back two steps for one undo.
  std::string unsent_request, unsent_reply;
};

struct penk_game {
  std::shared_ptr<Session> session;  // keeps the context's tables and options alive
  GameSession g;
};

namespace {

thread_local std::string last_error;

// Every live handle with its kind, so that a destroyed, never created or
// foreign pointer, or a handle of the other kind (a context where a game is
// expected), is refused (PENK_E_BAD_ARGUMENT, or -1 from the accessors)
// instead of being used: a lookup under a lock per call is cheap next to any
// real work.
enum class Kind { kContext, kGame };
const char* KindName(Kind k) { return k == Kind::kContext ? "a context" : "a game"; }
struct Handles {
  std::mutex mutex;
  std::unordered_map<const void*, Kind> live;
};
Handles& TheHandles() {
  static Handles* handles = new Handles;  // never destroyed: used until the process ends
  return *handles;
}
void Register(const void* h, Kind kind) {
  std::lock_guard<std::mutex> lock(TheHandles().mutex);
  TheHandles().live.emplace(h, kind);
}
// Removes `h` if it is a live handle of `kind`; false otherwise (then it
// must not be freed).
bool Unregister(const void* h, Kind kind) {
  std::lock_guard<std::mutex> lock(TheHandles().mutex);
  auto it = TheHandles().live.find(h);
  if (it == TheHandles().live.end() || it->second != kind) return false;
  TheHandles().live.erase(it);
  return true;
}
// The kind of a live handle, or nothing.
std::optional<Kind> KindOf(const void* h) {
  if (!h) return std::nullopt;
  std::lock_guard<std::mutex> lock(TheHandles().mutex);
  auto it = TheHandles().live.find(h);
  if (it == TheHandles().live.end()) return std::nullopt;
  return it->second;
}
bool IsLive(const void* h, Kind kind) { return KindOf(h) == kind; }

template <class F>
int Guard(F&& body) {
  try {
    body();
    return PENK_OK;
  } catch (const EngineError& e) {
    last_error = e.message;
    return static_cast<int>(e.code);
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return PENK_E_INTERNAL;
}

void Require(const void* p, const char* what) {
  if (!p) Fail(ErrorCode::kBadField, std::string(what) + " must not be NULL");
}

// A handle argument: not NULL, created by this library, not destroyed, and
// of the kind the function takes.
void RequireLive(const void* h, Kind kind, const char* what) {
  Require(h, what);
  const std::optional<Kind> got = KindOf(h);
  if (!got)
    Fail(ErrorCode::kBadField,
         std::string(what) + " is not a live handle (destroyed, or not made by libpenk)");
  if (*got != kind)
    Fail(ErrorCode::kBadField, absl::StrCat(what, " is ", KindName(*got), " handle; ",
                                            KindName(kind), " handle is expected"));
}
void RequireContext(const penk_context* h, const char* what = "ctx") {
  RequireLive(h, Kind::kContext, what);
}
void RequireGame(const penk_game* h, const char* what = "game") {
  RequireLive(h, Kind::kGame, what);
}

std::string Opt(const char* s, const char* fallback = "") { return s ? s : fallback; }

// Copies text and its NUL into buf, or reports the size needed.
void CopyOut(const std::string& text, char* buf, size_t size, size_t* needed) {
  if (needed) *needed = text.size();
  if (!buf && size > 0) Fail(ErrorCode::kBadField, "buf must not be NULL when size > 0");
  if (size < text.size() + 1) {
    if (size > 0) buf[0] = '\0';
    Fail(ErrorCode::kBufferTooSmall,
         "buffer of " + std::to_string(size) + " bytes; " + std::to_string(text.size() + 1) +
             " needed");
  }
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
}

// tables/ beside libpenk.so, as the penk binary has tables/ beside it.
std::string LibraryTableDir() {
  if (const char* env = std::getenv("PENK_TABLE_DIR"); env && *env) return env;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&penk_version), &info) && info.dli_fname) {
    std::error_code ec;
    std::filesystem::path lib = std::filesystem::absolute(info.dli_fname, ec);
    if (!ec) return (lib.parent_path() / "tables").string();
  }
  return "tables";
}

// A solitaire hint's inputs, checked, and its ranked actions: what
// penk_hint_objective and penk_hint_moments share.
struct HintQuery {
  penk::Sheet sheet;
  penk::Dice roll;
  penk::Rules rules;
  penk::Objective objective;
  std::vector<penk::RankedAction> ranked;
};

template <class Out>
HintQuery HintQueryOf(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                      const char* rules, const char* table, const char* objective, Out* actions,
                      size_t capacity, size_t* count) {
  RequireContext(ctx);
  Require(roll, "roll");
  Require(count, "count");
  if (capacity > 0) Require(actions, "actions");
  HintQuery q;
  q.sheet = penk::protocol::SheetOrThrow(Opt(sheet, penk::kEmptySheetText));
  q.roll = penk::protocol::RollOrThrow(roll);
  q.rules = penk::protocol::RulesOrThrow(Opt(rules));
  q.objective = penk::protocol::ObjectiveOrThrow(Opt(objective, "mean"));
  q.ranked = ctx->session->Hint(q.sheet, q.roll, rerolls, q.rules, Opt(table),
                                penk::FinishedSheet::kRefuse, q.objective);
  return q;
}

// An action's R7 text into a fixed C buffer, NUL-padded; the buffer is sized
// for the longest action (cut, never overrun, if that ever changed).
void CopyActionText(const penk::Action& action, char (&out)[PENK_ACTION_SIZE]) {
  const std::string text = penk::FormatAction(action);
  std::memset(out, 0, PENK_ACTION_SIZE);
  std::memcpy(out, text.data(), std::min<size_t>(text.size(), PENK_ACTION_SIZE - 1));
}

}  // namespace

extern "C" {

const char* penk_version(void) { return penk::protocol::kEngineVersion; }
int penk_api_version(void) { return PENK_API_VERSION; }
// The levels of hello's "levels" and "level_info" (aliases are not levels).
int penk_level_count(void) { return static_cast<int>(std::size(penk::kLevels)); }
const char* penk_level_name(int index) {
  if (index < 0 || index >= penk_level_count()) return nullptr;
  return penk::kLevels[index].name;
}
const char* penk_status_name(int status) {
  if (status == PENK_OK) return "ok";
  if (status < 1 || status > PENK_E_TIME_OUT) return "unknown_status";
  return penk::protocol::ErrorCodeName(static_cast<ErrorCode>(status));
}
const char* penk_last_error(void) { return last_error.c_str(); }

int penk_context_create(const char* table_dir, penk_context** out) {
  return Guard([&] {
    Require(out, "out");
    *out = nullptr;
    penk::protocol::SessionOptions options;
    options.table_dir = table_dir && *table_dir ? table_dir : LibraryTableDir();
    // Each context has its own session and table cache: its folder and build
    // setting are used for its games only.
    auto ctx = std::make_unique<penk_context>();
    ctx->session = std::make_shared<Session>(options);
    Register(ctx.get(), Kind::kContext);
    *out = ctx.release();
  });
}

void penk_context_destroy(penk_context* ctx) {
  if (ctx && Unregister(ctx, Kind::kContext)) delete ctx;
}

int penk_context_set_build(penk_context* ctx, int allow) {
  return Guard([&] {
    RequireContext(ctx);
    // The same session: its games follow the new setting; loaded tables stay.
    ctx->session->SetAllowBuild(allow != 0);
  });
}

int penk_context_set_table_cache_mb(penk_context* ctx, size_t megabytes) {
  return Guard([&] {
    RequireContext(ctx);
    if (megabytes < 1 || megabytes > penk::TableCache::kMaxCapMegabytes)
      Fail(ErrorCode::kBadField, "megabytes must be 1.." +
                                     std::to_string(penk::TableCache::kMaxCapMegabytes));
    ctx->session->tables()->SetCap(megabytes << 20);
  });
}

int penk_value_objective(penk_context* ctx, const char* sheet, const char* rules,
                         const char* table, const char* objective, double* value) {
  return Guard([&] {
    RequireContext(ctx);
    Require(value, "value");
    penk::Sheet s = penk::protocol::SheetOrThrow(Opt(sheet, penk::kEmptySheetText));
    penk::Rules r = penk::protocol::RulesOrThrow(Opt(rules));
    penk::Objective o = penk::protocol::ObjectiveOrThrow(Opt(objective, "mean"));
    *value = ctx->session->Value(s, r, Opt(table), o);
  });
}

int penk_value(penk_context* ctx, const char* sheet, const char* rules, const char* table,
               double* value) {
  return penk_value_objective(ctx, sheet, rules, table, nullptr, value);
}

int penk_hint(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
              const char* rules, const char* table, penk_ranked_action* actions,
              size_t capacity, size_t* count) {
  return penk_hint_objective(ctx, sheet, roll, rerolls, rules, table, nullptr, actions, capacity,
                             count);
}

int penk_hint_objective(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                        const char* rules, const char* table, const char* objective,
                        penk_ranked_action* actions, size_t capacity, size_t* count) {
  return Guard([&] {
    const HintQuery q = HintQueryOf(ctx, sheet, roll, rerolls, rules, table, objective, actions,
                                    capacity, count);
    *count = q.ranked.size();
    for (size_t i = 0; i < q.ranked.size() && i < capacity; ++i) {
      CopyActionText(q.ranked[i].action, actions[i].action);
      actions[i].value = q.ranked[i].value;
    }
  });
}

int penk_hint_moments(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                      const char* rules, const char* table, const char* objective,
                      penk_ranked_moments* actions, size_t capacity, size_t* count) {
  return Guard([&] {
    const HintQuery q = HintQueryOf(ctx, sheet, roll, rerolls, rules, table, objective, actions,
                                    capacity, count);
    const absl::StatusOr<std::vector<penk::ActionMoments>> moments = ctx->session->Moments(
        q.sheet, q.roll, rerolls, q.rules, Opt(table), q.objective, q.ranked);
    if (!moments.ok()) Fail(ErrorCode::kTable, std::string(moments.status().message()));
    const std::vector<penk::ActionMoments>& m = *moments;
    *count = q.ranked.size();
    for (size_t i = 0; i < q.ranked.size() && i < capacity; ++i) {
      CopyActionText(q.ranked[i].action, actions[i].action);
      actions[i].value = q.ranked[i].value;
      actions[i].mean = m[i].mean;
      actions[i].sd = m[i].sd;
    }
  });
}

int penk_value_moments(penk_context* ctx, const char* sheet, const char* rules,
                       const char* table, const char* objective, double* value, double* mean,
                       double* sd) {
  return Guard([&] {
    RequireContext(ctx);
    Require(value, "value");
    Require(mean, "mean");
    Require(sd, "sd");
    penk::Sheet s = penk::protocol::SheetOrThrow(Opt(sheet, penk::kEmptySheetText));
    penk::Rules r = penk::protocol::RulesOrThrow(Opt(rules));
    penk::Objective o = penk::protocol::ObjectiveOrThrow(Opt(objective, "mean"));
    const double v = ctx->session->Value(s, r, Opt(table), o);
    std::string error;
    const std::optional<penk::ActionMoments> m = ctx->session->SheetMoments(s, r, Opt(table), o, error);
    if (!m) Fail(ErrorCode::kTable, error);
    *value = v;
    *mean = m->mean;
    *sd = m->sd;
  });
}

int penk_hint_multi_json(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                         const char* rules, const char* table, const char* opponents,
                         int last_round, int seat, int turns, char* buf, size_t size,
                         size_t* needed) {
  return Guard([&] {
    RequireContext(ctx);
    Require(roll, "roll");
    // The engine's hint (protocol/hint.h), asked with typed arguments.
    penk::protocol::HintQuestion q;
    q.sheet = penk::protocol::SheetOrThrow(Opt(sheet, penk::kEmptySheetText));
    q.roll = penk::protocol::RollOrThrow(roll);
    q.rerolls = rerolls;  // checked with the rest by AnswerHint
    q.rules = penk::protocol::RulesOrThrow(Opt(rules));
    if (opponents && *opponents)
      for (absl::string_view o : absl::StrSplit(opponents, ','))
        q.opponents.push_back(penk::protocol::SheetOrThrow(o));
    q.last_round = last_round != 0;
    q.seat = seat;
    q.turns = turns;
    q.table = Opt(table);
    CopyOut(penk::protocol::AnswerHint(*ctx->session, q).dump(), buf, size, needed);
  });
}

int penk_hint_json(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                   const char* rules, const char* table, char* buf, size_t size,
                   size_t* needed) {
  return penk_hint_multi_json(ctx, sheet, roll, rerolls, rules, table, nullptr, 0, 1, -1, buf,
                              size, needed);
}

int penk_game_create(penk_context* ctx, const char* players, const char* rules, uint64_t seed,
                     penk_game** out) {
  return Guard([&] {
    Require(out, "out");
    *out = nullptr;
    RequireContext(ctx);
    Require(players, "players");
    std::vector<std::string> seats = absl::StrSplit(players, ',');
    penk::Rules r = penk::protocol::RulesOrThrow(Opt(rules));
    auto game = std::make_unique<penk_game>(
        penk_game{ctx->session, ctx->session->NewGame(seats, r, seed)});
    Register(game.get(), Kind::kGame);
    *out = game.release();
  });
}

int penk_game_create_json(penk_context* ctx, const char* options, penk_game** out) {
  return Guard([&] {
    Require(out, "out");
    *out = nullptr;
    RequireContext(ctx);
    Require(options, "options");
    absl::StatusOr<nlohmann::ordered_json> parsed = penk::protocol::ParseBoundedJson(options);
    if (!parsed.ok() || !parsed->is_object())
      Fail(ErrorCode::kBadField,
           absl::StrCat("options must be a JSON object (see new_game in docs/PROTOCOL.md)",
                        parsed.ok() ? "" : "; they are ", parsed.ok() ? "" : parsed.status().message()));
    // The same fields and checks as the protocol's new_game (one reading
    // of them, protocol/request.h), into a handle of its own.
    // "id" and "cmd" belong to a protocol request, not to these options.
    for (const char* key : {"id", "cmd"})
      if (parsed->contains(key))
        Fail(ErrorCode::kBadField,
             absl::StrCat("options take new_game's fields only (players, rules, seed, dice, "
                          "position), not \"", key, "\""));
    penk::protocol::CheckKnownFields(*parsed, "new_game", penk::protocol::NewGameFields());
    auto game = std::make_unique<penk_game>(penk_game{
        ctx->session, penk::protocol::NewGameOf(*ctx->session, penk::protocol::Request(*parsed))});
    Register(game.get(), Kind::kGame);
    *out = game.release();
  });
}

int penk_game_create_random(penk_context* ctx, const char* players, const char* rules,
                            penk_game** out) {
  // As the engine's new_game without "seed".
  return penk_game_create(ctx, players, rules, penk::protocol::RandomGameSeed(), out);
}

void penk_game_destroy(penk_game* game) {
  if (game && Unregister(game, Kind::kGame)) delete game;
}

int penk_game_roll(penk_game* game, const char* dice) {
  return Guard([&] {
    RequireGame(game);
    Require(dice, "dice");
    Session::Roll(game->g, dice);
  });
}

int penk_game_undo(penk_game* game) {
  return Guard([&] {
    RequireGame(game);
    Session::Undo(game->g);
  });
}

int penk_game_hint_json(penk_game* game, const char* table, int top, char* buf, size_t size,
                        size_t* needed) {
  return Guard([&] {
    RequireGame(game);
    if (top < 0) Fail(ErrorCode::kBadField, "top must be >= 0 (0: every action)");
    CopyOut(penk::protocol::AnswerGameHint(*game->session, game->g, Opt(table), top).dump(), buf, size,
            needed);
  });
}

int penk_game_best_action_json(penk_game* game, const char* level, int apply, char* buf,
                               size_t size, size_t* needed) {
  return Guard([&] {
    RequireGame(game);
    if (!buf && size > 0) Fail(ErrorCode::kBadField, "buf must not be NULL when size > 0");
    // Decided without applying: a too-small buffer must not leave the move applied.
    std::string text = penk::protocol::BestActionJson(*game->session, game->g, Opt(level), false).dump();
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
    if (apply) {
      j["applied"] = true;
      text = j.dump();
      if (size < text.size() + 1) CopyOut(text, buf, size, needed);  // fails before applying
      Session::Apply(game->g, j["action"].get<std::string>());
    }
    CopyOut(text, buf, size, needed);
  });
}

int penk_request(penk_context* ctx, const char* request, char* buf, size_t size, size_t* needed) {
  return Guard([&] {
    RequireContext(ctx);
    Require(request, "request");
    std::string reply;
    if (!ctx->unsent_request.empty() && ctx->unsent_request == request) {
      reply = std::move(ctx->unsent_reply);
    } else if (ctx->dispatcher) {  // requests in flight: this one takes its turn on its game
      reply = ctx->dispatcher->Call(request);
    } else {
      reply = penk::protocol::HandleLine(*ctx->session, request);
    }
    ctx->unsent_request.clear();
    ctx->unsent_reply.clear();
    if (size < reply.size() + 1) {
      ctx->unsent_request = request;
      ctx->unsent_reply = reply;
    }
    CopyOut(reply, buf, size, needed);
  });
}

int penk_context_set_callback(penk_context* ctx, penk_line_fn fn, void* user) {
  return Guard([&] {
    RequireContext(ctx);
    Require(reinterpret_cast<const void*>(fn), "fn");
    ctx->dispatcher.reset();  // the old one answers what it has first
    ctx->dispatcher = std::make_unique<penk::protocol::Dispatcher>(
        *ctx->session, [fn, user](const std::string& line, bool reply) {
          fn(line.c_str(), reply ? 1 : 0, user);
        });
  });
}

int penk_submit(penk_context* ctx, const char* request) {
  return Guard([&] {
    RequireContext(ctx);
    Require(request, "request");
    if (!ctx->dispatcher)
      Fail(ErrorCode::kBadField, "no callback: call penk_context_set_callback first");
    // penk_submit speaks protocol 3 (ids, replies in completion order).
    ctx->session->set_protocol(penk::protocol::kLatestProtocol);
    ctx->dispatcher->Submit(request);
  });
}

int penk_cancel(penk_context* ctx, const char* id_json, int* running) {
  return Guard([&] {
    RequireContext(ctx);
    Require(id_json, "id_json");
    if (running) *running = 0;
    absl::StatusOr<nlohmann::ordered_json> id = penk::protocol::ParseBoundedJson(id_json);
    if (!id.ok()) Fail(ErrorCode::kBadField, absl::StrCat("id_json is not JSON: ", id.status().message()));
    const std::string request = nlohmann::ordered_json({{"cmd", "cancel"}, {"target", *id}}).dump();
    const std::string reply =
        ctx->dispatcher ? ctx->dispatcher->Call(request) : penk::protocol::HandleLine(*ctx->session, request);
    nlohmann::ordered_json r = nlohmann::ordered_json::parse(reply);
    if (r.contains("error"))
      Fail(ErrorCode::kBadField, r["error"]["message"].get<std::string>());
    if (running) *running = r["result"]["running"].get<bool>() ? 1 : 0;
  });
}

int penk_drain(penk_context* ctx) {
  return Guard([&] {
    RequireContext(ctx);
    if (ctx->dispatcher) ctx->dispatcher->Drain();
  });
}

int penk_hint_multi(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                    const char* rules, const char* table, const char* opponents,
                    int last_round, int seat, int turns, penk_ranked_win* actions,
                    size_t capacity, size_t* count, char* estimate) {
  return Guard([&] {
    RequireContext(ctx);
    Require(roll, "roll");
    Require(count, "count");
    if (!actions && capacity > 0) Fail(ErrorCode::kBadField, "actions must not be NULL when capacity > 0");
    if (!opponents || !*opponents)
      Fail(ErrorCode::kBadField, "opponents must not be empty (penk_hint ranks a sheet alone)");
    const penk::Sheet s = penk::protocol::SheetOrThrow(Opt(sheet, penk::kEmptySheetText));
    const penk::Dice d = penk::protocol::RollOrThrow(roll);
    const penk::Rules r = penk::protocol::RulesOrThrow(Opt(rules));
    std::vector<penk::Sheet> others;
    for (absl::string_view o : absl::StrSplit(opponents, ','))
      others.push_back(penk::protocol::SheetOrThrow(o));
    if (others.size() > 3) Fail(ErrorCode::kBadField, "at most 3 opponents (R1.4)");
    if (seat < 1 || seat > static_cast<int>(others.size()) + 1)
      Fail(ErrorCode::kBadField, absl::StrCat("seat must be 1..", others.size() + 1));
    std::vector<penk::RankedAction> ranked =
        ctx->session->Hint(s, d, rerolls, r, Opt(table), penk::FinishedSheet::kLastTurns);
    const penk::WinFigures win = ctx->session->RankForWinOrFail(s, d, rerolls, r, others,
                                                                last_round != 0, seat, turns, ranked);
    *count = ranked.size();
    for (size_t i = 0; i < ranked.size() && i < capacity; ++i) {
      CopyActionText(ranked[i].action, actions[i].action);
      actions[i].win = i < win.win.size() ? win.win[i] : std::nan("");
      actions[i].score = i < win.score.size() ? win.score[i] : std::nan("");
      actions[i].value = ranked[i].value;
      actions[i].tied = i < win.tied.size() && win.tied[i] ? 1 : 0;
    }
    if (estimate) std::snprintf(estimate, 16, "%s", win.estimate.c_str());
  });
}

int penk_game_apply(penk_game* game, const char* action) {
  return Guard([&] {
    RequireGame(game);
    Require(action, "action");
    Session::Apply(game->g, action);
  });
}

int penk_game_best_action(penk_game* game, const char* level, int apply, char* buf,
                          size_t size) {
  return Guard([&] {
    RequireGame(game);
    if (!buf && size > 0) Fail(ErrorCode::kBadField, "buf must not be NULL when size > 0");
    std::string text = penk::FormatAction(game->session->BestAction(game->g, Opt(level)));
    if (size < text.size() + 1) CopyOut(text, buf, size, nullptr);  // fails before applying
    if (apply) Session::Apply(game->g, text);
    CopyOut(text, buf, size, nullptr);
  });
}

int penk_game_state_json(const penk_game* game, char* buf, size_t size, size_t* needed) {
  return Guard([&] {
    RequireGame(game);
    CopyOut(Session::StateJson(game->g).dump(), buf, size, needed);
  });
}

int penk_game_players(const penk_game* game) {
  return IsLive(game, Kind::kGame) ? game->g.game().players() : -1;
}
int penk_game_current(const penk_game* game) {
  return IsLive(game, Kind::kGame) ? game->g.game().current() : -1;
}
int penk_game_phase(const penk_game* game) {
  if (!IsLive(game, Kind::kGame)) return -1;
  switch (game->g.game().phase()) {
    case penk::Phase::kKeep: return PENK_PHASE_KEEP;
    case penk::Phase::kMark: return PENK_PHASE_MARK;
    case penk::Phase::kOver: return PENK_PHASE_OVER;
    case penk::Phase::kRoll: return PENK_PHASE_ROLL;
  }
  return -1;
}
int penk_game_rerolls_left(const penk_game* game) {
  if (!IsLive(game, Kind::kGame)) return -1;
  const penk::Phase phase = game->g.game().phase();
  return phase == penk::Phase::kKeep || phase == penk::Phase::kRoll ? game->g.game().rerolls_left() : 0;
}
int penk_game_score(const penk_game* game, int player) {
  if (!IsLive(game, Kind::kGame) || player < 0 || player >= game->g.game().players()) return -1;
  return game->g.game().Score(player);
}

}  // extern "C"
