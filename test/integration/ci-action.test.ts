/**
 * The GitHub Action's scripts, run here as the runner would run them: `install.sh` against a loopback static server
 * serving a fake release (the real binary and its checksums) — it must refuse a tampered binary, a hash the
 * workflow pinned, a wrong version and plain http — and `run.sh` in a shallow clone of a repository with a base and
 * a head: it deepens the clone, checks the pull request's change, writes SARIF, annotations, outputs and a summary.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStaticExport } from '../../registry/static-server.ts';
import { AVP_BIN, outputOf, tempDir } from '../support/run-avp.ts';
import { gitRepo, lineFinder, sarifErrors, scriptValidator, sh } from './ci-support.ts';

const ACTION = resolve(import.meta.dir, '../..');
const VERSION = JSON.parse(readFileSync(join(ACTION, 'package.json'), 'utf8')).version as string;
const TARGET = `${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: { url: string; stop(): Promise<void> };
const releases = tempDir('avp-ci-releases-');

/** Publishes a fake release: `binary` as the asset, `sums` as sha256sums.txt (default: the binary's true sum). */
function release(version: string, binary: Buffer, sums?: string): void {
  const dir = join(releases, `v${version}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `avp-${TARGET}`), binary);
  writeFileSync(join(dir, 'sha256sums.txt'), sums ?? `${sha256(binary)}  avp-${TARGET}\n`);
}

beforeAll(() => {
  server = serveStaticExport(releases);
  const real = readFileSync(AVP_BIN);
  release(VERSION, real);
  // A release whose binary was swapped after the checksums were made.
  release('9.9.1', Buffer.concat([real, Buffer.from('tampered')]), `${sha256(real)}  avp-${TARGET}\n`);
  // Consistent checksums, but the binary is another version than the tag says.
  release('9.9.2', real);
  // Checksums for other assets only.
  release('9.9.3', real, `${sha256(real)}  avp-plan9-mips\n`);
});
afterAll(() => server.stop());

interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  dir: string;
  summary: string;
  path: string;
}

/**
 * Runs one of the action's scripts with a runner's files (GITHUB_OUTPUT, GITHUB_PATH, RUNNER_TEMP). Asynchronously:
 * the release server runs in this process and must keep answering.
 */
async function script(name: string, env: Record<string, string>, cwd?: string): Promise<ScriptRun> {
  const dir = tempDir('avp-ci-runner-');
  const files = { GITHUB_OUTPUT: 'output', GITHUB_PATH: 'path', GITHUB_STEP_SUMMARY: 'summary' };
  for (const f of Object.values(files)) writeFileSync(join(dir, f), '');
  const p = Bun.spawn(['bash', join(ACTION, 'scripts/action', name)], {
    cwd: cwd ?? dir,
    env: {
      PATH: process.env.PATH!,
      HOME: dir,
      RUNNER_TEMP: dir,
      ...Object.fromEntries(Object.entries(files).map(([k, f]) => [k, join(dir, f)])),
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => p.kill('SIGKILL'), 120_000);
  const { stdout, stderr, code } = await outputOf(p);
  clearTimeout(timer);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const outputs = Object.fromEntries(
    read('output')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return {
    code,
    stdout,
    stderr,
    outputs,
    dir,
    summary: read('summary'),
    path: read('path'),
  };
}

describe('action: install.sh', () => {
  test('installs the pinned release after checking its sha256; the binary runs and is on PATH', async () => {
    const r = await script('install.sh', { AVP_VERSION: `v${VERSION}`, AVP_RELEASE_URL: `${server.url}/` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bin = r.outputs.path!;
    expect(bin).toBe(join(r.dir, 'avp-bin', 'avp'));
    expect(r.path.trim()).toBe(join(r.dir, 'avp-bin'));
    expect(Bun.spawnSync([bin, 'version']).stdout.toString().trim()).toBe(VERSION);
    const pinned = await script('install.sh', {
      AVP_VERSION: VERSION,
      AVP_RELEASE_URL: server.url,
      AVP_SHA256: sha256(readFileSync(AVP_BIN)).toUpperCase(),
    });
    expect(pinned.code).toBe(0);
  });

  const refused: Array<[string, Record<string, string>, string]> = [
    ['a binary that does not match the release checksums', { AVP_VERSION: '9.9.1' }, 'checksum mismatch'],
    ['a hash the workflow pinned', { AVP_VERSION: VERSION, AVP_SHA256: '0'.repeat(64) }, 'the workflow pins'],
    ['a binary of another version than the tag', { AVP_VERSION: '9.9.2' }, `not version 9.9.2`],
    ['checksums without this asset', { AVP_VERSION: '9.9.3' }, 'lists no checksum'],
    ['a release that does not exist', { AVP_VERSION: '9.9.9' }, 'could not download'],
    ['a version that is not x.y.z', { AVP_VERSION: 'latest' }, 'not a release version'],
    ['plain http beyond this machine', { AVP_VERSION: VERSION, AVP_RELEASE_URL: 'http://example.com/r' }, 'https'],
  ];
  for (const [what, env, message] of refused) {
    test(`refuses ${what}, and installs nothing`, async () => {
      const r = await script('install.sh', { AVP_RELEASE_URL: server.url, ...env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('::error title=avp install::');
      expect(existsSync(join(r.dir, 'avp-bin', 'avp'))).toBe(false);
      expect(r.path).toBe('');
    });
  }
});

/** An origin with `main` (validators) and a `feature` branch two commits ahead, and a shallow clone of feature. */
function pullRequest(leak: boolean, rules?: (origin: string) => void): { clone: string; origin: string } {
  const origin = gitRepo({ 'app.ts': 'export const a = 1;\n' });
  scriptValidator(origin, 'no-keys', {}, lineFinder('sk-live-'));
  sh(origin, 'git add -A && git commit -qm validators && git checkout -q -b feature');
  writeFileSync(join(origin, 'other.ts'), 'export const o = 1;\n');
  sh(origin, 'git add -A && git commit -qm other');
  writeFileSync(join(origin, 'app.ts'), `export const a = 1;\n${leak ? 'const k = "sk-live-pr42";\n' : ''}`);
  rules?.(origin);
  sh(origin, 'git add -A && git commit -qm change --allow-empty && git checkout -q main');
  const clone = tempDir('avp-ci-clone-');
  sh(clone, `git clone -q --depth 1 --branch feature file://${origin} .`);
  return { clone, origin };
}

describe('action: run.sh', () => {
  test('a shallow clone of a pull request with a key: deepened, checked, SARIF + annotations + summary, outcome ERROR', async () => {
    const { clone } = pullRequest(true);
    expect(sh(clone, 'git rev-parse --is-shallow-repository').trim()).toBe('true');
    const r = await script('run.sh', { AVP_BIN, AVP_BASE: 'main' }, clone);
    expect(r.code).toBe(0);
    expect(r.outputs.outcome).toBe('ERROR');
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.stdout).toMatch(/^::error file=app.ts,line=2,title=avp no-keys/m);
    const sarif = readFileSync(r.outputs.sarif!, 'utf8');
    expect(await sarifErrors(sarif)).toEqual([]);
    const results = JSON.parse(sarif).runs[0].results;
    // Only the pull request's change: other.ts was changed on the branch too, but holds nothing.
    expect(results.map((x: any) => x.locations[0].physicalLocation.artifactLocation.uri)).toEqual(['app.ts']);
    expect(r.summary).toContain('### avp check: ERROR');
    expect(r.summary).toContain('app.ts:2');
  });

  test('a clean pull request: outcome PASSED; the first push of a branch (all-zero base) uses the default branch', async () => {
    const { clone } = pullRequest(false);
    const r = await script('run.sh', { AVP_BIN, AVP_BASE: '0'.repeat(40), AVP_FALLBACK_BASE: 'main' }, clone);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.outputs.outcome).toBe('PASSED');
  });

  test("the pull request's own rules do not judge it: a PR that turns avp off is still checked by the base's", async () => {
    const { clone } = pullRequest(true, (origin) => {
      writeFileSync(join(origin, 'avp.config.json'), '{ "disabled": true }\n');
      rmSync(join(origin, '.avp/validators/no-keys'), { recursive: true });
    });
    const r = await script('run.sh', { AVP_BIN, AVP_BASE: 'main' }, clone);
    expect(r.code).toBe(0);
    expect(r.outputs.outcome).toBe('ERROR');
    expect(r.stdout).toMatch(/^::error file=app.ts,line=2,title=avp no-keys/m);
    expect(r.stdout).toMatch(/^::warning file=avp.config.json,title=avp rules changed::/m);
    const results = JSON.parse(readFileSync(r.outputs.sarif!, 'utf8')).runs[0].results;
    expect(results.filter((x: any) => x.ruleId === 'avp:rules-changed')).toHaveLength(3);
    expect(results.filter((x: any) => x.ruleId === 'no-keys')).toHaveLength(1);
    expect(r.summary).toContain("this change edits avp's rules");
  });

  test('no verdict is never a pass: an unknown base or a failing avp fails the step', async () => {
    const { clone } = pullRequest(true);
    const unknown = await script('run.sh', { AVP_BIN, AVP_BASE: 'no-such-branch' }, clone);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no-such-branch');
    expect(unknown.outputs.outcome).toBeUndefined();
    const broken = await script('run.sh', { AVP_BIN, AVP_BASE: 'main', AVP_ARGS: '--event Nope' }, clone);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('could not check the change');
    expect(broken.outputs.outcome).toBeUndefined();
  });
});

describe('action.yml', () => {
  test('a composite action whose steps run the scripts tested here and upload the SARIF', () => {
    const action = Bun.YAML.parse(readFileSync(join(ACTION, 'action.yml'), 'utf8')) as any;
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps as Array<Record<string, any>>;
    const runs = steps.map((s) => String(s.run ?? '')).join('\n');
    for (const m of runs.matchAll(/\$GITHUB_ACTION_PATH\/([\w/.-]+)/g)) {
      expect(existsSync(join(ACTION, m[1]!))).toBe(true);
    }
    expect(runs).toContain('scripts/action/install.sh');
    expect(runs).toContain('scripts/action/run.sh');
    expect(steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))?.if).toContain('always()');
    expect(steps.at(-1)!.if).toContain("outcome == 'ERROR'");
    for (const name of Object.keys(action.inputs)) expect(action.inputs[name].description.length).toBeGreaterThan(0);
    // The default version is read from package.json the way the step does it.
    const step = steps.find((s) => s.id === 'install')!.run as string;
    const sed = step.match(/sed -n '([^']+)'/)![1]!;
    const got = Bun.spawnSync(['sed', '-n', sed, join(ACTION, 'package.json')])
      .stdout.toString()
      .split('\n')[0];
    expect(got).toBe(VERSION);
  });
});
