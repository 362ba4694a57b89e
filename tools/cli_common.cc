#include "tools/cli_common.h"

namespace penk::cli {

void AddRulesOption(CLI::App* app, std::string* text) {
  app->add_option("--rules", *text,
                  "rule variants: penk-lines=all|columns (R4.3), line-min=1..5 (R6.5), "
                  "comma-separated (docs/RULES.md)")
      ->default_str("line-min=3,penk-lines=all");
}

}  // namespace penk::cli
