#!/usr/bin/env bash
# `npm run setup`: from a clone to `avp` on PATH in one command. Installs the clone's dependencies (Bun comes with
# them), builds dist/avp for this machine, and links it onto PATH with `npm install -g .` (a link to this clone, so
# a later `git pull && npm run build` updates the avp on PATH). Where npm's global folder is not writable it installs
# under ~/.local instead and says how to put ~/.local/bin on PATH. Nothing else in $HOME is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x node_modules/.bin/bun ]; then
  echo "setup: installing the clone's dependencies (npm ci)…" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "setup: building dist/avp…" >&2
node_modules/.bin/bun run build.ts >&2

prefix=$(npm config get prefix)
if [ -w "$prefix" ] || { [ ! -e "$prefix" ] && [ -w "$(dirname "$prefix")" ]; }; then
  npm install -g --no-audit --no-fund --loglevel=error . >&2
  bin="$prefix/bin"
else
  echo "setup: $prefix is not writable; installing under ~/.local instead" >&2
  npm install -g --prefix "$HOME/.local" --no-audit --no-fund --loglevel=error . >&2
  bin="$HOME/.local/bin"
fi

if [ "$(command -v avp || true)" = "$bin/avp" ]; then
  echo "setup: done — $("$bin/avp" --version) is on PATH ($bin/avp → $(pwd)/dist/avp)" >&2
else
  echo "setup: installed $bin/avp, but that folder is not first on PATH. Add it:" >&2
  echo "  export PATH=\"$bin:\$PATH\"" >&2
fi
