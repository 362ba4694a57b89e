#include "wasm/engine_options.h"

#include <utility>

namespace penk::wasm {

penk::protocol::SessionOptions EngineOptions(const char* table_dir, int build, int disk_budget_mb,
                                             int table_cache_mb, std::function<bool(const std::string&)> fetch,
                                             std::function<uint64_t(const std::string&)> folder_bytes) {
  penk::protocol::SessionOptions options;
  options.table_dir = table_dir && *table_dir ? table_dir : "/tables";
  options.build.allow = build != 0;
  options.build.spreads = build != 2;
  options.build.fetch = std::move(fetch);
  options.build.folder_bytes = std::move(folder_bytes);
  if (disk_budget_mb > 0) options.build.disk_budget_bytes = static_cast<uint64_t>(disk_budget_mb) << 20;
  if (table_cache_mb > 0) options.table_cache_mb = static_cast<size_t>(table_cache_mb);
  return options;
}

}  // namespace penk::wasm
