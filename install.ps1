# Installs avp: downloads the release binary for this machine, verifies its SHA-256 against the release's
# sha256sums.txt, checks that it runs and says the expected version, and only then puts it in ~\.avp\bin (and on the
# user's PATH). Nothing unverified is ever left where it could run. Windows PowerShell 5.1 and PowerShell 7
# (Windows, and Linux/macOS, where it installs the same binary install.sh would).
#
#   irm https://github.com/<owner>/avp/releases/latest/download/install.ps1 | iex
#   & ([scriptblock]::Create((irm https://github.com/<owner>/avp/releases/latest/download/install.ps1))) -Version 0.2.0
#
# Parameters win over the environment: -Version (AVP_VERSION), -Dir (AVP_INSTALL_DIR), -ReleaseUrl (AVP_RELEASE_URL:
# <url>/v<version>/<asset>; default: the Releases of the repository that published this copy), -Target (AVP_TARGET,
# e.g. windows-x64), -NoPathUpdate (AVP_NO_PATH_UPDATE=1, for `irm | iex`, which takes no parameters).
# ASCII only: Windows PowerShell 5.1 reads a file without a byte order mark in the system's code page.
param(
  [string]$Version = $env:AVP_VERSION,
  [string]$Dir = $env:AVP_INSTALL_DIR,
  [string]$ReleaseUrl = $env:AVP_RELEASE_URL,
  [string]$Target = $env:AVP_TARGET,
  [switch]$NoPathUpdate = ($env:AVP_NO_PATH_UPDATE -eq '1')
)

# The body runs in a child scope: under `irm | iex` this script runs in the user's own session, whose preferences
# ($ErrorActionPreference, $ProgressPreference) and variables must stay as they were.
& {
  $ErrorActionPreference = 'Stop'
  $ProgressPreference = 'SilentlyContinue' # Invoke-WebRequest's progress bar makes downloads many times slower

  # The release workflow stamps this line with the Releases URL of the repository it runs in
  # (scripts/release/stamp-installers.sh); the repository's own copy has none and asks for AVP_RELEASE_URL.
  $StampedReleaseUrl = ''

  # A throw, not `exit`: under `irm | iex`, exit would close the user's PowerShell window.
  function Fail([string]$Message) { throw "avp install: $Message" }

  # Windows PowerShell 5.1 (.NET Framework) may offer only TLS 1.0/1.1, which GitHub refuses.
  if ($PSVersionTable.PSEdition -ne 'Core') {
    $tls12 = [Net.SecurityProtocolType]::Tls12
    [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor $tls12
  }
  # $IsWindows exists only in PowerShell 6+; Windows PowerShell (Desktop) is Windows.
  $onWindows = ($PSVersionTable.PSEdition -ne 'Core') -or $IsWindows

  if (-not $ReleaseUrl) { $ReleaseUrl = $StampedReleaseUrl }
  if (-not $ReleaseUrl) {
    Fail ('this copy of install.ps1 names no release URL (only the copies attached to a release do): set ' +
      'AVP_RELEASE_URL to the folder holding v<version>/, e.g. https://github.com/<owner>/avp/releases/download')
  }
  $base = $ReleaseUrl.Trim().TrimEnd('/')
  # Downloads go over https only; plain http only to this machine (tests, a local mirror).
  if ($base -notmatch '^https://' -and $base -notmatch '^http://(127\.0\.0\.1|localhost|\[::1\])([:/]|$)') {
    Fail "the release URL must be https:// (got $base): a binary fetched over plain http cannot be trusted"
  }
  # GitHub keeps the newest release's files at releases/latest/download; a mirror at <base>/latest.
  $latest = "$base/latest"
  if ($base -match '/releases/download$') { $latest = ($base -replace '/download$', '') + '/latest/download' }

  if ($Target) {
    if ($Target -notmatch '^(windows|linux|darwin)-(x64|arm64)(-baseline)?$') {
      Fail "unknown target $Target (windows-x64, linux-x64, linux-arm64, darwin-x64, darwin-arm64)"
    }
  } else {
    # A 32-bit PowerShell on 64-bit Windows says x86 in PROCESSOR_ARCHITECTURE and the machine's CPU in ...W6432.
    $arch = $env:PROCESSOR_ARCHITEW6432
    if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
    if (-not $arch -and -not $onWindows) { $arch = "$(uname -m)".Trim() }
    if (-not $arch) { $arch = 'unknown' }
    $cpu = switch -Regex ($arch) {
      '^(AMD64|x86_64|x64)$' { 'x64'; break }
      '^(ARM64|aarch64)$' { 'arm64'; break }
      default { Fail "no avp release for this CPU ($arch); build avp from source (bun run build.ts)" }
    }
    if ($onWindows) {
      # Windows on Arm runs x64 binaries under emulation; there is no native arm64 avp for Windows yet.
      $Target = 'windows-x64'
    } elseif ($IsMacOS) {
      # A PowerShell under Rosetta on Apple silicon says x86_64: take the native binary.
      if ($cpu -eq 'x64' -and "$(sysctl -n sysctl.proc_translated 2>$null)".Trim() -eq '1') { $cpu = 'arm64' }
      $Target = "darwin-$cpu"
    } else {
      $Target = "linux-$cpu"
    }
  }
  $exe = if ($Target -like 'windows-*') { '.exe' } else { '' }
  $asset = "avp-$Target$exe"
  if (-not $Dir) {
    $avpHome = if ($env:AVP_HOME) { $env:AVP_HOME } else { Join-Path $HOME '.avp' }
    $Dir = Join-Path $avpHome 'bin'
  }

  function Fetch([string]$Url, [string]$OutFile) {
    try {
      Invoke-WebRequest -Uri $Url -OutFile $OutFile -UseBasicParsing -MaximumRedirection 10 -TimeoutSec 600
    } catch {
      Fail "could not download ${Url}: $($_.Exception.Message)"
    }
  }

  # What `<bin> version` prints, or '' when it does not run. Windows PowerShell turns a native program's stderr into
  # errors that 'Stop' would throw, so this scope continues and the exit code decides.
  function Get-SaysVersion([string]$Bin) {
    $ErrorActionPreference = 'Continue'
    try {
      $out = (& $Bin version 2>$null | Out-String).Trim()
      if ($LASTEXITCODE -ne 0) { return '' }
      return $out
    } catch {
      return ''
    }
  }

  $tmp = Join-Path ([System.IO.Path]::GetTempPath()) ('avp-install-' + [System.Guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $tmp | Out-Null
  $staged = $null
  try {
    if (-not $Version -or $Version -eq 'latest') {
      Fetch "$latest/version.txt" (Join-Path $tmp 'version.txt')
      $Version = "$(Get-Content -Raw -LiteralPath (Join-Path $tmp 'version.txt'))".Trim()
    }
    $Version = $Version -replace '^v', ''
    if ($Version -notmatch '^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$') {
      Fail "`"$Version`" is not a release version (x.y.z)"
    }

    $url = "$base/v$Version"
    $sums = Join-Path $tmp 'sha256sums.txt'
    $download = Join-Path $tmp $asset
    Fetch "$url/sha256sums.txt" $sums
    Fetch "$url/$asset" $download

    $expected = $null
    foreach ($line in Get-Content -LiteralPath $sums) {
      if ($line -match '^([0-9a-fA-F]{64}) [ *](.+)$' -and $Matches[2].Trim() -ceq $asset) {
        $expected = $Matches[1].ToLower()
        break
      }
    }
    if (-not $expected) { Fail "sha256sums.txt of v$Version lists no checksum for $asset" }
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $download).Hash.ToLower()
    if ($actual -ne $expected) {
      Fail ("checksum mismatch for $asset v${Version}: the release lists $expected, the download is $actual; " +
        'nothing was installed')
    }

    if (-not $onWindows) { & chmod 755 $download }
    $says = Get-SaysVersion $download
    if ($says -ne $Version) {
      Fail ("the downloaded avp says `"$says`", not version $Version (does it run on this machine?); " +
        'nothing was installed')
    }

    try {
      New-Item -ItemType Directory -Force -Path $Dir | Out-Null
      # Absolute: .NET calls resolve relative paths against the process's folder, not PowerShell's location.
      $Dir = (Resolve-Path -LiteralPath $Dir).ProviderPath
    } catch {
      Fail "cannot create $Dir (choose another with -Dir): $($_.Exception.Message)"
    }
    $name = "avp$exe"
    $final = Join-Path $Dir $name
    # Staged in the target folder, then moved: one file system, so the old binary is replaced in one step.
    $staged = Join-Path $Dir ".avp-install-$PID$exe"
    try {
      Copy-Item -LiteralPath $download -Destination $staged -Force
    } catch {
      Fail "cannot write to $Dir (choose another with -Dir, or fix its permissions): $($_.Exception.Message)"
    }
    if (-not $onWindows) {
      & chmod 755 $staged
      [System.IO.File]::Move($staged, $final, $true) # rename(2): atomic
    } elseif (Test-Path -LiteralPath $final) {
      # A running avp.exe cannot be overwritten, but it can be renamed away.
      $old = Join-Path $Dir 'avp.old.exe'
      Remove-Item -Force -ErrorAction SilentlyContinue -LiteralPath $old
      Move-Item -Force -LiteralPath $final -Destination $old
      try {
        Move-Item -Force -LiteralPath $staged -Destination $final
      } catch {
        Move-Item -Force -LiteralPath $old -Destination $final
        throw
      }
    } else {
      Move-Item -Force -LiteralPath $staged -Destination $final
    }
    $staged = $null
    Write-Host "avp $Version ($asset, sha256 $actual) installed as $final"

    $sep = [System.IO.Path]::PathSeparator
    $pathEntries = @($env:PATH -split [regex]::Escape($sep) | ForEach-Object { $_.TrimEnd('\', '/') })
    $onPath = $pathEntries -contains $Dir.TrimEnd('\', '/')
    if ($onWindows -and -not $NoPathUpdate) {
      # The user's Path is read and written as stored (REG_EXPAND_SZ, %VARS% kept): [Environment]'s setter would
      # expand every %VAR% in it for good.
      $key = Get-Item -LiteralPath 'HKCU:\Environment'
      $userPath = [string]$key.GetValue('Path', '', 'DoNotExpandEnvironmentNames')
      $entries = @($userPath -split ';' | Where-Object { $_ } | ForEach-Object { $_.TrimEnd('\') })
      if ($entries -notcontains $Dir.TrimEnd('\')) {
        $value = if ($userPath.Trim(';')) { $userPath.TrimEnd(';') + ';' + $Dir } else { $Dir }
        Set-ItemProperty -LiteralPath 'HKCU:\Environment' -Name Path -Value $value -Type ExpandString
        # Setting (then removing) a user variable through .NET tells running programs the environment changed.
        [Environment]::SetEnvironmentVariable('AVP_INSTALL_PATH_CHANGED', '1', 'User')
        [Environment]::SetEnvironmentVariable('AVP_INSTALL_PATH_CHANGED', $null, 'User')
        Write-Host "added $Dir to your user Path (new terminals see it)"
      }
      if (-not $onPath) { $env:PATH = "$env:PATH$sep$Dir" }
      Write-Host 'next: cd your-project; avp init'
    } elseif ($onPath) {
      Write-Host 'next: cd your-project; avp init'
    } else {
      Write-Host "$Dir is not on your PATH; add it, or run $final directly"
      Write-Host "next: cd your-project; & '$final' init"
    }
  } finally {
    if ($staged -and (Test-Path -LiteralPath $staged)) { Remove-Item -Force -LiteralPath $staged }
    Remove-Item -Recurse -Force -ErrorAction SilentlyContinue -LiteralPath $tmp
  }
}
