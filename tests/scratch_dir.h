// A scratch folder per test (under the test temp dir, named after the test
// and the process, removed with the object) and a count of its files: what
// the tests of table folders share.
#ifndef PENK_TESTS_SCRATCH_DIR_H_
#define PENK_TESTS_SCRATCH_DIR_H_

#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace penk::testing_support {

// The entries of `dir` (0 if it does not exist).
inline size_t FilesIn(const std::string& dir) {
  std::error_code ec;
  size_t n = 0;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    ++n;
  return n;
}

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : path_(testing::TempDir() + tag + "_" + std::to_string(getpid()) + "_" +
              testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  size_t files() const { return FilesIn(path_); }

 private:
  std::string path_;
};

}  // namespace penk::testing_support

#endif  // PENK_TESTS_SCRATCH_DIR_H_
