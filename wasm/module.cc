// The engine protocol in WebAssembly (issue 23): one JSON request line in,
// one JSON reply line out, exactly `penk engine`'s protocol 2 (HandleLine,
// protocol/protocol.h), on one thread. wasm/penk_engine.mjs wraps it for
// JavaScript (Node and browsers); the page runs it in a Web Worker.
//
// Tables live in the module's file system under the engine's table folder:
// Node mounts a real folder there (NODEFS), a browser IndexedDB (IDBFS); a
// missing table is built in the module, as `penk engine` builds one.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>

#include "protocol/protocol.h"

namespace {

// One engine: a session (its games, its table cache) and the last reply,
// which the caller reads before its next request.
struct WasmEngine {
  explicit WasmEngine(penk::protocol::SessionOptions options) : session(std::move(options)) {}
  penk::protocol::Session session;
  std::string reply;
};

}  // namespace

extern "C" {

// A new engine whose default tables are in `table_dir` (a folder of the
// module's file system): `build` 0 refuses to build a missing table (as
// `penk engine --no-build`), `disk_budget_mb` > 0 starts no build once the
// folder holds that much (a browser's storage quota), `table_cache_mb` > 0
// caps the tables held in memory. nullptr if it cannot be made.
EMSCRIPTEN_KEEPALIVE WasmEngine* penk_wasm_open(const char* table_dir, int build,
                                               int disk_budget_mb, int table_cache_mb) {
  try {
    penk::protocol::SessionOptions options;
    options.table_dir = table_dir && *table_dir ? table_dir : "/tables";
    options.build.allow = build != 0;
    if (disk_budget_mb > 0) options.build.disk_budget_bytes = static_cast<uint64_t>(disk_budget_mb) << 20;
    if (table_cache_mb > 0) options.table_cache_mb = static_cast<size_t>(table_cache_mb);
    return new WasmEngine(std::move(options));
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The reply to one request line (NUL-terminated, UTF-8), valid until the
// engine's next request. HandleLine never throws: every bad request is an
// error reply.
EMSCRIPTEN_KEEPALIVE const char* penk_wasm_request(WasmEngine* engine, const char* line) {
  engine->reply = penk::protocol::HandleLine(engine->session, line ? line : "");
  return engine->reply.c_str();
}

// Whether a request asked the engine to quit ({"cmd":"quit"}, answered).
EMSCRIPTEN_KEEPALIVE int penk_wasm_quit_requested(WasmEngine* engine) {
  return engine->session.quit_requested() ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void penk_wasm_close(WasmEngine* engine) { delete engine; }

}  // extern "C"
