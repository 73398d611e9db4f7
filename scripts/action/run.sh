#!/usr/bin/env bash
# The GitHub Action's check step: runs `avp check` on the pull request's change (the merge base of base and head →
# head, the change the agent made on the branch), with workflow annotations in the log, SARIF for code scanning and
# the text report in the job summary, all from one run. A shallow checkout is deepened until the merge base is there.
# The rules (config, validators, lockfile) are the merge base's, so the pull request cannot switch its own check off;
# AVP_ARGS='--rules head' opts into the pull request's own rules.
#
# Inputs (environment): AVP_BASE (a ref or sha: the pull request's base branch, or the commit before a push),
# AVP_HEAD (default HEAD), AVP_SARIF (the SARIF file to write), AVP_ARGS (more `avp check` arguments, split on
# spaces), AVP_BIN (default: avp on PATH), AVP_WORKING_DIRECTORY (the project, default .), AVP_FALLBACK_BASE (the
# default branch, used when AVP_BASE is the all-zero sha of a branch's first push).
# Outputs: outcome (PASSED, WARNED or ERROR), sarif (the file), exit-code. Exits 0 whenever avp produced a verdict,
# so the SARIF is uploaded before the action fails on ERROR; exits non-zero when avp could not check at all.
set -uo pipefail

fail() {
  echo "::error title=avp check::$1" >&2
  exit 1
}
out() { [ -n "${GITHUB_OUTPUT:-}" ] && echo "$1=$2" >>"$GITHUB_OUTPUT"; return 0; }

avp="${AVP_BIN:-avp}"
cd "${AVP_WORKING_DIRECTORY:-.}" || fail "no folder ${AVP_WORKING_DIRECTORY:-}"
base="${AVP_BASE:-}"
# The first push of a branch has no "before" (forty zeros): compare with the default branch instead.
[[ "$base" =~ ^0+$ ]] && base="${AVP_FALLBACK_BASE:-}"
head="${AVP_HEAD:-HEAD}"
[ -n "$base" ] || fail "no base to compare with: set the base input (the pull request's base branch is the default)"
sarif="${AVP_SARIF:-${RUNNER_TEMP:-/tmp}/avp.sarif}"
text="${RUNNER_TEMP:-/tmp}/avp-report.txt"
rm -f "$sarif" "$text"

# The base as a commit this clone has: a branch name is looked for on origin (actions/checkout fetches only the head).
resolve_base() {
  for cand in "$base" "origin/$base" "refs/remotes/origin/$base"; do
    if git rev-parse --verify -q "$cand^{commit}" >/dev/null; then
      echo "$cand"
      return 0
    fi
  done
  return 1
}
if ! ref="$(resolve_base)"; then
  git fetch --no-tags --quiet origin "+refs/heads/$base:refs/remotes/origin/$base" 2>/dev/null ||
    git fetch --no-tags --quiet origin "$base" 2>/dev/null || true
  ref="$(resolve_base)" || fail "the base $base is neither a commit here nor a branch on origin"
fi
# A shallow clone may not reach the merge base yet: deepen step by step, then fetch everything.
for depth in 50 200 1000; do
  git merge-base "$ref" "$head" >/dev/null 2>&1 && break
  [ "$(git rev-parse --is-shallow-repository)" = true ] || break
  git fetch --no-tags --quiet --deepen="$depth" origin 2>/dev/null || true
  git fetch --no-tags --quiet --deepen="$depth" origin "+refs/heads/$base:refs/remotes/origin/$base" 2>/dev/null || true
done
if ! git merge-base "$ref" "$head" >/dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  git fetch --no-tags --quiet --unshallow origin 2>/dev/null || true
fi
git merge-base "$ref" "$head" >/dev/null 2>&1 ||
  fail "$base and $head have no common commit here; check out with fetch-depth: 0"

# shellcheck disable=SC2086 # AVP_ARGS is a list of words on purpose
"$avp" check --diff "$ref...$head" --format "github,sarif=$sarif,text=$text" ${AVP_ARGS:-}
code=$?
out exit-code "$code"
[ -f "$sarif" ] || fail "avp check could not check the change (exit $code); see the error above"
outcome="$(grep -o '"outcome": *"[A-Z]*"' "$sarif" | head -n 1 | sed 's/.*"\([A-Z]*\)"$/\1/')"
case "$outcome" in PASSED | WARNED | ERROR) ;; *) fail "avp check wrote no outcome (exit $code)" ;; esac
out outcome "$outcome"
out sarif "$sarif"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$text" ]; then
  {
    echo "### avp check: $outcome"
    echo
    echo '```text'
    cat "$text"
    echo '```'
  } >>"$GITHUB_STEP_SUMMARY"
fi
exit 0
