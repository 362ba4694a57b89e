#include "ai/embedded_data.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace penk {

void FailOnEmbeddedData(absl::string_view message) {
  std::fprintf(stderr, "penk: %s (a build of a damaged data file: fix it and rebuild)\n",
               std::string(message).c_str());
  std::exit(70);  // EX_SOFTWARE: the program as built is wrong
}

}  // namespace penk
