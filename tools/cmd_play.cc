// `penk play`: placeholder registration, replaced by the play command.
#include "tools/cli_common.h"
namespace penk::cli {
void RegisterPlay(CLI::App&) {}
}  // namespace penk::cli
