// A reproducible random source: xoshiro256** seeded with splitmix64.
//
// Written out rather than taken from <random> because the standard
// distributions differ between library implementations, and a seed must give
// the same game everywhere (tests, tables, tournaments).
#ifndef PENK_ENGINE_RNG_H_
#define PENK_ENGINE_RNG_H_

#include <cstdint>

namespace penk {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) {
    for (uint64_t& s : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      s = z ^ (z >> 31);
    }
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), without modulo bias.
  uint32_t Below(uint32_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = Next(); while (x >= limit);
    return static_cast<uint32_t>(x % n);
  }
  // A face index 0..5 (R1.1: each face 1/6).
  int Die() { return static_cast<int>(Below(6)); }
  // Uniform in [0, 1).
  double Uniform() { return (Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace penk

#endif  // PENK_ENGINE_RNG_H_
