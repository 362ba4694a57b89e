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

// PENK_MAX_ISA_LEVEL (CMake PENK_MAX_ISA=v3, v2, baseline) drops the clones
// above a level, so that an AVX-512 machine runs the code an AVX2-only CPU
// runs: the same loader choice, not an emulation (cache sizes and the speed of
// each instruction stay this CPU's).
#ifndef PENK_MAX_ISA_LEVEL
#define PENK_MAX_ISA_LEVEL 4
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(PENK_NATIVE_BUILD)
#if PENK_MAX_ISA_LEVEL >= 4
#define PENK_HOT \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "arch=x86-64-v2", "default")))
#elif PENK_MAX_ISA_LEVEL == 3
#define PENK_HOT __attribute__((target_clones("arch=x86-64-v3", "arch=x86-64-v2", "default")))
#elif PENK_MAX_ISA_LEVEL == 2
#define PENK_HOT __attribute__((target_clones("arch=x86-64-v2", "default")))
#else
#define PENK_HOT
#endif
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
  if (PENK_MAX_ISA_LEVEL >= 4 && __builtin_cpu_supports("x86-64-v4"))
    return "portable build, x86-64-v4 code on this CPU";
  if (PENK_MAX_ISA_LEVEL >= 3 && __builtin_cpu_supports("x86-64-v3"))
    return PENK_MAX_ISA_LEVEL == 3 ? "portable build capped at x86-64-v3, x86-64-v3 code on this CPU"
                                   : "portable build, x86-64-v3 code on this CPU";
  if (PENK_MAX_ISA_LEVEL >= 2 && __builtin_cpu_supports("x86-64-v2"))
    return PENK_MAX_ISA_LEVEL == 2 ? "portable build capped at x86-64-v2, x86-64-v2 code on this CPU"
                                   : "portable build, x86-64-v2 code on this CPU";
  return PENK_MAX_ISA_LEVEL == 1 ? "portable build capped at the x86-64 baseline (no clones)"
                                 : "portable build, x86-64 baseline code on this CPU";
#else
  return "portable build";
#endif
}

}  // namespace penk

#endif  // PENK_ENGINE_DISPATCH_H_
