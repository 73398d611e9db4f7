/**
 * Builds the npm packages from `dist/` (after `bun run build.ts --all`): one platform package per release binary and
 * the launcher `npm/avp/` listing them all as optionalDependencies, each packed with `npm pack` into `dist/npm/`.
 *
 *   bun scripts/pack-npm.ts                  → every dist/avp-<target>[.exe] found (the release)
 *   bun scripts/pack-npm.ts --host           → this machine's dist/avp as its platform package (tests)
 *   bun scripts/pack-npm.ts --out DIR        → somewhere else than dist/npm
 *
 * Prints the tarballs' paths (one a line) on stdout.
 */
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '..');
export const NPM_SCOPE = '@avp-cli';

/** A release target as npm sees it: the release asset it comes from, and the `os`/`cpu`/`libc` npm checks. */
export interface NpmTarget {
  /** `linux-x64`: the package is `@avp-cli/avp-linux-x64`, the asset `dist/avp-linux-x64`. */
  id: string;
  os: string;
  cpu: string;
  libc?: string;
  exe: boolean;
}

/** Every target the launcher knows (the baseline builds stay release assets: npm cannot choose by CPU features). */
export const NPM_TARGETS: NpmTarget[] = [
  { id: 'linux-x64', os: 'linux', cpu: 'x64', libc: 'glibc', exe: false },
  { id: 'linux-arm64', os: 'linux', cpu: 'arm64', libc: 'glibc', exe: false },
  { id: 'darwin-x64', os: 'darwin', cpu: 'x64', exe: false },
  { id: 'darwin-arm64', os: 'darwin', cpu: 'arm64', exe: false },
  { id: 'windows-x64', os: 'win32', cpu: 'x64', exe: true },
];

export const packageName = (t: NpmTarget) => `${NPM_SCOPE}/avp-${t.id}`;

/** This machine's target. */
export function hostTarget(): NpmTarget {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const t = NPM_TARGETS.find((x) => x.id === `${os}-${process.arch}`);
  if (!t) throw new Error(`no npm package for ${process.platform}-${process.arch}`);
  return t;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** `npm pack` of `dir` into `out`; returns the tarball's path. */
function npmPack(dir: string, out: string): string {
  const run = Bun.spawnSync(['npm', 'pack', '--json', '--pack-destination', out], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (run.exitCode !== 0) throw new Error(`npm pack failed in ${dir}: ${run.stderr.toString()}`);
  const [info] = JSON.parse(run.stdout.toString()) as Array<{ filename: string }>;
  return join(out, info!.filename);
}

/** Writes and packs the packages; returns the tarballs (platform packages first, then the launcher). */
export function packNpm(opts: { host?: boolean; out?: string; dist?: string } = {}): string[] {
  const dist = opts.dist ?? join(ROOT, 'dist');
  const out = resolve(opts.out ?? join(dist, 'npm'));
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  rmSync(join(out, 'packages'), { recursive: true, force: true });
  mkdirSync(join(out, 'packages'), { recursive: true });
  const built: Array<{ target: NpmTarget; binary: string }> = [];
  if (opts.host) built.push({ target: hostTarget(), binary: join(dist, 'avp') });
  else {
    for (const t of NPM_TARGETS) {
      const binary = join(dist, `avp-${t.id}${t.exe ? '.exe' : ''}`);
      if (existsSync(binary)) built.push({ target: t, binary });
    }
  }
  if (!built.length) throw new Error(`no binary in ${dist}: run bun run build.ts --all (or --host after build.ts)`);
  const tarballs: string[] = [];
  for (const { target, binary } of built) {
    const dir = join(out, 'packages', `avp-${target.id}`);
    mkdirSync(join(dir, 'bin'), { recursive: true });
    const exe = join(dir, 'bin', target.exe ? 'avp.exe' : 'avp');
    copyFileSync(binary, exe);
    chmodSync(exe, 0o755);
    writeJson(join(dir, 'package.json'), {
      name: packageName(target),
      version,
      description: `The avp binary for ${target.id} (installed by ${NPM_SCOPE}/avp).`,
      license: 'MIT',
      os: [target.os],
      cpu: [target.cpu],
      ...(target.libc ? { libc: [target.libc] } : {}),
      files: ['bin/'],
      preferUnplugged: true,
    });
    writeFileSync(join(dir, 'README.md'), `The avp binary for ${target.id}. Install \`${NPM_SCOPE}/avp\` instead.\n`);
    tarballs.push(npmPack(dir, out));
  }
  const launcher = join(out, 'packages', 'avp');
  cpSync(join(ROOT, 'npm', 'avp'), launcher, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(launcher, 'package.json'), 'utf8')) as Record<string, unknown>;
  manifest.version = version;
  // Every target, built here or not: the release publishes them all, and npm installs only the matching one.
  manifest.optionalDependencies = Object.fromEntries(NPM_TARGETS.map((t) => [packageName(t), version]));
  writeJson(join(launcher, 'package.json'), manifest);
  chmodSync(join(launcher, 'bin', 'avp.js'), 0o755);
  tarballs.push(npmPack(launcher, out));
  return tarballs;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const tarballs = packNpm({ host: args.includes('--host'), out: outAt >= 0 ? args[outAt + 1] : undefined });
  process.stdout.write(`${tarballs.join('\n')}\n`);
}
