# Installs avp on Windows: downloads the release binary for this machine, verifies its SHA-256 against the release's
# sha256sums.txt, checks that it runs and says the expected version, and only then puts it in ~\.avp\bin (and on the
# user's PATH). Nothing unverified is ever left where it could run.
#
#   irm https://github.com/OWNER/avp/releases/latest/download/install.ps1 | iex
#   & ([scriptblock]::Create((irm …/install.ps1))) -Version 0.2.0 -Dir C:\tools\avp
#
# Environment (parameters win): AVP_VERSION, AVP_INSTALL_DIR, AVP_RELEASE_URL (<url>/v<version>/<asset>), AVP_TARGET.
param(
  [string]$Version = $env:AVP_VERSION,
  [string]$Dir = $env:AVP_INSTALL_DIR,
  [string]$ReleaseUrl = $env:AVP_RELEASE_URL,
  [string]$Target = $env:AVP_TARGET,
  [switch]$NoPathUpdate
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue' # Invoke-WebRequest's progress bar makes downloads many times slower

# A throw, not `exit`: under `irm … | iex`, exit would close the user's PowerShell window.
function Fail([string]$Message) { throw "avp install: $Message" }

if (-not $ReleaseUrl) { $ReleaseUrl = 'https://github.com/OWNER/avp/releases/download' }
$base = $ReleaseUrl.TrimEnd('/')
# Downloads go over https only; plain http only to this machine (tests, a local mirror).
if ($base -notmatch '^https://' -and $base -notmatch '^http://(127\.0\.0\.1|localhost|\[::1\])([:/]|$)') {
  Fail "the release URL must be https:// (got $base): a binary fetched over plain http cannot be trusted"
}
$latest = if ($base -match '/releases/download$') { ($base -replace '/download$', '') + '/latest/download' } else { "$base/latest" }

if (-not $Target) {
  $arch = if ($env:PROCESSOR_ARCHITEW6432) { $env:PROCESSOR_ARCHITEW6432 } else { $env:PROCESSOR_ARCHITECTURE }
  switch ($arch) {
    'AMD64' { $Target = 'windows-x64' }
    # Windows on Arm runs x64 binaries under emulation; there is no native arm64 avp for Windows yet.
    'ARM64' { $Target = 'windows-x64' }
    default { Fail "no avp release for $arch; build it from source (bun run build.ts)" }
  }
}
$asset = "avp-$Target.exe"
if (-not $Dir) {
  $avpHome = if ($env:AVP_HOME) { $env:AVP_HOME } else { Join-Path $HOME '.avp' }
  $Dir = Join-Path $avpHome 'bin'
}

$tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("avp-install-" + [System.Guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $tmp | Out-Null
$staged = $null
try {
  function Fetch([string]$Url, [string]$OutFile) {
    try {
      Invoke-WebRequest -Uri $Url -OutFile $OutFile -UseBasicParsing -MaximumRedirection 10 -TimeoutSec 600
    } catch {
      Fail "could not download ${Url}: $($_.Exception.Message)"
    }
  }

  if (-not $Version -or $Version -eq 'latest') {
    Fetch "$latest/version.txt" (Join-Path $tmp 'version.txt')
    $Version = (Get-Content -Raw (Join-Path $tmp 'version.txt')).Trim()
  }
  $Version = $Version -replace '^v', ''
  if ($Version -notmatch '^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$') { Fail "`"$Version`" is not a release version (x.y.z)" }

  $url = "$base/v$Version"
  $sums = Join-Path $tmp 'sha256sums.txt'
  $download = Join-Path $tmp $asset
  Fetch "$url/sha256sums.txt" $sums
  Fetch "$url/$asset" $download

  $expected = $null
  foreach ($line in Get-Content $sums) {
    if ($line -match '^([0-9a-fA-F]{64}) [ *](.+)$' -and $Matches[2].Trim() -eq $asset) { $expected = $Matches[1].ToLower(); break }
  }
  if (-not $expected) { Fail "sha256sums.txt of v$Version lists no checksum for $asset" }
  $actual = (Get-FileHash -Algorithm SHA256 -Path $download).Hash.ToLower()
  if ($actual -ne $expected) {
    Fail "checksum mismatch for $asset v${Version}: the release lists $expected, the download is $actual; nothing was installed"
  }

  $says = (& $download version 2>$null | Out-String).Trim()
  if ($says -ne $Version) { Fail "the downloaded avp says `"$says`", not version $Version; nothing was installed" }

  New-Item -ItemType Directory -Force -Path $Dir | Out-Null
  $final = Join-Path $Dir 'avp.exe'
  # Staged in the target folder, then moved: a running avp.exe cannot be overwritten, but it can be renamed away.
  $staged = Join-Path $Dir ".avp-install-$PID.exe"
  Copy-Item -Path $download -Destination $staged -Force
  if (Test-Path $final) {
    $old = Join-Path $Dir 'avp.old.exe'
    Remove-Item -Force -ErrorAction SilentlyContinue $old
    Move-Item -Force $final $old
    try { Move-Item -Force $staged $final } catch { Move-Item -Force $old $final; throw }
  } else {
    Move-Item -Force $staged $final
  }
  $staged = $null
  Write-Host "avp $Version ($asset, sha256 $actual) installed as $final"

  $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  $onPath = ($userPath -split ';') -contains $Dir
  if (-not $onPath -and -not $NoPathUpdate) {
    [Environment]::SetEnvironmentVariable('Path', ($(if ($userPath) { "$userPath;" } else { '' }) + $Dir), 'User')
    $env:Path = "$env:Path;$Dir"
    Write-Host "added $Dir to your user PATH (new terminals see it)"
  } elseif (-not $onPath) {
    Write-Host "$Dir is not on your PATH; add it, or run $final directly"
  }
  Write-Host 'next: cd your-project; avp init'
} finally {
  if ($staged -and (Test-Path $staged)) { Remove-Item -Force $staged }
  Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $tmp
}
