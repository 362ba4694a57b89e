// The engine protocol in WebAssembly (issue 23): one JSON request line in,
// one JSON reply line out, exactly `penk engine`'s protocol 2 (the halves of
// HandleLine, protocol/protocol.h), on one thread, with progress messages.
// wasm/penk_engine.mjs wraps it for JavaScript (Node and browsers); the page
// runs it in a Web Worker.
//
// Tables live in the module's file system under the engine's table folder:
// Node mounts a real folder there (NODEFS). A browser keeps them in
// IndexedDB and puts one in the folder only when a request asks for it
// (Module.penkFetchTable), so that memory holds the tables in use, not every
// table kept. A missing table is built in the module, as `penk engine`
// builds one.
#include <emscripten/emscripten.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>

#include "nlohmann/json.hpp"
#include "protocol/protocol.h"
#include "solver/work_progress.h"
#include "solver/solitaire_dp.h"
#include "tables/build_policy.h"
#include "tables/spread_store.h"
#include "tables/table_file.h"
#include "tables/table_store.h"
#include "wasm/engine_options.h"

// Hands a progress message to the JavaScript around the module
// (wasm/penk_engine.mjs sets Module.penkProgress for the request's extent).
EM_JS(void, PenkProgress, (const char* message), {
  if (Module["penkProgress"]) Module["penkProgress"](UTF8ToString(message));
});

// Asks the JavaScript around the module for a missing table file (the
// static site fetches it from a tables/ folder beside the page, with a
// synchronous request: a worker may); 1 if it wrote the file at `path`.
EM_JS(int, PenkFetchTable, (const char* path), {
  if (!Module["penkFetchTable"]) return 0;
  try {
    return Module["penkFetchTable"](UTF8ToString(path)) ? 1 : 0;
  } catch (e) {
    return 0;
  }
});

// The bytes the JavaScript around the module keeps for the table folder
// `dir` (the static site's IndexedDB: Module.penkFolderBytes), or -1 when it
// keeps nothing apart (a host folder, memory): the folder's own files count.
EM_JS(double, PenkFolderBytes, (const char* dir), {
  if (!Module["penkFolderBytes"]) return -1;
  try {
    return Module["penkFolderBytes"](UTF8ToString(dir));
  } catch (e) {
    return -1;
  }
});

namespace {

// One engine: a session (its games, its table cache) and the last reply,
// which the caller reads before its next request.
struct WasmEngine {
  explicit WasmEngine(penk::protocol::SessionOptions options) : session(std::move(options)) {}
  penk::protocol::Session session;
  std::string reply;
};

// The folder of the engine's default tables.
std::string TableFolder(const WasmEngine& engine) {
  const std::string& dir = engine.session.options().table_dir;
  return dir.empty() ? penk::DefaultTableDir() : dir;
}

}  // namespace

extern "C" {

// A new engine (wasm/engine_options.h): a missing table is first asked of
// Module.penkFetchTable, and the folder's bytes of Module.penkFolderBytes.
// nullptr if it cannot be made.
EMSCRIPTEN_KEEPALIVE WasmEngine* penk_wasm_open(const char* table_dir, int build,
                                               int disk_budget_mb, int table_cache_mb) {
  try {
    return new WasmEngine(penk::wasm::EngineOptions(
        table_dir, build, disk_budget_mb, table_cache_mb,
        [](const std::string& path) { return PenkFetchTable(path.c_str()) != 0; },
        [](const std::string& dir) {
          const double kept = PenkFolderBytes(dir.c_str());
          return kept >= 0 ? static_cast<uint64_t>(kept) : penk::FolderBytes(dir);
        }));
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The reply to one request line (NUL-terminated, UTF-8), valid until the
// engine's next request. Never throws: every bad request is an error reply.
// A request with "progress_ms" has its progress messages ({"id","progress":
// {"done","total","what"}}, as `penk engine` sends them) passed to the
// module's penkProgress function while it runs, at most every progress_ms
// and only when something changed; "time_ms" bounds its rollouts, as
// HandleLine's.
EMSCRIPTEN_KEEPALIVE const char* penk_wasm_request(WasmEngine* engine, const char* line) {
  using penk::protocol::kMaxRequestTimeMs;
  using penk::protocol::kMinProgressMs;
  using Clock = std::chrono::steady_clock;
  nlohmann::ordered_json request, error;
  if (!penk::protocol::ParseRequestLine(line ? line : "", request, error)) {
    engine->reply = penk::protocol::ReplyLine(error);
    return engine->reply.c_str();
  }
  penk::protocol::RequestWork work;
  work.cancel = engine->session.options().cancel;
  if (const int64_t ms = penk::protocol::EveryRequestField(request, "time_ms", 1, kMaxRequestTimeMs))
    work.deadline = Clock::now() + std::chrono::milliseconds(ms);
  const int64_t progress_ms = penk::protocol::EveryRequestField(request, "progress_ms", kMinProgressMs, kMaxRequestTimeMs);
  const nlohmann::ordered_json id = request.contains("id") ? request["id"] : nlohmann::ordered_json();
  // The first message after progress_ms, as the dispatcher's watcher sends it.
  Clock::time_point next = Clock::now() + std::chrono::milliseconds(progress_ms);
  std::unique_ptr<penk::WorkProgress> progress;
  if (progress_ms > 0)
    progress = std::make_unique<penk::WorkProgress>([&](const penk::WorkProgress::Snapshot& at) {
      const Clock::time_point now = Clock::now();
      if (now < next) return;
      next = now + std::chrono::milliseconds(progress_ms);
      PenkProgress(penk::protocol::ReplyLine(penk::protocol::ProgressJson(id, at)).c_str());
    });
  penk::WorkProgressScope scope(progress.get());
  work.progress = progress.get();
  engine->reply = penk::protocol::ReplyLine(penk::protocol::HandleRequest(engine->session, request, work));
  return engine->reply.c_str();
}

// Builds the spread table (and, for a target, the mean table) beside the
// value table file `value_path` and saves it there: the static site's second
// worker does this for the first, whose engine (build 2) only reads spread
// tables, so that its hints never wait for one. "" when done, else the
// one-line reason.
EMSCRIPTEN_KEEPALIVE const char* penk_wasm_build_spread(WasmEngine* engine, const char* value_path) {
  try {
    const std::string path = value_path ? value_path : "";
    absl::StatusOr<penk::TableKey> key = penk::ReadTableKey(path);
    absl::StatusOr<penk::SolitaireTable> values =
        key.ok() ? penk::ReadTable(path, key->rules, key->blocked_rows, key->objective)
                 : absl::StatusOr<penk::SolitaireTable>(key.status());
    absl::Status done = values.status();
    if (values.ok()) done = penk::LoadOrBuildSpreadTable(*values, penk::SpreadSource{path}).status();
    engine->reply = done.ok() ? "" : std::string(done.message());
  } catch (const std::exception& e) {
    engine->reply = std::string("building the spread table failed: ") + e.what();
  }
  return engine->reply.c_str();
}

// A value table built by two engines in two Web Workers (the static site's
// first visit: wasm threads would need the host's cross-origin isolation).
// Both open the same build, each solves its share of every layer
// (penk_wasm_build_solve), they trade the values (penk_wasm_build_values,
// penk_wasm_build_set) before the next layer, and one saves the table into
// its engine's table folder: BuildSolitaireTable's table, bit for bit
// (solver/solitaire_dp.h TableBuild).
//
// The default table of `rules` ("" for the default rules) and `blocked_rows`
// (bit k-1: row k), expected score: nullptr when the engine has it already
// (its folder holds it, or its host gave it: Module.penkFetchTable) or when
// it cannot be (the reason then in penk_wasm_build_error).
EMSCRIPTEN_KEEPALIVE penk::TableBuild* penk_wasm_build_open(WasmEngine* engine, const char* rules_text,
                                                          int blocked_rows) {
  engine->reply.clear();
  try {
    absl::StatusOr<penk::Rules> rules =
        rules_text && *rules_text ? penk::ParseRules(rules_text) : absl::StatusOr<penk::Rules>(penk::Rules{});
    if (!rules.ok()) {
      engine->reply = std::string(rules.status().message());
      return nullptr;
    }
    if (blocked_rows < 0 || blocked_rows > 31) {
      engine->reply = "blocked rows are a mask of rows 1-5 (0 to 31)";
      return nullptr;
    }
    const penk::protocol::SessionOptions& o = engine->session.options();
    const std::string dir = TableFolder(*engine);
    const std::string path = penk::TablePathIn(dir, *rules, blocked_rows);
    if (penk::ReadTable(path, *rules, blocked_rows).ok()) return nullptr;
    if (o.build.Fetched(dir, path) && penk::ReadTable(path, *rules, blocked_rows).ok()) return nullptr;
    if (absl::Status may = o.build.MayBuild(penk::TableKey{*rules, static_cast<uint32_t>(blocked_rows), "", {}},
                                            dir, "");
        !may.ok()) {
      engine->reply = std::string(may.message());
      return nullptr;
    }
    return new penk::TableBuild(*rules, penk::kRows * penk::kColumns, blocked_rows, penk::Objective{});
  } catch (const std::exception& e) {
    engine->reply = std::string("the table build could not start: ") + e.what();
    return nullptr;
  }
}

// Why the last penk_wasm_build_open gave nullptr ("" when the table is there).
EMSCRIPTEN_KEEPALIVE const char* penk_wasm_build_error(WasmEngine* engine) { return engine->reply.c_str(); }

EMSCRIPTEN_KEEPALIVE int penk_wasm_build_layers(const penk::TableBuild* build) { return build->layer_count(); }
EMSCRIPTEN_KEEPALIVE int penk_wasm_build_layer_size(const penk::TableBuild* build, int layer) {
  return layer >= 0 && layer < build->layer_count() ? static_cast<int>(build->layer_size(layer)) : 0;
}
EMSCRIPTEN_KEEPALIVE double penk_wasm_build_positions(const penk::TableBuild* build) {
  return static_cast<double>(build->positions());
}
// Positions [begin, end) of `layer`, once every layer before is solved or set.
EMSCRIPTEN_KEEPALIVE void penk_wasm_build_solve(penk::TableBuild* build, int layer, int begin, int end) {
  if (layer >= 0 && layer < build->layer_count() && begin >= 0 && begin <= end) build->Solve(layer, begin, end);
}
// Their values to `out` (end - begin doubles), and back from the other engine.
EMSCRIPTEN_KEEPALIVE void penk_wasm_build_values(const penk::TableBuild* build, int layer, int begin, int end,
                                                 double* out) {
  if (layer >= 0 && layer < build->layer_count() && begin >= 0 && begin <= end) build->Values(layer, begin, end, out);
}
EMSCRIPTEN_KEEPALIVE void penk_wasm_build_set(penk::TableBuild* build, int layer, int begin, int end,
                                              const double* values) {
  if (layer >= 0 && layer < build->layer_count() && begin >= 0 && begin <= end) build->Set(layer, begin, end, values);
}
// Saves the finished table into the engine's table folder ("" when done,
// else the reason) and ends the build; the other engine only closes its.
EMSCRIPTEN_KEEPALIVE const char* penk_wasm_build_save(WasmEngine* engine, penk::TableBuild* build) {
  const penk::SolitaireTable& table = build->table();
  const std::string dir = TableFolder(*engine);
  absl::Status saved = penk::WriteTable(table, penk::TablePathIn(dir, table.rules(), table.blocked_rows()));
  delete build;
  engine->reply = saved.ok() ? "" : std::string(saved.message());
  return engine->reply.c_str();
}
EMSCRIPTEN_KEEPALIVE void penk_wasm_build_close(penk::TableBuild* build) { delete build; }

// Whether a request asked the engine to quit ({"cmd":"quit"}, answered).
EMSCRIPTEN_KEEPALIVE int penk_wasm_quit_requested(WasmEngine* engine) {
  return engine->session.quit_requested() ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void penk_wasm_close(WasmEngine* engine) { delete engine; }

}  // extern "C"
