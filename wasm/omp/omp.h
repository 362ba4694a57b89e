// The OpenMP calls our code makes, for the one-thread WebAssembly build
// (cmake/wasm_dependencies.cmake): without -fopenmp the pragmas are ignored and
// every loop runs on the calling thread, which is thread 0 of 1.
#ifndef PENK_WASM_OMP_H_
#define PENK_WASM_OMP_H_

inline int omp_get_thread_num() { return 0; }
inline int omp_get_max_threads() { return 1; }

#endif  // PENK_WASM_OMP_H_
