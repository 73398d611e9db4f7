#!/usr/bin/env node
// The `avp` command of the npm package: runs the prebuilt binary that npm installed with this machine's platform
// package (one optionalDependency per target; npm installs only the one whose os/cpu/libc match). No install
// script, no download at run time: what runs is exactly what the registry served and npm verified.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

const SCOPE = '@avp-cli';
const os = { win32: 'windows', darwin: 'darwin', linux: 'linux' }[process.platform];
const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
const exe = process.platform === 'win32' ? 'avp.exe' : 'avp';

/** The binary: AVP_BINARY when set (a local build), else the platform package's `bin/avp`. */
function binary() {
  if (process.env.AVP_BINARY) return process.env.AVP_BINARY;
  if (!os || !arch) fail(`there is no prebuilt avp for ${process.platform}-${process.arch}`, 'build it from source');
  const pkg = `${SCOPE}/avp-${os}-${arch}`;
  let dir;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    fail(
      `${pkg} is not installed (npm left out the optional dependency for this platform: --omit=optional, or a ` +
        'lockfile made on another OS)',
      `reinstall it here: npm install -g ${SCOPE}/avp (in a project: delete node_modules and the lockfile's ` +
        'entry, then npm install), or use install.sh',
    );
  }
  const bin = join(dir, 'bin', exe);
  if (!existsSync(bin)) fail(`${bin} is missing`, `reinstall it: npm install -g ${SCOPE}/avp`);
  return bin;
}

function fail(message, fix) {
  process.stderr.write(`avp: ${message}\nfix: ${fix}\n`);
  process.exit(1);
}

const child = spawn(binary(), process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
// Signals sent to this launcher alone (a hook timeout, `kill`) must reach avp, which then stops its judges.
const forward = (sig) => () => child.kill(sig);
const signals = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const sig of signals) process.on(sig, forward(sig));
child.on('error', (e) =>
  fail(`cannot run ${e.path || 'avp'}: ${e.message}`, `reinstall it: npm install -g ${SCOPE}/avp`),
);
child.on('exit', (code, signal) => {
  if (signal) {
    for (const sig of signals) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
