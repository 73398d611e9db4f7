/**
 * `avp install` restores the lockfile exactly: each entry must hash to its recorded integrity, whatever its source.
 * The sources are the documented table in docs/registry-client.md (registry, url, git, file, catalog), written out
 * here rather than read from the code, so a source whose check is dropped fails its own case. Each case installs a
 * validator, changes its entry's integrity to another well-formed sha512, accepts that lockfile as the user, removes
 * the installed copy and runs `avp install` and `avp install --frozen`: both must refuse and install nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { tempDir } from '../support/run-avp.ts';
import { VALIDATOR_MD, validatorZip } from '../unit/registry-client/zip-forge.ts';
import { sandbox, type Sandbox } from './registry-client-helpers.ts';

let reg: HostileRegistry;
let files: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  reg = await startHostileRegistry();
  reg.serve('from-registry', { version: '1.0.0', bytes: validatorZip('from-registry') });
  const zip = validatorZip('from-url');
  files = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(zip) });
});

afterAll(() => {
  reg.close();
  files.stop(true);
});

function localValidator(name: string): string {
  const dir = join(tempDir('avp-li-src-'), name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD(name));
  return dir;
}

function gitRepo(name: string): string {
  const repo = localValidator(name);
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '.'],
    ['commit', '-qm', 'v1'],
  ])
    execFileSync('git', args, { cwd: repo, env });
  const bare = join(tempDir('avp-li-git-'), `${name}.git`);
  execFileSync('git', ['clone', '-q', '--bare', repo, bare]);
  return `file://${bare}`;
}

/** Each documented source: the name it installs under and what `avp add` is given to get it. */
const SOURCES: Array<{ source: string; name: string; spec: () => string }> = [
  { source: 'registry', name: 'from-registry', spec: () => 'from-registry' },
  { source: 'url', name: 'from-url', spec: () => `http://127.0.0.1:${files.port}/from-url.zip` },
  { source: 'git', name: 'from-git', spec: () => gitRepo('from-git') },
  { source: 'file', name: 'from-file', spec: () => localValidator('from-file') },
  { source: 'catalog', name: 'no-secrets', spec: () => 'catalog:no-secrets' },
];

const OTHER_INTEGRITY = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;

async function tampered(source: string, name: string, spec: string): Promise<Sandbox> {
  const sb = sandbox(reg.url);
  const added = await sb.avp(['add', spec, '--project', '--json']);
  expect({ source, code: added.code, stderr: added.stderr }).toMatchObject({ source, code: 0 });
  const lf = JSON.parse(readFileSync(sb.projectLock, 'utf8'));
  expect(lf.packages[name]).toMatchObject({ source });
  lf.packages[name].integrity = OTHER_INTEGRITY;
  writeFileSync(sb.projectLock, JSON.stringify(lf, null, 2));
  // The user accepts the changed lockfile, so what refuses below is the integrity check, not the accepted state.
  expect((await sb.avp(['accept'])).code).toBe(0);
  rmSync(join(sb.project, '.avp', 'validators'), { recursive: true });
  return sb;
}

describe('a lock entry whose bytes do not match its integrity is refused, for every documented source', () => {
  for (const { source, name, spec } of SOURCES) {
    test(`${source}: avp install and avp install --frozen refuse ${name} and install nothing`, async () => {
      const sb = await tampered(source, name, spec());
      for (const args of [['install'], ['install', '--frozen']]) {
        const r = await sb.avp(args);
        expect({ args, code: r.code }).toEqual({ args, code: 1 });
        expect(r.stderr).toContain('integrity check failed');
        expect(r.stderr).toContain(name);
        expect(existsSync(join(sb.project, '.avp', 'validators', name))).toBe(false);
      }
    }, 60_000);
  }
});
