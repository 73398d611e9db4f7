#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, builds dist/avp, runs `bun test`, and ends
# with the plain line "N passed, N failed, N skipped" that CI reads, after one line per known bug (a passing
# `test.failing`, see test/support/known-bug.ts). Extra arguments go to `bun test` (a path filter, -t …).
# bunfig.toml keeps the phase fixtures' own toy tests (test/fixtures/) out of `bun test`.
set -uo pipefail
cd "$(dirname "$0")/.."

[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund
BUN=node_modules/.bin/bun

# The real agent CLIs the end-to-end tests drive: their own lockfile, installed into a cache inside the clone.
bash scripts/agent-clis.sh || echo "the agent CLIs could not be installed: their end-to-end tests will fail and say so" >&2

# The registry's PostgreSQL tests start their own server from the distribution's packages.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing postgresql from the distribution's packages…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || echo "postgresql install failed: its tests will say so" >&2
fi

# The browser tests drive Chromium from the distribution's packages (playwright-core downloads no browser).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing chromium from the distribution's packages…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "chromium install failed: the browser tests will say so" >&2
fi

# One test counts the hook's file-system calls with strace (it skips, saying so, where strace cannot run).
if ! command -v strace >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing strace from the distribution's packages…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace >/dev/null) || echo "strace install failed: its test will skip" >&2
fi

"$BUN" run build.ts || { echo "build failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

# Formatting and lint are part of the suite: each tool that finds a problem counts as one failed check.
style_failed=0
node_modules/.bin/prettier --check . --log-level warn || { echo "prettier: run 'npm run format' to fix the files above"; style_failed=$((style_failed + 1)); }
node_modules/.bin/eslint . || { echo "eslint: fix the problems above (lines are at most 120 columns)"; style_failed=$((style_failed + 1)); }

# Test files run in parallel worker processes, slowest first (test/timings.json holds each file's last measured
# time): most of the suite waits on child processes — the binary, the agent CLIs, servers — so a worker more than
# the cores keeps them busy. AVP_TEST_WORKERS overrides the count (1 runs the files one after another).
workers=${AVP_TEST_WORKERS:-$(( $(nproc 2>/dev/null || echo 2) + 1 ))}
[ "$workers" -gt 4 ] && [ -z "${AVP_TEST_WORKERS:-}" ] && workers=4
log=$(mktemp)
# The run's temporary folders go in one folder removed at the end: a parallel worker is stopped without running the
# exit handlers that remove each test's folders. World-readable, as the managed tests' ordinary user must reach theirs.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/avp-suite-XXXXXX")
chmod 755 "$run_tmp"
TMPDIR="$run_tmp" "$BUN" test --timeout 120000 --parallel="$workers" --timings=test/timings.json "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
rm -rf "$run_tmp"
passed=$(grep -E '^ *[0-9]+ pass$' "$log" | tail -1 | grep -oE '[0-9]+')
failed=$(grep -E '^ *[0-9]+ fail$' "$log" | tail -1 | grep -oE '[0-9]+')
skipped=$(grep -E '^ *[0-9]+ skip$' "$log" | tail -1 | grep -oE '[0-9]+')
todo=$(grep -E '^ *[0-9]+ todo$' "$log" | tail -1 | grep -oE '[0-9]+')
grep -E '^\(pass\) .*\[known bug: test\.failing\]' "$log" | sed -E 's/^\(pass\) /known bug (test.failing, still there): /; s/ \[[0-9.]+m?s\]$//'
rm -f "$log"
failed=$(( ${failed:-0} + style_failed ))
echo "${passed:-0} passed, ${failed} failed, $(( ${skipped:-0} + ${todo:-0} )) skipped"
if [ -z "$passed" ] || [ "$passed" = 0 ]; then exit 1; fi
if [ "$style_failed" != 0 ]; then exit 1; fi
exit "$rc"
