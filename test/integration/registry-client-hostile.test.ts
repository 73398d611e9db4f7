/**
 * `dist/avp add` against a registry that lies: no integrity, a wrong one, hostile archives. Each must be refused
 * with a clear message and leave the validators directory and the lockfile exactly as they were.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapedFiles } from '../support/escaped-files.ts';
import { startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { lieAboutSize, makeZip, VALIDATOR_MD, validatorZip } from '../unit/registry-client/zip-forge.ts';
import { installedState, leftovers, lock, sandbox } from './registry-client-helpers.ts';

let reg: HostileRegistry;
const PAYLOAD = 'pwned by a hostile archive';
const MARKER = `avp-escaped-${process.pid}`;
const SLIP_ENTRIES = [`zip-slip/../../${MARKER}-1.md`, `zip-slip/../../../${MARKER}-2.md`];
const ABSOLUTE = join(tmpdir(), `${MARKER}-abs.md`);

beforeAll(async () => {
  reg = await startHostileRegistry();
  reg.serve('demo', { version: '1.0.0', bytes: validatorZip('demo') });
  const zeros = new Uint8Array(60 * 1024 * 1024);
  const hostile: Record<string, Uint8Array> = {
    // Two levels up from the package folder stays inside the sandbox (the scope's home), wherever it is extracted.
    'zip-slip': validatorZip(
      'zip-slip',
      SLIP_ENTRIES.map((e) => [e, PAYLOAD] as [string, string]),
    ),
    symlink: validatorZip('symlink', [['symlink/passwd', '/etc/passwd', { os: 3, attrs: (0o120777 << 16) >>> 0 }]]),
    'absolute-path': makeZip([
      ['absolute-path/VALIDATOR.md', VALIDATOR_MD('absolute-path')],
      [ABSOLUTE, PAYLOAD],
    ]),
    'zip-bomb': lieAboutSize(validatorZip('zip-bomb', [['zip-bomb/bomb.bin', zeros]]), 'zip-bomb/bomb.bin', 1000),
    'honest-bomb': validatorZip('honest-bomb', [['honest-bomb/bomb.bin', zeros]]),
    'wrong-top': makeZip([
      ['wrong-top/VALIDATOR.md', VALIDATOR_MD('wrong-top')],
      ['other/x.md', 'x'],
    ]),
    'a-skill': makeZip([['a-skill/SKILL.md', '---\nname: a-skill\n---\n']]),
    'number-version': makeZip([['number-version/VALIDATOR.md', VALIDATOR_MD('number-version', '1.0')]]),
    'not-a-zip': new TextEncoder().encode('<html>oops</html>'),
    'name-mismatch': validatorZip('someone-else'),
    'lint-fails': makeZip([
      [
        'lint-fails/VALIDATOR.md',
        '---\nname: lint-fails\ntrigger: NotAnEvent\nmetadata:\n  version: "1.0.0"\n---\nbody\n',
      ],
    ]),
  };
  for (const [name, bytes] of Object.entries(hostile)) reg.serve(name, { version: '1.0.0', bytes });
  reg.serve('huge', {
    version: '1.0.0',
    bytes: crypto.getRandomValues(new Uint8Array(11 * 1024 * 1024)).map((b, i) => (i < 4 ? [0x50, 0x4b, 3, 4][i]! : b)),
  });
  reg.serve('dropped', {
    version: '1.0.0',
    bytes: validatorZip('dropped', [['dropped/big.md', 'x'.repeat(200_000)]]),
    disconnect: true,
  });
  reg.serve('typed-skill', { version: '1.0.0', bytes: validatorZip('typed-skill'), type: 'skill' });
  reg.serve('no-integrity', { version: '1.0.0', bytes: validatorZip('no-integrity'), integrity: 'omit' });
  reg.serve('null-integrity', { version: '1.0.0', bytes: validatorZip('null-integrity'), integrity: 'null' });
  reg.serve('bad-integrity', { version: '1.0.0', bytes: validatorZip('bad-integrity'), integrity: 'wrong' });
  // demo 2.0.0 is hostile: an update to it must leave demo 1.0.0 installed and recorded.
  reg.serve('demo', { version: '2.0.0', bytes: validatorZip('demo', [['demo/../evil.md', 'x']]) });
}, 60_000); // deflating the 60 MiB bombs takes seconds on a loaded machine

afterAll(() => reg.close());

const cases: Array<[string, RegExp]> = [
  ['huge', /sends more than 10 MiB/],
  ['dropped', /could not reach .*\/api\/packages\/dropped\/1\.0\.0\/download/],
  ['typed-skill', /typed-skill@1\.0\.0 is a skill, not a validator/],
  ['no-integrity', /sent no integrity for no-integrity@1\.0\.0/],
  ['null-integrity', /sent no integrity/],
  ['bad-integrity', /integrity check failed/],
  ['zip-slip', /unsafe entry "zip-slip\/\.\.\/\.\.\/avp-escaped-\d+-1\.md": "\.\." segment \(zip-slip/],
  ['symlink', /symlink entry/],
  ['absolute-path', /unsafe entry "\/.*avp-escaped-\d+-abs\.md": absolute path/],
  ['zip-bomb', /inflates past its declared size .*zip bomb/],
  ['honest-bomb', /expands past the 50 MiB limit/],
  ['wrong-top', /one top folder/],
  ['a-skill', /is a skill .*avp installs validators only/],
  ['number-version', /YAML number, not a string/],
  ['not-a-zip', /not a zip archive/],
  ['name-mismatch', /holds "someone-else", not "name-mismatch"/],
  ['lint-fails', /does not pass avp's validator checks/],
];

describe('avp add refuses what it cannot trust, and writes nothing', () => {
  test.each(cases)('%s', async (name, message) => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@1.0.0'])).code).toBe(0);
    const before = installedState(sb.avpHome);
    const r = await sb.avp(['add', name]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('fix:');
    expect(installedState(sb.avpHome)).toEqual(before);
    expect(leftovers(sb.avpHome)).toEqual([]);
    expect(existsSync(join(sb.userValidators, name))).toBe(false);
    const bases = [sb.userValidators, join(sb.userValidators, name), join(sb.avpHome, '.staging', 'x', name)];
    const roots = [sb.home, sb.project];
    expect(escapedFiles({ roots, marker: MARKER, payload: PAYLOAD, entries: SLIP_ENTRIES, bases })).toEqual([]);
    expect(existsSync(ABSOLUTE)).toBe(false);
  });

  test('a hostile update keeps the installed version and its lock entry', async () => {
    const sb = sandbox(reg.url);
    expect((await sb.avp(['add', 'demo@1.0.0'])).code).toBe(0);
    const before = installedState(sb.avpHome);
    const r = await sb.avp(['update', 'demo', '--latest']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('".." segment');
    expect(installedState(sb.avpHome)).toEqual(before);
    expect(lock(sb.userLock).packages.demo!.version).toBe('1.0.0');
  });

  test('a download redirected to another origin never carries the token', async () => {
    const seen: Array<string | null> = [];
    const bytes = validatorZip('cdn-hosted');
    const cdn = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        seen.push(req.headers.get('authorization'));
        return new Response(bytes);
      },
    });
    try {
      reg.serve('cdn-hosted', { version: '1.0.0', bytes, redirectTo: `http://127.0.0.1:${cdn.port}/blob` });
      const sb = sandbox(reg.url);
      const r = await sb.avp(['add', 'cdn-hosted'], { env: { AVP_TOKEN: 'tok_registry_only_123' } });
      expect(r.code).toBe(0);
      expect(seen).toEqual([null]);
      expect(
        reg.requests.some(
          (q) => q.path === '/api/packages/cdn-hosted/1.0.0/download' && q.auth === 'Bearer tok_registry_only_123',
        ),
      ).toBe(true);
    } finally {
      cdn.stop(true);
    }
  });

  test('a file system failure is reported with the place and a fix, and changes nothing', async () => {
    const sb = sandbox(reg.url);
    mkdirSync(sb.avpHome, { recursive: true });
    writeFileSync(sb.userValidators, 'not a directory');
    const r = await sb.avp(['add', 'demo@1.0.0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not write under ${sb.avpHome}`);
    expect(r.stderr).toContain('fix: check the permissions');
    expect(readFileSync(sb.userValidators, 'utf8')).toBe('not a directory');
    expect(existsSync(sb.userLock)).toBe(false);
    expect(leftovers(sb.avpHome)).toEqual([]);
  });

  test('network errors name the URL and the fix', async () => {
    const sb = sandbox();
    const r = await sb.avp(['add', 'demo', '--registry', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('could not reach http://127.0.0.1:9/api/packages/demo/latest');
    expect(r.stderr).toContain('AVP_REGISTRY_URL');
    expect(existsSync(sb.userLock)).toBe(false);
  });

  test('an unknown name is a 404 with the registry message', async () => {
    const sb = sandbox(reg.url);
    const r = await sb.avp(['add', 'nothing-here']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('404 package nothing-here not found');
  });
});
