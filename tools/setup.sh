#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks (compiler, CMake, GoogleTest and
# Google Benchmark are assumed), then configures and builds Release in build/
# (portable x86-64; PENK_NATIVE=ON bash tools/setup.sh for -march=native).
# Safe to run again: it installs only what is missing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-torch: the evaluation network's trainer (tools/train_neural.py, under /usr/bin/python3),
# whose test (neural_train: one epoch, then the C++ outputs held to the
# trainer's) would be skipped without it; 212 packages, 70 MB, about 75 s
# to install here.
packages=(libabsl-dev libboost-dev libcli11-dev nlohmann-json3-dev
          python3-torch
          pkg-config   # pkg-config: the install test builds against penk.pc
          chromium chromium-driver python3-selenium)  # the web app's browser tests (docs/WEB.md)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The example client's test (examples/python) needs a Python 3 interpreter.
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi

# Portable unless PENK_NATIVE=ON is asked for (-march=native: binaries for
# this machine only). Said explicitly: a build/ configured before the default
# changed has PENK_NATIVE=ON in its cache.
native=${PENK_NATIVE:-OFF}
# Quiet when all is well; the log's tail when the build fails.
mkdir -p build
if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPENK_NATIVE="$native" &&
       cmake --build build -j "$(nproc)"; } \
    >build/setup.log 2>&1; then
  tail -n 40 build/setup.log >&2
  echo "setup: build failed; full log in build/setup.log" >&2
  exit 1
fi
