// Run-time dispatch for the hot loops of a portable build.
//
// The default build targets the x86-64 baseline, so its binaries and
// libpenk.so run on every x86-64 CPU. The few functions that dominate the
// solver's time are marked PENK_HOT: GCC compiles each of them once per
// microarchitecture level below and picks one at load time (an ifunc) from
// what the CPU reports. Level 2 brings popcnt (the DP counts bits in its inner
// loops; without it each count is a library call), level 3 AVX2 (a turn's
// four SIMD lanes fit one register), level 4 AVX-512.
//
// A clone covers its own body and what is inlined into it; a call to another
// function, or an OpenMP region (outlined into a function of its own), runs
// that function's code, so the hot work sits in PENK_HOT functions whole.
//
// With PENK_NATIVE (-march=native) everything is already compiled for the
// building CPU: no clones.
#ifndef PENK_ENGINE_DISPATCH_H_
#define PENK_ENGINE_DISPATCH_H_

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(PENK_NATIVE_BUILD)
#define PENK_HOT \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "arch=x86-64-v2", "default")))
#else
#define PENK_HOT
#endif

namespace penk {

// Which code the hot functions run on this CPU, for `penk --version`: a bug
// report then says which clone was in use.
inline const char* DispatchLevel() {
#if defined(PENK_NATIVE_BUILD)
  return "-march=native build";
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) return "portable build, x86-64-v4 code on this CPU";
  if (__builtin_cpu_supports("x86-64-v3")) return "portable build, x86-64-v3 code on this CPU";
  if (__builtin_cpu_supports("x86-64-v2")) return "portable build, x86-64-v2 code on this CPU";
  return "portable build, x86-64 baseline code on this CPU";
#else
  return "portable build";
#endif
}

}  // namespace penk

#endif  // PENK_ENGINE_DISPATCH_H_
