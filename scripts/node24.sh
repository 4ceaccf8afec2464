#!/usr/bin/env bash
# Node.js 24 LTS, the production runtime (deploy/Dockerfile's image), for what must run as deployed:
# the test suite (.ci/run) and the server bench (`npm run bench:server`).
#
#   scripts/node24.sh prepare          fetch Node 24 and compile better-sqlite3 for it (both cached)
#   scripts/node24.sh run CMD [ARGS…]  prepare, then run CMD from the repository's root with Node 24
#                                      first on PATH and its better-sqlite3 build in node_modules; the
#                                      machine's build is put back when CMD ends (do not run the
#                                      machine's Node on this checkout meanwhile; runs at once, or one
#                                      killed, keep the machine's build saved by the first)
#   scripts/node24.sh check-addon FILE whether FILE is an addon built for Node 24 (NODE_MODULE_VERSION
#                                      137): says what it was built for and exits 1 when it is not
#   scripts/node24.sh cached-addon     the cached better-sqlite3 build for Node 24, when there is one
#                                      and it is one; a cached file built for another Node is removed
#
# The npm registry's `node` package brings the official binary (into .tmp/). Native modules are built
# for one Node at a time: better-sqlite3 (the only one) is compiled for Node 24 from its npm tarball,
# against the headers deploy/addon-headers.sh gives (those of 24.18.1: an addon compiled against
# 24.19+ aborts under the garbage collector), and cached outside the checkout by its version and
# theirs. A build is cached, and a cached one used, only when its module version is Node 24's: an
# addon for another Node fails to load there ("compiled against a different Node.js version"). A
# compile keeps one core busy for about a minute; .ci/run prepares while `npm ci` installs.
set -euo pipefail
caller_dir=$PWD
cd "$(dirname "$0")/.."

NODE24=24.21.0
# Node 24's NODE_MODULE_VERSION (process.versions.modules), the same for every 24.x.
NODE24_MODULES=137
tools=.tmp/node-$NODE24
sqlite_version=$(node -p 'require("./package-lock.json").packages["node_modules/better-sqlite3"].version')
cache="${XDG_CACHE_HOME:-$HOME/.cache}/edupass-ci"
headers_version=$(sed -n 's/^version=//p' deploy/addon-headers.sh)
addon24="$cache/better-sqlite3-$sqlite_version-node-24-headers-$headers_version.node"

node24_dir() {
  readlink -f "$(dirname "$(find "$tools/node_modules" -path '*/node-linux-*/bin/node' | head -n 1)")/.."
}

# The NODE_MODULE_VERSION an addon was compiled for, read from the registration function its build
# exports (node_register_module_v<N>, NODE_MODULE_INIT's name) without loading it; nothing printed for
# a file that names none or several.
module_version() {
  node -e '
    const text = require("node:fs").readFileSync(process.argv[1]).toString("latin1");
    const versions = new Set(Array.from(text.matchAll(/node_register_module_v(\d+)/g), (m) => m[1]));
    if (versions.size === 1) console.log([...versions][0]);
  ' "$1"
}

check_addon() {
  local version
  [ -f "$1" ] || { echo "scripts/node24.sh: $1 does not exist" >&2; return 1; }
  version=$(module_version "$1")
  if [ "$version" = "$NODE24_MODULES" ]; then return 0; fi
  echo "scripts/node24.sh: $1 is built for NODE_MODULE_VERSION ${version:-unknown (no node_register_module_v<N> in it)}, not Node 24's $NODE24_MODULES" >&2
  return 1
}

# Succeeds when the cache holds a Node 24 build; removes one built for another Node (a compile that
# took the machine's headers), so that it is compiled again rather than copied in.
cached_addon() {
  [ -f "$addon24" ] || return 1
  check_addon "$addon24" && return 0
  echo "scripts/node24.sh: removing $addon24 from the cache" >&2
  rm -f "$addon24"
  return 1
}

# Runs its arguments without the npm_config_* variables npm hands the scripts it runs (`npm run
# bench:server` passes the machine's npmrc, nodedir=/usr among them): node-gyp takes them over its own
# arguments, and would compile against the machine's Node headers whatever --nodedir says.
without_npm_config() {
  (
    for name in $(compgen -e); do
      case "${name,,}" in npm_config_*) unset "$name" ;; esac
    done
    "$@"
  )
}

prepare() {
  if [ ! -x "$tools/node_modules/.bin/node" ]; then
    echo "== node@$NODE24 from the npm registry"
    npm i --prefix "$tools" --no-audit --no-fund --loglevel=error "node@$NODE24"
  fi
  cached_addon && return
  echo "== better-sqlite3 $sqlite_version for Node $NODE24, compiling"
  local node24 scratch gyp headers built
  node24=$(node24_dir)
  scratch=$(mktemp -d)
  (cd "$scratch" && npm pack --silent "better-sqlite3@$sqlite_version" >/dev/null && tar xzf better-sqlite3-*.tgz)
  gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
  headers=$(sh deploy/addon-headers.sh "$cache/node-headers")
  (cd "$scratch/package" && without_npm_config env PATH="$node24/bin:$PATH" "$node24/bin/node" "$gyp" rebuild \
    --release --jobs=max --nodedir="$headers" >"$scratch/build.log" 2>&1) || { cat "$scratch/build.log"; return 1; }
  built="$scratch/package/build/Release/better_sqlite3.node"
  check_addon "$built" || { echo "scripts/node24.sh: not cached; the compile's log: $scratch/build.log" >&2; return 1; }
  mkdir -p "$cache" && cp "$built" "$addon24.tmp" && mv "$addon24.tmp" "$addon24"
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
    mkdir -p .tmp
    # Node 24's build in place already: another run is under way in this checkout, or one was killed
    # before it put the machine's back. The machine's build saved then is kept, never overwritten by it.
    cmp -s "$addon" "$addon24" || cp "$addon" .tmp/better_sqlite3.machine.node
    if [ -f .tmp/better_sqlite3.machine.node ]; then
      trap 'cp .tmp/better_sqlite3.machine.node "$addon"' EXIT
    else
      trap 'echo "scripts/node24.sh: the machine'"'"'s better-sqlite3 build is unknown; npm rebuild better-sqlite3 makes it again" >&2' EXIT
    fi
    cp "$addon24" "$addon"
    echo "== $* on Node $NODE24"
    status=0
    PATH="$node24/bin:$PATH" "$@" || status=$?
    exit "$status"
    ;;
  check-addon)
    [ $# -eq 2 ] || { echo "usage: scripts/node24.sh check-addon FILE" >&2; exit 2; }
    file=$2
    case "$file" in /*) ;; *) file="$caller_dir/$file" ;; esac
    check_addon "$file"
    echo "$file: NODE_MODULE_VERSION $NODE24_MODULES (Node 24)"
    ;;
  cached-addon)
    cached_addon || { echo "scripts/node24.sh: no Node 24 build of better-sqlite3 at $addon24" >&2; exit 1; }
    echo "$addon24"
    ;;
  *)
    echo "usage: scripts/node24.sh prepare | run CMD [ARGS…] | check-addon FILE | cached-addon" >&2
    exit 2
    ;;
esac
