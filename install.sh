#!/bin/sh
# Installs avp: detects the OS and architecture, downloads that release binary, verifies its SHA-256 against the
# release's sha256sums.txt, checks that it runs and says the expected version, and only then puts it in ~/.avp/bin.
# Nothing unverified is ever left where it could run.
#
#   curl -fsSL https://github.com/<owner>/avp/releases/latest/download/install.sh | sh
#   curl -fsSL https://github.com/<owner>/avp/releases/latest/download/install.sh | sh -s -- --version 0.2.0 --dir ~/bin
#
# Environment (flags win): AVP_VERSION (default: the newest release), AVP_INSTALL_DIR (default: $AVP_HOME/bin, else
# ~/.avp/bin), AVP_RELEASE_URL (where releases live: <url>/v<version>/<asset>; default: the Releases of the repository
# that published this copy), AVP_TARGET (linux-x64, linux-arm64, darwin-x64, darwin-arm64, windows-x64).
# POSIX sh on purpose: `| sh` is dash on Debian and Ubuntu.
set -eu

fail() {
  echo "avp install: $1" >&2
  exit 1
}

version="${AVP_VERSION:-}"
dir="${AVP_INSTALL_DIR:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || fail "--version needs a value"; version="$2"; shift 2 ;;
    --version=*) version="${1#*=}"; shift ;;
    --dir) [ $# -ge 2 ] || fail "--dir needs a value"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#*=}"; shift ;;
    -h | --help)
      sed -n '2,12p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//' || true
      exit 0 ;;
    *) fail "unknown argument $1 (use --version X.Y.Z, --dir DIR)" ;;
  esac
done
[ -n "$dir" ] || dir="${AVP_HOME:-${HOME:?HOME is not set}/.avp}/bin"

# The release workflow stamps this line with the Releases URL of the repository it runs in
# (scripts/release/stamp-installers.sh); the repository's own copy has none and asks for AVP_RELEASE_URL.
release_url=''
base="${AVP_RELEASE_URL:-$release_url}"
[ -n "$base" ] || fail "this copy of install.sh names no release URL (only the copies attached to a release do): \
set AVP_RELEASE_URL to the folder holding v<version>/, e.g. https://github.com/<owner>/avp/releases/download"
base="${base%/}"
# Downloads go over https only; plain http only to this machine (tests, a local mirror).
case "$base" in
  https://*) ;;
  http://127.0.0.1[:/]* | http://localhost[:/]* | http://\[::1\][:/]*) ;;
  *) fail "the release URL must be https:// (got ${base%%\?*}): a binary fetched over plain http cannot be trusted" ;;
esac
case "$base" in
  */releases/download) latest="${base%/download}/latest/download" ;;
  *) latest="$base/latest" ;;
esac

target="${AVP_TARGET:-}"
if [ -z "$target" ]; then
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) fail "no avp release for $(uname -s); build it from source (bun run build.ts)" ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no avp release for $(uname -m); build it from source (bun run build.ts)" ;;
  esac
  # A shell under Rosetta reports x86_64 on Apple silicon: take the native binary.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  target="$os-$arch"
fi
asset="avp-$target"
name=avp
case "$target" in windows-*) asset="$asset.exe"; name=avp.exe ;; esac

tmp="$(mktemp -d "${TMPDIR:-/tmp}/avp-install.XXXXXX")"
staged=""
cleanup() {
  rm -rf "$tmp"
  [ -z "$staged" ] || rm -f "$staged"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl --fail --silent --show-error --location --retry 3 --max-time 600 --proto '=https,http' -o "$2" "$1" ||
      fail "could not download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -T 600 -O "$2" "$1" || fail "could not download $1"
  else
    fail "neither curl nor wget is installed; install one of them and run this again"
  fi
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{ print $1 }'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{ print $1 }'
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | awk '{ print $1 }'
  else
    fail "no sha256 tool (sha256sum, shasum or openssl): cannot verify the download, so nothing was installed"
  fi
}

if [ -z "$version" ] || [ "$version" = latest ]; then
  fetch "$latest/version.txt" "$tmp/version.txt"
  version="$(tr -d ' \r\n' <"$tmp/version.txt")"
fi
version="${version#v}"
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$' ||
  fail "\"$version\" is not a release version (x.y.z)"

url="$base/v$version"
fetch "$url/sha256sums.txt" "$tmp/sha256sums.txt"
fetch "$url/$asset" "$tmp/$asset"
expected="$(awk -v a="$asset" '$2 == a || $2 == "*" a { print tolower($1) }' "$tmp/sha256sums.txt" | head -n 1)"
echo "$expected" | grep -Eq '^[0-9a-f]{64}$' || fail "sha256sums.txt of v$version lists no checksum for $asset"
actual="$(sha256 "$tmp/$asset")"
[ "$actual" = "$expected" ] ||
  fail "checksum mismatch for $asset v$version: the release lists $expected, the download is $actual; nothing was installed"

chmod 0755 "$tmp/$asset"
says="$("$tmp/$asset" version 2>/dev/null || true)"
[ "$says" = "$version" ] ||
  fail "the downloaded avp says \"$says\", not version $version (does it run on this machine?); nothing was installed"

mkdir -p "$dir" || fail "cannot create $dir (choose another with --dir)"
# Staged in the target folder, then renamed: one file system, so the old binary is replaced atomically.
staged="$dir/.avp-install.$$"
cp "$tmp/$asset" "$staged" 2>/dev/null || fail "cannot write to $dir (choose another with --dir, or fix its permissions)"
chmod 0755 "$staged"
mv -f "$staged" "$dir/$name" || fail "cannot replace $dir/$name"
staged=""
echo "avp $version ($asset, sha256 $actual) installed as $dir/$name"

case ":${PATH:-}:" in
  *":$dir:"*) echo "next: cd your-project && avp init" ;;
  *)
    echo "$dir is not on your PATH. Add it (then open a new terminal):"
    case "${SHELL:-}" in
      */fish) echo "  fish_add_path $dir" ;;
      */zsh) echo "  echo 'export PATH=\"$dir:\$PATH\"' >> ~/.zshrc" ;;
      *) echo "  echo 'export PATH=\"$dir:\$PATH\"' >> ~/.bashrc" ;;
    esac
    echo "next: cd your-project && $dir/$name init" ;;
esac
