#!/bin/sh
# Stamps the release URL into copies of install.sh and install.ps1, as the release workflow does before it uploads
# them: their default release URL is then the Releases of the repository that published them. The repository's own
# copies stay unstamped (they ask for AVP_RELEASE_URL), so no made-up URL ever ships.
#
#   scripts/release/stamp-installers.sh https://github.com/<owner>/avp/releases/download release/install.sh release/install.ps1
#
# Each file must hold its unstamped line exactly once (install.sh: `release_url=''`, install.ps1:
# `$StampedReleaseUrl = ''`); anything else (a second stamp, an edited installer) fails, leaving the file as it was.
set -eu

fail() {
  echo "stamp-installers: $1" >&2
  exit 1
}

[ $# -ge 2 ] || fail "usage: stamp-installers.sh <release-url> <install.sh|install.ps1>..."
url="$1"
shift
while :; do
  case "$url" in
    */) url="${url%/}" ;;
    *) break ;;
  esac
done
case "$url" in
  https://*) ;;
  http://127.0.0.1[:/]* | http://localhost[:/]*) ;; # tests: a loopback release server
  *) fail "the release URL must be https:// (got $url)" ;;
esac
# The URL lands inside single quotes in sh and PowerShell and in a sed replacement: only URL characters that mean
# nothing to any of them (no quote, backslash, &, | or whitespace; no user:password@ in a public installer).
printf '%s\n' "$url" | grep -Eq '^https?://[A-Za-z0-9._~:/%+-]+$' ||
  fail "the release URL holds characters an installer cannot quote safely: $url"

for file in "$@"; do
  case "$file" in
    *.sh) var="release_url=" ;;
    *.ps1) var="\$StampedReleaseUrl = " ;;
    *) fail "$file is neither install.sh nor install.ps1" ;;
  esac
  [ -f "$file" ] || fail "$file does not exist"
  # Leading and trailing blanks (indentation, a CR from a Windows checkout) are kept as they were.
  pattern="^\([[:space:]]*\)$(printf '%s' "$var" | sed 's/\$/\\$/g')''\([[:space:]]*\)\$"
  count="$(grep -c "$pattern" "$file" || true)"
  [ "$count" = 1 ] || fail "$file must hold the unstamped line ${var}'' exactly once (found $count): already stamped?"
  tmp="$file.stamp.$$"
  sed "s|$pattern|\\1${var}'$url'\\2|" "$file" >"$tmp" || {
    rm -f "$tmp"
    fail "could not stamp $file"
  }
  # cat, not mv: the file keeps its mode (install.sh stays executable).
  cat "$tmp" >"$file"
  rm -f "$tmp"
  grep -qF "${var}'$url'" "$file" || fail "$file was not stamped"
  echo "stamped $file: $url"
done
