#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then a C program built against
# the installed copy only: once with pkg-config, once as a CMake project with
# find_package(penk). Both run; the installed penk answers too.
# Usage: install_test.sh BUILD_DIR WORK_DIR VERSION [extra C/link flags...]
# (the sanitizer build passes its -fsanitize flags: its libpenk needs them).
set -euo pipefail
build=$1 work=$2 version=$3
shift 3
extra=("$@")
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
# Where the files go (GNUInstallDirs: lib or lib64 or a multiarch folder).
lib=$(dirname "$(find "$prefix" -name libpenk.so -print -quit)")
[ -n "$lib" ] && [ "$lib" != . ] || { echo "install: no libpenk.so under $prefix" >&2; exit 1; }
for f in "$prefix/bin/penk" "$prefix/include/penk.h" "$lib/pkgconfig/penk.pc" \
         "$lib/cmake/penk/penkConfig.cmake" "$lib/cmake/penk/penkConfigVersion.cmake"; do
  [ -e "$f" ] || { echo "install: $f is missing" >&2; exit 1; }
done
echo "installed: bin/penk, ${lib#"$prefix"/}/libpenk.so, include/penk.h, penk.pc, penkConfig.cmake"

# The installed CLI runs from its new place.
"$prefix/bin/penk" --version
"$prefix/bin/penk" score ooo.o/..o.x/....x/..o.x/....x | tail -n 1

tables=$work/tables  # stays empty: the program checks the "no table" error
mkdir -p "$tables"

# 1. pkg-config, as a Makefile user would.
export PKG_CONFIG_PATH=$lib/pkgconfig
[ "$(pkg-config --modversion penk)" = "$version" ] || {
  echo "pkg-config: version $(pkg-config --modversion penk), expected $version" >&2; exit 1; }
# shellcheck disable=SC2046  # pkg-config prints several words on purpose
cc -o "$work/consumer_pc" "$here/consumer.c" -DPENK_VERSION_EXPECTED="\"$version\"" \
   $(pkg-config --cflags --libs penk) -Wl,-rpath,"$lib" "${extra[@]}"
echo "--- pkg-config build:"
"$work/consumer_pc" "$tables"

# 2. CMake, find_package(penk) and the imported target penk::penk.
flags="${extra[*]}"
cmake -S "$here" -B "$work/consumer_cmake" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$work/cmake.log"
cmake --build "$work/consumer_cmake" >>"$work/cmake.log"
echo "--- find_package build:"
"$work/consumer_cmake/consumer" "$tables"

# 3. The build tree's own penk.pc, before any install.
PKG_CONFIG_PATH=$build cc -o "$work/consumer_tree" "$here/consumer.c" \
   -DPENK_VERSION_EXPECTED="\"$version\"" \
   $(PKG_CONFIG_PATH=$build pkg-config --cflags --libs penk) "${extra[@]}"
echo "--- build-tree pkg-config build:"
"$work/consumer_tree" "$tables"
echo "install test: all three builds ran"
