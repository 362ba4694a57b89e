#include "tools/cli_common.h"

#include "tables/table_store.h"

namespace penk::cli {

void AddRulesOption(CLI::App* app, std::string* text) {
  app->add_option("--rules", *text,
                  "rule variants: penk-lines=all|columns (R4.3), line-min=1..5 (R6.5), "
                  "comma-separated")
      ->default_str("line-min=3,penk-lines=all");
}

void AddTableCacheOption(CLI::App* app, size_t* mb) {
  app->add_option("--table-cache-mb", *mb,
                  "memory for exact tables (14.5 MB each), least recently used dropped first")
      ->default_val(TableCache::kDefaultCapMegabytes)
      ->check(CLI::Range(size_t{1}, TableCache::kMaxCapMegabytes));
}

std::shared_ptr<TableCache> CommandTableCache(size_t mb) {
  return std::make_shared<TableCache>(FileTableLoader("", /*allow_build=*/true), mb << 20);
}

}  // namespace penk::cli
