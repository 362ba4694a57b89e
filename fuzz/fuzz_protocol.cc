// libFuzzer target: the engine protocol's line handler (HandleLine).
//
// An input is a few request lines run through one session, so sequences
// (new_game, apply, best_action, ...) are explored, not just single lines.
// Every reply must be one JSON object with the request's id echoed (or null)
// and exactly one of "result" and "error". Tables: every request uses the
// small fixed table; no table is built; AI levels are those without tables.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_common.h"
#include "nlohmann/json.hpp"
#include "protocol/protocol.h"

namespace {

penk::protocol::Session* session = nullptr;

void Check(bool ok, const std::string& line, const std::string& reply) {
  if (ok) return;
  std::fprintf(stderr, "bad reply\n  request: %s\n  reply: %s\n", line.c_str(), reply.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  penk::protocol::SessionOptions o;
  o.fixed_table = penk::fuzz::SmallTablePath();
  o.build.allow = false;
  o.allow_table_paths = false;
  o.levels = {"bot", "greedy", "random"};
  o.max_games = 8;
  o.deterministic_seeds = true;
  o.expert_hints = false;  // they could need tables of any blocked rows
  session = new penk::protocol::Session(o);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  session->Reset();
  const std::string input(reinterpret_cast<const char*>(data), size);
  size_t start = 0;
  for (int lines = 0; start <= input.size() && lines < 16; ++lines) {
    size_t nl = input.find('\n', start);
    if (nl == std::string::npos) nl = input.size();
    const std::string line = input.substr(start, nl - start);
    start = nl + 1;
    const std::string reply = penk::protocol::HandleLine(*session, line);
    nlohmann::json j = nlohmann::json::parse(reply, nullptr, false);
    Check(!j.is_discarded() && j.is_object() && j.contains("id") &&
              (j.contains("result") != j.contains("error")) && reply.find('\n') == std::string::npos,
          line, reply);
    if (j.contains("error")) {
      const std::string code = j["error"]["code"].get<std::string>();
      Check(code != "internal", line, reply);  // no request may reach an internal error
    }
    if (session->quit_requested()) break;
  }
  return 0;
}
