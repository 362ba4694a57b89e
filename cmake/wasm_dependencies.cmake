# Dependencies of the WebAssembly build (EMSCRIPTEN; tools/build_wasm.sh).
#
# C++ exceptions carry the engine's errors (EngineError) to the reply: the
# module uses WebAssembly's own exception handling (every browser since 2021,
# Node 17+), and 128-bit SIMD for the hot loops (GCC vector extensions, which
# clang lowers to wasm SIMD). Set first: Abseil is built with them too.
add_compile_options(-fwasm-exceptions -msimd128)
add_link_options(-fwasm-exceptions -msimd128)
# The module with threads (wasm/module_threads.cc: protocol 3, for Node and
# cross-origin isolated pages) is a second build of everything, Abseil
# included, on shared memory: its own build folder (tools/build_wasm.sh).
option(PENK_WASM_THREADS "build the engine module with wasm threads (protocol 3)" OFF)
if(PENK_WASM_THREADS)
  add_compile_options(-pthread)
  add_link_options(-pthread)
endif()

# Abseil: compiled here from Debian's own source package, the version of the
# installed libabsl-dev, which tools/build_wasm.sh fetches with apt-get source
# (nothing is downloaded from elsewhere). Only the targets our libraries link
# are built (EXCLUDE_FROM_ALL).
set(PENK_ABSL_SOURCE "" CACHE PATH "Abseil's source tree (Debian's abseil source package)")
if(NOT EXISTS "${PENK_ABSL_SOURCE}/CMakeLists.txt")
  message(FATAL_ERROR "the WebAssembly build needs -DPENK_ABSL_SOURCE=<Abseil source tree>: "
                      "bash tools/build_wasm.sh fetches Debian's abseil source package")
endif()
set(ABSL_PROPAGATE_CXX_STD ON)
set(ABSL_BUILD_TESTING OFF)
add_subdirectory(${PENK_ABSL_SOURCE} ${CMAKE_BINARY_DIR}/absl EXCLUDE_FROM_ALL)
# Debian's latomic.diff links every Abseil library with "-Wl,--push-state,
# --as-needed -latomic -Wl,--pop-state" (for armel); WebAssembly's atomics are
# built in and its linker knows none of these flags: they are taken out again.
function(penk_drop_latomic dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(libs ${t} INTERFACE_LINK_LIBRARIES)
    if(libs)
      list(FILTER libs EXCLUDE REGEX "latomic|push-state|pop-state")
      set_target_properties(${t} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(d IN LISTS subdirs)
    penk_drop_latomic(${d})
  endforeach()
endfunction()
penk_drop_latomic(${PENK_ABSL_SOURCE})

# Header-only libraries from the host's Debian packages: their folders alone,
# never /usr/include itself (its C library headers are not the module's).
set(PENK_HOST_INCLUDE ${CMAKE_BINARY_DIR}/host_include)
file(MAKE_DIRECTORY ${PENK_HOST_INCLUDE})
if(NOT EXISTS /usr/include/nlohmann/json.hpp)
  message(FATAL_ERROR "the WebAssembly build needs the headers of nlohmann-json3-dev")
endif()
file(CREATE_LINK /usr/include/nlohmann ${PENK_HOST_INCLUDE}/nlohmann SYMBOLIC)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${PENK_HOST_INCLUDE})

# One thread per table build: the one-thread module runs in a Web Worker or
# Node's main thread, without SharedArrayBuffer (which would need special
# headers from every host), and the module with threads uses its threads
# for requests side by side, not inside one build. The OpenMP pragmas are
# then ignored and wasm/omp/omp.h answers the two calls the
# code makes (thread 0 of 1).
add_library(OpenMP::OpenMP_CXX INTERFACE IMPORTED)
target_include_directories(OpenMP::OpenMP_CXX INTERFACE ${CMAKE_SOURCE_DIR}/wasm/omp)
target_compile_options(OpenMP::OpenMP_CXX INTERFACE -Wno-unknown-pragmas)

