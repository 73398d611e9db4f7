#!/usr/bin/env bash
# The real agent CLIs the end-to-end tests drive (Claude Code, Codex, Gemini CLI, Qwen Code, Droid, Copilot, OpenCode,
# Cline), installed from test/agent-clis/package-lock.json into test/agent-clis/node_modules — a cache inside the
# clone, filled when the tests run, never by the clone's own `npm ci` (which stays small). Their install scripts run
# with HOME inside the cache, so nothing lands in the user's home. Skipped when the lockfile is unchanged since the
# last install. Prints nothing on success but one line saying what it did.
set -uo pipefail
cd "$(dirname "$0")/../test/agent-clis"

stamp=node_modules/.avp-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x node_modules/.bin/claude ]; then
  echo "agent CLIs: up to date in test/agent-clis/node_modules" >&2
  exit 0
fi

# npm keeps its download cache where it always does; the CLIs' install scripts see a private HOME.
cache=$(npm config get cache)
home="$PWD/.home"
mkdir -p "$home"
echo "agent CLIs: installing into test/agent-clis/node_modules (the e2e tests drive them offline)…" >&2
if HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" \
  npm ci --no-audit --no-fund --loglevel=error --cache "$cache" >&2; then
  echo "$want" > "$stamp"
else
  echo "agent CLIs: npm ci failed — the end-to-end tests that drive them will fail and say which CLI is missing" >&2
  exit 1
fi
