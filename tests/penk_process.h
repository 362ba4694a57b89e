// Runs the real `penk` binary (PENK_BINARY) for the CLI tests: one place that
// quotes arguments, feeds stdin, and captures stdout, stderr and the exit.
#ifndef PENK_TESTS_PENK_PROCESS_H_
#define PENK_TESTS_PENK_PROCESS_H_

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace penk::testing_support {

struct PenkRun {
  bool exited = false;  // false: killed by a signal, i.e. a crash
  int exit_code = -1;
  std::string out, err;
};

inline std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

// Lines without their '\n', as std::getline splits them.
inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// `penk ARGS` where ARGS is a shell fragment (the caller quotes it), with
// `input` on stdin. `exec` replaces the shell, so a crash shows as a signal.
// `env` (e.g. "PENK_TABLE_DIR=/x", quoted by the caller) is added to the
// environment; with `timeout_seconds` > 0 a penk still running then is
// killed and the exit code is 124 (a hang fails the test instead of hanging it).
inline PenkRun RunPenkShell(const std::string& args, const std::string& input = "",
                            const std::string& env = "", int timeout_seconds = 0) {
  static std::atomic<int> counter{0};
  const std::string base = (std::filesystem::temp_directory_path() /
                            ("penk_run_" + std::to_string(getpid()) + "_" +
                             std::to_string(counter++)))
                               .string();
  const std::string in_path = base + ".in", err_path = base + ".err";
  std::ofstream(in_path) << input;
  std::string prefix = "exec ";
  if (!env.empty()) prefix += "env " + env + " ";
  if (timeout_seconds > 0) prefix += "timeout -k 2 " + std::to_string(timeout_seconds) + " ";
  const std::string cmd = prefix + ShellQuote(PENK_BINARY) + " " + args + " <" +
                          ShellQuote(in_path) + " 2>" + ShellQuote(err_path);
  PenkRun r;
  if (FILE* pipe = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
    const int status = pclose(pipe);
    r.exited = WIFEXITED(status);
    r.exit_code = r.exited ? WEXITSTATUS(status) : -1;
  }
  std::ifstream err(err_path);
  std::stringstream ss;
  ss << err.rdbuf();
  r.err = ss.str();
  std::remove(in_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

// `penk` with each argument quoted.
inline PenkRun RunPenk(const std::vector<std::string>& args, const std::string& input = "") {
  std::string joined;
  for (const std::string& a : args) {
    joined += ' ';
    joined += ShellQuote(a);
  }
  return RunPenkShell(joined, input);
}

}  // namespace penk::testing_support

#endif  // PENK_TESTS_PENK_PROCESS_H_
