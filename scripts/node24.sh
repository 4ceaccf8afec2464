#!/usr/bin/env bash
# Node.js 24 LTS, the production runtime (deploy/Dockerfile's image), for what must run as deployed:
# the test suite (.ci/run) and the server bench (`npm run bench:server`).
#
#   scripts/node24.sh prepare          fetch Node 24 and compile better-sqlite3 for it (both cached)
#   scripts/node24.sh run CMD [ARGS…]  prepare, then run CMD from the repository's root with Node 24
#                                      first on PATH and its better-sqlite3 build in node_modules; the
#                                      machine's build is put back when CMD ends (do not run the
#                                      machine's Node on this checkout meanwhile)
#
# The npm registry's `node` package brings the official binary (into .tmp/). Native modules are built
# for one Node at a time: better-sqlite3 (the only one) is compiled for Node 24 from its npm tarball,
# against the headers deploy/addon-headers.sh gives (those of 24.18.1: an addon compiled against
# 24.19+ aborts under the garbage collector), and cached outside the checkout by its version and
# theirs. A compile keeps one core busy for about a minute; .ci/run prepares while `npm ci` installs.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE24=24.21.0
tools=.tmp/node-$NODE24
sqlite_version=$(node -p 'require("./package-lock.json").packages["node_modules/better-sqlite3"].version')
cache="${XDG_CACHE_HOME:-$HOME/.cache}/edupass-ci"
headers_version=$(sed -n 's/^version=//p' deploy/addon-headers.sh)
addon24="$cache/better-sqlite3-$sqlite_version-node-24-headers-$headers_version.node"

node24_dir() {
  readlink -f "$(dirname "$(find "$tools/node_modules" -path '*/node-linux-*/bin/node' | head -n 1)")/.."
}

prepare() {
  if [ ! -x "$tools/node_modules/.bin/node" ]; then
    echo "== node@$NODE24 from the npm registry"
    npm i --prefix "$tools" --no-audit --no-fund --loglevel=error "node@$NODE24"
  fi
  [ -f "$addon24" ] && return
  echo "== better-sqlite3 $sqlite_version for Node $NODE24, compiling"
  local node24 scratch gyp headers
  node24=$(node24_dir)
  scratch=$(mktemp -d)
  (cd "$scratch" && npm pack --silent "better-sqlite3@$sqlite_version" >/dev/null && tar xzf better-sqlite3-*.tgz)
  gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
  headers=$(sh deploy/addon-headers.sh "$cache/node-headers")
  (cd "$scratch/package" && PATH="$node24/bin:$PATH" "$node24/bin/node" "$gyp" rebuild --release --jobs=max \
    --nodedir="$headers" >"$scratch/build.log" 2>&1) || { cat "$scratch/build.log"; return 1; }
  mkdir -p "$cache" && cp "$scratch/package/build/Release/better_sqlite3.node" "$addon24.tmp" && mv "$addon24.tmp" "$addon24"
  rm -rf "$scratch"
}

case "${1:-}" in
  prepare)
    prepare
    ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: scripts/node24.sh run CMD [ARGS…]" >&2; exit 2; }
    prepare
    node24=$(node24_dir)
    "$node24/bin/node" --version >/dev/null
    addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
    [ -f "$addon" ] || { echo "scripts/node24.sh: $addon is missing; run npm ci first" >&2; exit 1; }
    mkdir -p .tmp && cp "$addon" .tmp/better_sqlite3.machine.node
    trap 'cp .tmp/better_sqlite3.machine.node "$addon"' EXIT
    cp "$addon24" "$addon"
    echo "== $* on Node $NODE24"
    status=0
    PATH="$node24/bin:$PATH" "$@" || status=$?
    exit "$status"
    ;;
  *)
    echo "usage: scripts/node24.sh prepare | run CMD [ARGS…]" >&2
    exit 2
    ;;
esac
