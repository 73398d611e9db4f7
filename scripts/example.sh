#!/usr/bin/env bash
# The README's main job, offline: the catalog's `no-secrets` validator is installed from the binary into
# examples/demo-project, a real captured Claude Code event (the agent writes a hardcoded API key) goes through
# `avp hook`, the validator's script judge finds the key, and avp answers with a block.
# Then the captured fix (an Edit) passes. Works from a fresh clone after `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=node_modules/.bin/bun
# AVP_BIN runs the demo with another build of avp.
AVP="${AVP_BIN:-$PWD/dist/avp}"
[ -n "${AVP_BIN:-}" ] || [ -x dist/avp ] || "$BUN" run build.ts

work=$(mktemp -d "${TMPDIR:-/tmp}/avp-example-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -R examples/demo-project/. "$work/"
for e in write-secret edit-fix; do sed "s#/home/dev/project#$work#g; s#/home/dev#$work/home#g" "examples/demo-project/events/$e.json" > "$work/$e.json"; done
# A throwaway avp home: the demo must not see (or touch) your own ~/.avp validators.
export AVP_HOME="$work/.avp-home" CLAUDE_PROJECT_DIR="$work"
echo "\$ avp add no-secrets --project --offline   # from the catalog embedded in avp: no network"
(cd "$work" && "$AVP" add no-secrets --project --offline)
echo
pretty() { "$BUN" -e 'const t = await Bun.stdin.text(); try { console.log(JSON.stringify(JSON.parse(t), null, 2)) } catch { process.stdout.write(t) }'; }

echo "\$ avp hook < write-secret.json    # Claude Code: PostToolUse, Write src/config.ts"
set +e
(cd "$work" && "$AVP" hook < write-secret.json) > "$work/out.json"
code=$?
set -e
pretty < "$work/out.json"
echo "exit code: $code"
echo
echo "The reason Claude Code hands to the model:"
"$BUN" -e 'console.log((await Bun.file(process.argv[1]).json()).reason)' "$work/out.json" | sed 's/^/  | /'
echo
echo "\$ avp hook < edit-fix.json        # the agent replaces the key with process.env.API_KEY"
(cd "$work" && "$AVP" hook < edit-fix.json) | pretty
grep -q '"decision":"block"' "$work/out.json" || { echo "example FAILED: the hardcoded key was not blocked" >&2; exit 1; }
