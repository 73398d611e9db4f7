/**
 * The npm packages as users get them: `scripts/pack-npm.ts --host` packs this machine's binary and the launcher, a
 * loopback registry serves them (the other platforms' packages are listed but their tarballs are absent, so a
 * download of one fails the test), and real `npm install -g` and `npx` install into a scratch prefix and cache with
 * install scripts switched off. The installed `avp` must run, answer a hook on stdin/stdout and set up a project.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { hostTarget, NPM_TARGETS, packageName, packNpm } from '../../scripts/pack-npm.ts';
import { outputOf, tempDir } from '../support/run-avp.ts';

const VERSION = JSON.parse(readFileSync(join(import.meta.dir, '../../package.json'), 'utf8')).version as string;
const out = tempDir('avp-npm-pack-');
const requests: string[] = [];
let server: ReturnType<typeof Bun.serve>;
let registry = '';

/** A minimal npm registry: packuments at `/<name>` (scoped names arrive as `@scope%2fname`), tarballs below. */
function serveRegistry(tarballs: string[]) {
  const packuments = new Map<string, unknown>();
  const files = new Map<string, Buffer>();
  const add = (manifest: Record<string, unknown>, dist: Record<string, string>) => {
    const name = manifest.name as string;
    packuments.set(name, {
      name,
      'dist-tags': { latest: VERSION },
      versions: { [VERSION]: { ...manifest, _id: `${name}@${VERSION}`, dist } },
    });
  };
  for (const tgz of tarballs) {
    const bytes = readFileSync(tgz);
    files.set(basename(tgz), bytes);
    // npm pack names `@avp-cli/avp-linux-x64@V` avp-cli-avp-linux-x64-V.tgz; its folder is avp-linux-x64.
    const dir = basename(tgz)
      .replace(/^avp-cli-/, '')
      .replace(`-${VERSION}.tgz`, '');
    const manifest = JSON.parse(readFileSync(join(out, 'packages', dir, 'package.json'), 'utf8'));
    add(manifest, {
      tarball: `${registry}/-/${basename(tgz)}`,
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
    });
  }
  // The release's other platforms: known to the registry, never to be downloaded on this machine.
  for (const t of NPM_TARGETS.filter((x) => x.id !== hostTarget().id)) {
    const manifest = {
      name: packageName(t),
      version: VERSION,
      os: [t.os],
      cpu: [t.cpu],
      ...(t.libc ? { libc: [t.libc] } : {}),
    };
    add(manifest, { tarball: `${registry}/-/absent-${t.id}.tgz`, integrity: 'sha512-AAAA', shasum: '0'.repeat(40) });
  }
  return (req: Request) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    requests.push(path);
    if (path.startsWith('/-/')) {
      const bytes = files.get(path.slice(3));
      return bytes ? new Response(bytes) : new Response('not found', { status: 404 });
    }
    const doc = packuments.get(path.slice(1));
    return doc ? Response.json(doc) : Response.json({ error: 'not found' }, { status: 404 });
  };
}

beforeAll(() => {
  const tarballs = packNpm({ host: true, out });
  let handler: (req: Request) => Response = () => new Response('starting', { status: 503 });
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => handler(req) });
  registry = `http://127.0.0.1:${server.port}`;
  handler = serveRegistry(tarballs);
});
afterAll(() => server.stop(true));

/** npm with a scratch HOME, cache and config, against the loopback registry only; asynchronous (the server is here). */
async function npm(args: string[], cwd: string, home: string) {
  writeFileSync(join(home, '.npmrc'), '');
  // npm's own flags before the arguments: after `--` they would go to the package's command.
  const flags = [
    '--registry',
    registry,
    '--cache',
    join(home, 'npm-cache'),
    '--ignore-scripts',
    '--no-update-notifier',
  ];
  const p = Bun.spawn(['npm', args[0]!, ...flags, ...args.slice(1)], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: home, npm_config_userconfig: join(home, '.npmrc'), NO_COLOR: '1' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const { stdout, stderr, code } = await outputOf(p);
  return { stdout, stderr, code };
}

function gitProject(home: string): string {
  const root = join(home, `project-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  return root;
}

describe('npm packages (platform packages, no install scripts)', () => {
  test('no package has an install script, and each platform package is limited to its os and cpu', () => {
    for (const dir of readdirSync(join(out, 'packages'))) {
      const pkg = JSON.parse(readFileSync(join(out, 'packages', dir, 'package.json'), 'utf8'));
      expect(pkg.scripts ?? {}).toEqual({});
      if (dir !== 'avp') expect(pkg.os && pkg.cpu).toBeTruthy();
      else expect(Object.keys(pkg.optionalDependencies)).toEqual(NPM_TARGETS.map(packageName));
    }
  });

  test('npm install -g puts a working avp on PATH: it answers a hook and sets up a project', async () => {
    const home = tempDir('avp-npm-home-');
    const prefix = join(home, 'prefix');
    const r = await npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '@avp-cli/avp'], home, home);
    expect(r.stderr).not.toContain('ERR');
    expect(r.code).toBe(0);
    // Only this machine's binary was downloaded.
    const downloads = requests.filter((p) => p.startsWith('/-/'));
    expect(downloads.some((p) => p.includes('absent-'))).toBe(false);
    const avp = join(prefix, 'bin', 'avp');
    const env = { PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, HOME: home, NO_COLOR: '1' };
    expect(Bun.spawnSync([avp, 'version'], { env }).stdout.toString().trim()).toBe(VERSION);
    const project = gitProject(home);
    const hook = Bun.spawnSync([avp, 'hook'], {
      cwd: project,
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      stdin: new Blob([
        JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: project, stop_hook_active: false }),
      ]),
    });
    expect({ code: hook.exitCode, stdout: hook.stdout.toString() }).toEqual({ code: 0, stdout: '{}\n' });
    const init = Bun.spawnSync([avp, 'init', '--no-validators'], { cwd: project, env });
    expect(init.exitCode).toBe(0);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toContain('"avp hook --agent claude"');
    // The exit code of avp comes through the launcher.
    expect(Bun.spawnSync([avp, 'no-such-command'], { env }).exitCode).toBe(2);
  });

  test('npx @avp-cli/avp init sets up a project with nothing installed beforehand', async () => {
    const home = tempDir('avp-npx-home-');
    const project = gitProject(home);
    const r = await npm(['exec', '--yes', '--', '@avp-cli/avp', 'init', '--no-validators'], project, home);
    expect(r.stderr).not.toContain('npm error');
    expect(r.code).toBe(0);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toContain('hook --agent claude');
    // npx keeps avp on PATH for this one run: init says so, or the hook would silently never fire afterwards.
    expect(r.stderr + r.stdout).toContain('npx does not keep it on PATH: install it so the hook finds it');
  });

  test('without its platform package (a lockfile made on another OS) avp says what is missing and how to fix it', async () => {
    const home = tempDir('avp-npm-missing-');
    const prefix = join(home, 'prefix');
    expect((await npm(['install', '-g', '--prefix', prefix, '@avp-cli/avp'], home, home)).code).toBe(0);
    const launcher = join(prefix, 'lib', 'node_modules', '@avp-cli', 'avp');
    rmSync(join(launcher, 'node_modules', packageName(hostTarget())), { recursive: true, force: true });
    const run = Bun.spawnSync([join(prefix, 'bin', 'avp'), 'version'], {
      env: { PATH: process.env.PATH!, HOME: home },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr.toString()).toContain(`${packageName(hostTarget())} is not installed`);
    expect(run.stderr.toString()).toContain('fix: reinstall');
  });
});
