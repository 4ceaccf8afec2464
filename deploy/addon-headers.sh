#!/bin/sh
# Installs the Node.js headers that native addons for Node.js 24 are compiled against into the
# directory given, and prints it: give it to node-gyp as --nodedir (npm_config_nodedir).
#
# Why not the runtime's own headers: from 24.19, Node's headers give node::ObjectWrap environment
# cleanup hooks, and an addon built on ObjectWrap (better-sqlite3 12, the database driver of the
# embedded SQLite) compiled against them aborts the whole process when the garbage collector
# finalizes one of its statements outside a JavaScript context ("Assertion failed: (env) != nullptr",
# nodejs/node#65446). Compiled against the headers of 24.18.1, the last release without those hooks,
# the same addon (one ABI for every 24.x) runs on every 24.x runtime.
# The headers come from the npm registry's `node` package: nothing outside the registry is reached.
set -eu
dir=${1:?usage: addon-headers.sh <directory>}
version=24.18.1
if [ ! -f "$dir/include/node/node_version.h" ]; then
  scratch=$(mktemp -d)
  npm install --prefix "$scratch" --no-audit --no-fund --loglevel=error "node@$version" >&2
  headers=$(find "$scratch/node_modules" -path '*/include/node' -type d | head -n 1)
  mkdir -p "$dir"
  cp -R "$(dirname "$headers")" "$dir/"
  rm -rf "$scratch"
fi
grep -q "define NODE_PATCH_VERSION ${version##*.}\$" "$dir/include/node/node_version.h" || {
  echo "addon-headers.sh: $dir holds other headers than Node $version; remove it and run again" >&2
  exit 1
}
echo "$dir"
