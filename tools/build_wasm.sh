#!/usr/bin/env bash
# The WebAssembly build (issue 23, docs/WEB.md "Without a server"): the same
# sources as the native build, compiled by Debian's Emscripten into
#   build-wasm/module/   the engine module (penk-engine-core.mjs + .wasm) and
#                        the module with threads (penk-engine-threads.*: protocol 3, Node)
#   build-wasm/site/     the static web app (the page of web/ on the module)
#   build-wasm/npm/penk-engine-VERSION.tgz   the npm package
# Installs what it needs from Debian (emscripten, dpkg-dev) and fetches
# Abseil's Debian source package (the installed libabsl-dev's version) with
# apt-get source into build-wasm/abseil/; nothing comes from elsewhere.
# Safe to run again: an existing source tree and build are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=build-wasm
mkdir -p "$out"

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
missing=()
for p in emscripten dpkg-dev libabsl-dev nlohmann-json3-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "build_wasm: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi
# Debian's emscripten runs its JavaScript tools on the system's Node with
# Debian's own modules (acorn).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# Abseil's source: the Debian source package of the installed libabsl-dev,
# through a private apt list of deb-src entries (the machine's own lists and
# sources are not touched).
absl_version=$(dpkg-query -W -f='${Version}' libabsl-dev)
absl_src=$out/abseil/src-$absl_version
if [ ! -f "$absl_src/CMakeLists.txt" ]; then
  echo "build_wasm: fetching Debian's abseil source package $absl_version" >&2
  apt_dir=$root/$out/abseil/apt
  rm -rf "$apt_dir" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/download"
  . /etc/os-release
  # The suites that may carry libabsl-dev's version (security updates included).
  {
    echo "deb-src http://deb.debian.org/debian $VERSION_CODENAME main"
    echo "deb-src http://deb.debian.org/debian $VERSION_CODENAME-updates main"
    echo "deb-src http://deb.debian.org/debian-security $VERSION_CODENAME-security main"
  } >"$apt_dir/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
            -o "Dir::State::Lists=$apt_dir/lists" -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" update -qq >&2
  (cd "$apt_dir/download" && apt-get "${apt_opts[@]}" source --download-only -qq "abseil=$absl_version" >&2)
  rm -rf "$absl_src"
  dpkg-source -x "$apt_dir"/download/abseil_*.dsc "$absl_src" >&2
fi

echo "build_wasm: compiling the module (log in $out/build.log)" >&2
if ! { emcmake cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
         -DPENK_ABSL_SOURCE="$root/$absl_src" &&
       cmake --build "$out" -j "$(nproc)" --target penk_wasm penk_npm; } >"$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log" >&2
  echo "build_wasm: the WebAssembly build failed; full log in $out/build.log" >&2
  exit 1
fi

# The module with threads (protocol 3, for Node: wasm/module_threads.cc): the
# same sources again, on shared memory, in a folder of its own; beside the
# one-thread module and in the npm package.
echo "build_wasm: compiling the module with threads (log in $out/threads/build.log)" >&2
mkdir -p "$out/threads"
if ! { emcmake cmake -S . -B "$out/threads" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
         -DPENK_WASM_THREADS=ON -DPENK_ABSL_SOURCE="$root/$absl_src" &&
       cmake --build "$out/threads" -j "$(nproc)" --target penk_wasm_threads; } >"$out/threads/build.log" 2>&1; then
  tail -n 40 "$out/threads/build.log" >&2
  echo "build_wasm: the WebAssembly build with threads failed; full log in $out/threads/build.log" >&2
  exit 1
fi
# The thread workers' script is CommonJS: named .cjs, so that it stays so in
# a package of ES modules ("type": "module"; penk_engine_threads.mjs names it).
cp "$out/threads/module/penk-engine-threads.mjs" "$out/threads/module/penk-engine-threads.wasm" "$out/module/"
cp "$out/threads/module/penk-engine-threads.worker.js" "$out/module/penk-engine-threads.worker.cjs"
cp "$out/module/penk-engine-threads.mjs" "$out/module/penk-engine-threads.wasm" \
   "$out/module/penk-engine-threads.worker.cjs" "$out/npm/package/"

# The static site: the page of web/ with the engine in a Web Worker, its
# service worker and manifest (wasm/site/), and the module.
site=$out/site
rm -rf "$site" && mkdir -p "$site"
cp web/* wasm/site/engine_worker.js wasm/site/helper_worker.js wasm/site/manifest.webmanifest wasm/site/icon.svg "$site/"
cp "$out"/module/penk-engine-core.mjs "$out"/module/penk-engine-core.wasm wasm/penk_engine.mjs wasm/table_store.mjs "$site/"
# index.html: the engine in a worker, the manifest.
sed -i 's|<meta charset="utf-8">|<meta charset="utf-8">\n<meta name="penk-engine" content="worker">\n<link rel="manifest" href="manifest.webmanifest">|' "$site/index.html"
grep -q 'name="penk-engine"' "$site/index.html" || { echo "build_wasm: index.html has no <meta charset> line to extend" >&2; exit 1; }
# The service worker caches every file of the site; its cache is named by
# their digest, so a new build replaces the old one.
files=$(cd "$site" && ls | sort)
digest=$(cd "$site" && cat $files | sha256sum | cut -c1-16)
list=$(printf '"./",'; for f in $files; do printf '"%s",' "$f"; done)
sed -e "s|@SITE_DIGEST@|$digest|" -e "s|@SITE_FILES@|${list%,}|" wasm/site/sw.js >"$site/sw.js"

# The npm package: `npm pack` of the staged folder (no dependencies, nothing
# fetched).
rm -f "$out"/npm/penk-engine-*.tgz
(cd "$out/npm/package" && npm pack --silent --pack-destination .. >/dev/null)
ls -l "$out"/module/penk-engine-core.wasm "$out"/npm/penk-engine-*.tgz >&2
echo "build_wasm: the static site is $site/ (serve it with any static file host: python3 -m http.server -d $site)" >&2
