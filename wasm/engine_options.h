// The session options of a WebAssembly engine (wasm/module.cc and
// wasm/module_threads.cc take the same arguments from JavaScript).
#ifndef PENK_WASM_ENGINE_OPTIONS_H_
#define PENK_WASM_ENGINE_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "protocol/session.h"

namespace penk::wasm {

// Default tables in `table_dir` (a folder of the module's file system; "" is
// /tables): `build` 0 refuses to build a missing table (as `penk engine
// --no-build`), 1 builds any, 2 builds value tables but only reads spread
// tables (another engine builds them: the static site's second worker);
// `disk_budget_mb` > 0 starts no build once the folder holds that much (a
// browser's storage quota), `table_cache_mb` > 0 caps the tables held in
// memory. `fetch` and `folder_bytes`, when set, are BuildPolicy's (the
// JavaScript around the module: a host's tables/ folder, IndexedDB).
penk::protocol::SessionOptions EngineOptions(const char* table_dir, int build, int disk_budget_mb,
                                             int table_cache_mb,
                                             std::function<bool(const std::string&)> fetch = nullptr,
                                             std::function<uint64_t(const std::string&)> folder_bytes = nullptr);

}  // namespace penk::wasm

#endif  // PENK_WASM_ENGINE_OPTIONS_H_
