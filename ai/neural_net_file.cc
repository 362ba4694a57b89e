// The net file of ai/neural_net.h: written, read and checked. A file is
// trusted only after every check: the header's fields, the exact size it
// implies (before anything of that size is allocated), the checksum, and
// last the feature layout the caller reads, so a hostile or damaged file
// is one line saying what was wrong and never a crash or a misread net.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ai/neural_net.h"
#include "engine/fd_io.h"

namespace penk {
namespace {

constexpr char kMagic[8] = {'P', 'E', 'N', 'K', 'N', 'E', 'T', '1'};
constexpr size_t kChecksumAt = 40;  // the checksum field's offset in the header
constexpr char kRetrain[] = "retrain it with tools/train_neural.py";

struct Header {
  uint32_t version = 0, layout = 0, inputs = 0, hidden1 = 0, hidden2 = 0, outputs = 0;
  uint64_t payload_floats = 0, checksum = 0;
};

template <class T>
T Get(const char* at) {
  T v;
  std::memcpy(&v, at, sizeof v);
  return v;
}
template <class T>
void Put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// 1,234,567: the sizes in messages, readable at a glance.
std::string Grouped(uint64_t n) {
  std::string digits = absl::StrCat(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The payload floats of a net of these (already bounded) sizes.
uint64_t PayloadFloats(uint64_t inputs, uint64_t h1, uint64_t h2) {
  return h1 * inputs + h1 + h2 * h1 + h2 + kNeuralOutputs * h2 + kNeuralOutputs;
}

// Checks a header's own fields (not the caller's layout): magic, version,
// outputs, sizes, payload count. `size` is the whole file's; `bytes` holds
// at least its first min(size, kNeuralHeaderBytes) bytes.
absl::StatusOr<Header> CheckHeader(const char* bytes, uint64_t size, absl::string_view what) {
  auto error = [&](absl::string_view why) {
    return absl::DataLossError(absl::StrCat(what, ": ", why));
  };
  if (size == 0) return error("empty file, not a PENK net");
  if (size < sizeof kMagic || std::memcmp(bytes, kMagic, sizeof kMagic) != 0)
    return error("not a PENK net (its first bytes are not PENKNET1)");
  if (size < kNeuralHeaderBytes)
    return error(absl::StrCat("truncated: ", Grouped(size), " bytes, shorter than the ",
                              kNeuralHeaderBytes, "-byte header"));
  Header h;
  h.version = Get<uint32_t>(bytes + 8);
  h.layout = Get<uint32_t>(bytes + 12);
  h.inputs = Get<uint32_t>(bytes + 16);
  h.hidden1 = Get<uint32_t>(bytes + 20);
  h.hidden2 = Get<uint32_t>(bytes + 24);
  h.outputs = Get<uint32_t>(bytes + 28);
  h.payload_floats = Get<uint64_t>(bytes + 32);
  h.checksum = Get<uint64_t>(bytes + kChecksumAt);
  if (h.version != kNeuralFormatVersion)
    return error(absl::StrCat("net format version ", h.version, ", this program reads version ",
                              kNeuralFormatVersion, " (", kRetrain, ")"));
  if (h.outputs != kNeuralOutputs)
    return error(absl::StrCat(h.outputs, " outputs, expected ", kNeuralOutputs));
  for (const auto& [name, n] : {std::pair<const char*, uint32_t>{"inputs", h.inputs},
                                {"hidden1", h.hidden1}, {"hidden2", h.hidden2}})
    if (n < 1 || n > static_cast<uint32_t>(kNeuralMaxUnits))
      return error(absl::StrCat(name, " ", Grouped(n), ", expected 1..", kNeuralMaxUnits));
  const uint64_t floats = PayloadFloats(h.inputs, h.hidden1, h.hidden2);
  if (h.payload_floats != floats)
    return error(absl::StrCat("the header says ", Grouped(h.payload_floats),
                              " payload floats, its sizes make ", Grouped(floats)));
  const uint64_t expected = kNeuralHeaderBytes + sizeof(float) * floats;
  if (size < expected)
    return error(absl::StrCat("truncated: ", Grouped(size), " bytes, the header says ",
                              Grouped(expected)));
  if (size > expected)
    return error(absl::StrCat(Grouped(size), " bytes, the header says ", Grouped(expected),
                              " (trailing bytes)"));
  return h;
}

uint64_t FileChecksum(absl::string_view file) {
  std::string header(file.substr(0, kNeuralHeaderBytes));
  std::memset(header.data() + kChecksumAt, 0, sizeof(uint64_t));
  return Fnv1a64(file.substr(kNeuralHeaderBytes), Fnv1a64(header));
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

uint64_t Fnv1a64(absl::string_view bytes, uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

absl::StatusOr<NeuralNet> NeuralNet::Parse(absl::string_view bytes, absl::string_view what,
                                           absl::Span<const NeuralInputs> accepted) {
  absl::StatusOr<Header> h = CheckHeader(bytes.data(), bytes.size(), what);
  if (!h.ok()) return h.status();
  if (FileChecksum(bytes) != h->checksum)
    return absl::DataLossError(absl::StrCat(what, ": checksum mismatch (corrupt file)"));
  const NeuralInputs* known = nullptr;
  for (const NeuralInputs& a : accepted)
    if (a.layout == h->layout) known = &a;
  if (!known) {
    std::string ids;
    for (const NeuralInputs& a : accepted) absl::StrAppend(&ids, ids.empty() ? "" : ", ", a.layout);
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": feature layout ", h->layout, ", this program reads layout",
                     accepted.size() == 1 ? " " : "s ", ids, " (", kRetrain,
                     " on self-play data of one of those)"));
  }
  if (static_cast<int>(h->inputs) != known->inputs)
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": ", h->inputs, " inputs, this program's layout ", known->layout,
                     " has ", known->inputs, " (", kRetrain, ")"));
  NeuralNet net;
  net.layout_ = h->layout;
  net.inputs_ = static_cast<int>(h->inputs);
  net.hidden1_ = static_cast<int>(h->hidden1);
  net.hidden2_ = static_cast<int>(h->hidden2);
  net.checksum_ = h->checksum;
  const char* at = bytes.data() + kNeuralHeaderBytes;
  bool finite = true;
  auto take = [&](std::vector<float>& v, size_t n) {
    v.resize(n);
    std::memcpy(v.data(), at, n * sizeof(float));
    at += n * sizeof(float);
    for (float x : v) finite = finite && std::isfinite(x);
  };
  std::vector<float> w1, w2, w3;
  const size_t n = net.inputs_, h1 = net.hidden1_, h2 = net.hidden2_;
  take(w1, h1 * n);
  take(net.b1_, h1);
  take(w2, h2 * h1);
  take(net.b2_, h2);
  take(w3, kNeuralOutputs * h2);
  take(net.b3_, kNeuralOutputs);
  if (!finite)
    return absl::DataLossError(absl::StrCat(what, ": a weight is not a finite number (", kRetrain, ")"));
  // The file's row-major matrices (out x in) transposed to in x out.
  auto transpose = [](const std::vector<float>& w, size_t out, size_t in) {
    std::vector<float> t(out * in);
    for (size_t j = 0; j < out; ++j)
      for (size_t i = 0; i < in; ++i) t[i * out + j] = w[j * in + i];
    return t;
  };
  net.w1t_ = transpose(w1, h1, n);
  net.w2t_ = transpose(w2, h2, h1);
  net.w3t_ = transpose(w3, kNeuralOutputs, h2);
  return net;
}

absl::StatusOr<NeuralNet> NeuralNet::Load(const std::string& path,
                                          absl::Span<const NeuralInputs> accepted) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd fd{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (fd.fd < 0) {
    const int err = errno;
    const std::string why = absl::StrCat(path, ": cannot open: ", std::strerror(err));
    return err == ENOENT || err == ENOTDIR ? absl::NotFoundError(why)
                                           : absl::FailedPreconditionError(why);
  }
  struct stat st;
  if (::fstat(fd.fd, &st) != 0)
    return absl::FailedPreconditionError(absl::StrCat(path, ": cannot read: ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    return absl::FailedPreconditionError(absl::StrCat(path, ": not a regular file"));
  // The header first: its sizes and the exact file size are checked before
  // a buffer of the file's size is allocated.
  char header[kNeuralHeaderBytes];
  const ssize_t got = ReadAll(fd.fd, header, sizeof header);
  if (got < 0)
    return absl::FailedPreconditionError(absl::StrCat(path, ": cannot read: ", std::strerror(errno)));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  // A file shorter than its stat size (changed while read) is judged by what was read.
  absl::StatusOr<Header> h =
      CheckHeader(header, static_cast<size_t>(got) < sizeof header ? got : size, path);
  if (!h.ok()) return h.status();
  std::string bytes(size, '\0');
  std::memcpy(bytes.data(), header, sizeof header);
  const ssize_t rest = ReadAll(fd.fd, bytes.data() + sizeof header, size - sizeof header);
  if (rest < 0)
    return absl::FailedPreconditionError(absl::StrCat(path, ": cannot read: ", std::strerror(errno)));
  bytes.resize(sizeof header + static_cast<size_t>(rest));
  return Parse(bytes, path, accepted);
}

absl::StatusOr<std::string> EncodeNeuralNet(const NeuralWeights& w) {
  for (int n : {w.inputs, w.hidden1, w.hidden2})
    if (n < 1 || n > kNeuralMaxUnits)
      return absl::InvalidArgumentError(
          absl::StrCat("a net's layer sizes must be 1..", kNeuralMaxUnits, "; got ", n));
  const size_t n = w.inputs, h1 = w.hidden1, h2 = w.hidden2;
  const std::pair<const std::vector<float>*, size_t> parts[] = {
      {&w.w1, h1 * n}, {&w.b1, h1}, {&w.w2, h2 * h1},
      {&w.b2, h2},     {&w.w3, kNeuralOutputs * h2}, {&w.b3, kNeuralOutputs}};
  const char* names[] = {"w1", "b1", "w2", "b2", "w3", "b3"};
  for (size_t i = 0; i < 6; ++i)
    if (parts[i].first->size() != parts[i].second)
      return absl::InvalidArgumentError(absl::StrCat("net weights ", names[i], " hold ",
                                                     parts[i].first->size(), " floats, expected ",
                                                     parts[i].second));
  std::string out(kMagic, sizeof kMagic);
  Put(out, kNeuralFormatVersion);
  Put(out, w.layout);
  for (int s : {w.inputs, w.hidden1, w.hidden2, kNeuralOutputs}) Put(out, static_cast<uint32_t>(s));
  Put(out, PayloadFloats(n, h1, h2));
  Put(out, uint64_t{0});
  for (const auto& [v, size] : parts)
    out.append(reinterpret_cast<const char*>(v->data()), size * sizeof(float));
  const uint64_t checksum = FileChecksum(out);
  std::memcpy(out.data() + kChecksumAt, &checksum, sizeof checksum);
  return out;
}

absl::Status WriteNeuralNet(const std::string& path, const NeuralWeights& w) {
  absl::StatusOr<std::string> bytes = EncodeNeuralNet(w);
  if (!bytes.ok()) return bytes.status();
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return absl::UnavailableError(absl::StrCat("cannot write ", tmp, ": ", std::strerror(errno)));
  const bool written = WriteAll(fd, bytes->data(), bytes->size());
  const int err = errno;
  if (::close(fd) != 0 || !written) {
    ::unlink(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot write ", tmp, ": ", std::strerror(err)));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot move the new net into ", path, ": ", reason));
  }
  return absl::OkStatus();
}

}  // namespace penk
