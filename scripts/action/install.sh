#!/usr/bin/env bash
# The GitHub Action's install step: downloads one pinned avp release binary, verifies its SHA-256 against the
# release's sha256sums.txt (and against AVP_SHA256 when the workflow pins the hash itself), and puts it on PATH.
# Nothing unverified is ever left where it could run: the binary is checked in a temporary file, then moved.
#
# Inputs (environment): AVP_VERSION (e.g. 0.1.0), AVP_RELEASE_URL (releases are <url>/v<version>/<asset>),
# AVP_SHA256 (optional), AVP_TARGET (optional: linux-x64, linux-arm64, darwin-x64, darwin-arm64, windows-x64),
# AVP_INSTALL_DIR (default $RUNNER_TEMP/avp-bin). Outputs: path=<binary> in $GITHUB_OUTPUT; the folder in $GITHUB_PATH.
set -euo pipefail

fail() {
  echo "::error title=avp install::$1" >&2
  exit 1
}

version="${AVP_VERSION:-}"
version="${version#v}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
  fail "version \"${AVP_VERSION:-}\" is not a release version (x.y.z); set the action's version input"
base="${AVP_RELEASE_URL:-}"
base="${base%/}"
[ -n "$base" ] || fail "no release URL; set the action's release-url input"
# Downloads go over https only; plain http only to this machine (tests, a local mirror).
case "$base" in
  https://*) ;;
  http://127.0.0.1[:/]* | http://localhost[:/]* | http://\[::1\][:/]*) ;;
  *) fail "release-url must be https:// (got ${base%%\?*}); a binary fetched over plain http cannot be trusted" ;;
esac

target="${AVP_TARGET:-}"
if [ -z "$target" ]; then
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) fail "no avp release for $(uname -s); set the target input" ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no avp release for $(uname -m); set the target input" ;;
  esac
  target="$os-$arch"
fi
asset="avp-$target"
[ "${target#windows}" != "$target" ] && asset="$asset.exe"

dir="${AVP_INSTALL_DIR:-${RUNNER_TEMP:-/tmp}/avp-bin}"
mkdir -p "$dir"
tmp="$(mktemp -d "${RUNNER_TEMP:-/tmp}/avp-download.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

fetch() {
  curl --fail --silent --show-error --location --retry 3 --max-time 300 --proto '=https,http' -o "$2" "$1" ||
    fail "could not download $1"
}
url="$base/v$version"
fetch "$url/sha256sums.txt" "$tmp/sha256sums.txt"
fetch "$url/$asset" "$tmp/$asset"

expected="$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1 }' "$tmp/sha256sums.txt" | head -n 1)"
[[ "$expected" =~ ^[0-9a-f]{64}$ ]] || fail "sha256sums.txt of v$version lists no checksum for $asset"
if command -v sha256sum >/dev/null 2>&1; then
  actual="$(sha256sum "$tmp/$asset" | awk '{ print $1 }')"
else
  actual="$(shasum -a 256 "$tmp/$asset" | awk '{ print $1 }')"
fi
[ "$actual" = "$expected" ] ||
  fail "checksum mismatch for $asset v$version: the release lists $expected, the download is $actual; nothing was installed"
if [ -n "${AVP_SHA256:-}" ]; then
  pinned="$(printf '%s' "$AVP_SHA256" | tr 'A-F' 'a-f')"
  [ "$actual" = "$pinned" ] ||
    fail "checksum mismatch for $asset v$version: the workflow pins $pinned, the download is $actual; nothing was installed"
fi

name=avp
[ "${asset%.exe}" != "$asset" ] && name=avp.exe
chmod 0755 "$tmp/$asset"
installed="$("$tmp/$asset" version 2>/dev/null || true)"
[ "$installed" = "$version" ] || fail "the downloaded avp says \"$installed\", not version $version; nothing was installed"
mv -f "$tmp/$asset" "$dir/$name"
echo "avp $version ($asset, sha256 $actual) installed in $dir"
[ -n "${GITHUB_PATH:-}" ] && echo "$dir" >>"$GITHUB_PATH"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "path=$dir/$name" >>"$GITHUB_OUTPUT"
exit 0
