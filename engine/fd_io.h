// Whole-buffer reads and writes on a POSIX file descriptor, retried on
// EINTR: the one copy behind every file the program writes and checks
// itself (tables/table_file, ai/neural_net_file).
#ifndef PENK_ENGINE_FD_IO_H_
#define PENK_ENGINE_FD_IO_H_

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace penk {

// Writes all `size` bytes; false on an error (errno) or a write of nothing.
inline bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Bytes read, short only at the end of the file; -1 on an error (errno).
inline ssize_t ReadAll(int fd, char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

}  // namespace penk

#endif  // PENK_ENGINE_FD_IO_H_
