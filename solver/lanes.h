// Lanes: kTurnBatch doubles, one turn or position per SIMD lane (GCC vector
// extension: one AVX2 register in the x86-64-v3 and v4 clones, SSE pairs in
// the baseline, two v128 in WebAssembly), the type of the turn solver's
// batches, the DP's and the spreads'; and its maximum.
#ifndef PENK_SOLVER_LANES_H_
#define PENK_SOLVER_LANES_H_

#include "solver/turn_solver.h"

namespace penk {

typedef double Lanes __attribute__((vector_size(kTurnBatch * sizeof(double))));

// out = `a > b ? a : b` in every lane (b where they are equal or
// unordered): the turn's and the scatter's maxima. GCC makes the select
// one maxpd (x86's max is exactly this select). Clang for WebAssembly makes
// it a compare and a bitselect per half; f64x2.pmax(b, a) is the same
// select in one instruction, which V8 makes a maxpd: the table build under
// Node (docs/PERFORMANCE.md, WebAssembly) is measured both ways. By
// reference: a Lanes passed by value is an AVX argument, which GCC warns
// changes the ABI in the baseline clone (-Wpsabi).
[[gnu::always_inline]] inline void SetLaneMax(Lanes& out, const Lanes& a, const Lanes& b) {
#if defined(__wasm_simd128__)
  static_assert(kTurnBatch == 4, "two f64x2 halves");
  typedef double Half __attribute__((vector_size(2 * sizeof(double))));
  const Half low = __builtin_wasm_pmax_f64x2(__builtin_shufflevector(b, b, 0, 1),
                                             __builtin_shufflevector(a, a, 0, 1));
  const Half high = __builtin_wasm_pmax_f64x2(__builtin_shufflevector(b, b, 2, 3),
                                              __builtin_shufflevector(a, a, 2, 3));
  out = __builtin_shufflevector(low, high, 0, 1, 2, 3);
#else
  out = a > b ? a : b;
#endif
}

}  // namespace penk

#endif  // PENK_SOLVER_LANES_H_
