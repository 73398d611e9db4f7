/**
 * The real client binary against a registry that attacks it: endless and gzip-bombed answers, a download that
 * trickles, redirects to file:// and to other origins, a password in the registry URL, answers of the wrong shape.
 * Each must end promptly with an error that names the registry and the request, and never print the password.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AVP_BIN, outputOf, tempDir } from '../support/run-avp.ts';
import { GOOD_TOKEN, startHostileRegistry, type HostileRegistry } from '../support/hostile-registry.ts';
import { VALIDATOR_MD, validatorZip } from '../unit/registry-client/zip-forge.ts';
import { installedState, sandbox } from './registry-client-helpers.ts';

setDefaultTimeout(90_000);

let reg: HostileRegistry;
const MiB = 1024 * 1024;

/** A body that never ends (bounded here at 1 GiB so the test server stops by itself). */
function endless(prefix: string): Response {
  let sent = 0;
  const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
  return new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(prefix));
      },
      pull(c) {
        if ((sent += chunk.length) > 1024 * MiB) c.close();
        else c.enqueue(chunk);
      },
    }),
    { headers: { 'content-type': 'application/json' } },
  );
}

/** Sends `bytes` one small piece every 300 ms (bounded: at most 200 pieces). */
function trickle(bytes: Uint8Array): Response {
  let at = 0;
  return new Response(
    new ReadableStream({
      async pull(c) {
        await Bun.sleep(300);
        if (at >= bytes.length || at > 200 * 64) return c.close();
        c.enqueue(bytes.subarray(at, at + 64));
        at += 64;
      },
    }),
    { headers: { 'content-type': 'application/zip', 'content-length': String(bytes.length) } },
  );
}

beforeAll(async () => {
  reg = await startHostileRegistry();
  reg.serve('demo', { version: '1.0.0', bytes: validatorZip('demo') });
  reg.lie('GET', '/api/packages/endless', () => endless('{"name":"endless","description":"'));
  // 64 MiB of spaces inside a JSON string, gzipped to ~64 KiB: small on the wire, huge once inflated.
  const bomb = gzipSync(Buffer.concat([Buffer.from('{"name":"gz","x":"'), Buffer.alloc(64 * MiB, 0x20)]), { level: 9 });
  reg.lie('GET', '/api/packages/gz', () => new Response(bomb, { headers: { 'content-encoding': 'gzip' } }));
  reg.lie('GET', '/api/packages/brotli', () => new Response('x', { headers: { 'content-encoding': 'br' } }));
  reg.serve('slow', { version: '1.0.0', bytes: validatorZip('slow', [['slow/pad.md', 'x'.repeat(50_000)]]) });
  reg.lie('GET', '/api/packages/slow/1.0.0/download', (_b) => trickle(validatorZip('slow')));
  reg.lie('GET', '/api/packages/to-file/latest', () => Response.redirect('file:///etc/passwd', 302));
  reg.serve('dl-file', { version: '1.0.0', bytes: validatorZip('dl-file'), redirectTo: 'file:///etc/passwd' });
  reg.lie('GET', '/api/packages/wrong-types/latest', () =>
    Response.json({ name: 5, version: ['1.0.0'], downloadUrl: {}, integrity: 'sha512-x' }),
  );
  reg.lie('GET', '/api/packages/wrong-detail', () => Response.json({ name: 'wrong-detail', versions: null }));
  reg.lie('GET', '/api/packages', () => Response.json({ packages: [{ name: 'ok' }, { name: 42 }], total: 2 }));
}, 60_000);

afterAll(() => reg.close());

/** Where `peak-rss.ts` is: it measures the command's own peak memory, not this runner's (see there). */
const PEAK_RSS = join(import.meta.dir, '..', 'support', 'peak-rss.ts');

/** `dist/avp` with its peak memory (maxRSS, bytes) — `runAvp` does not measure it. */
async function avpMeasured(args: string[], env: Record<string, string>) {
  const home = tempDir('avp-rcl-home-');
  const rssFile = join(home, 'peak-rss');
  const proc = Bun.spawn([process.execPath, PEAK_RSS, AVP_BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      AVP_HOME: join(home, '.avp'),
      NO_COLOR: '1',
      PEAK_RSS_OUT: rssFile,
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGTERM'), 60_000);
  const { stdout, stderr, code } = await outputOf(proc);
  clearTimeout(timer);
  return { code, stdout, stderr, maxRss: Number(readFileSync(rssFile, 'utf8')) };
}

describe('metadata answers are read under a cap', () => {
  test('an endless answer stops at 4 MiB, naming the registry and the request, in bounded memory', async () => {
    const r = await avpMeasured(['info', 'endless'], { AVP_REGISTRY_URL: reg.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`GET ${reg.url}/api/packages/endless sends more than 4 MiB (a JSON answer)`);
    expect(r.stderr).toContain('fix:');
    // maxRSS in bytes; the runtime alone is ~150 MiB. The unbounded read grew to gigabytes.
    expect(r.maxRss).toBeLessThan(512 * MiB);
  });

  test('a gzip bomb is stopped after 4 MiB inflated, though it is small on the wire', async () => {
    const r = await avpMeasured(['info', 'gz'], { AVP_REGISTRY_URL: reg.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`GET ${reg.url}/api/packages/gz sends more than 4 MiB`);
    expect(r.maxRss).toBeLessThan(512 * MiB);
  });

  test('an encoding avp did not ask for is refused by name', async () => {
    const r = await sandbox(reg.url).avp(['info', 'brotli']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/answered with Content-Encoding "br", which avp did not ask for/);
  });
});

describe('deadline', () => {
  test('a download that trickles ends at AVP_REGISTRY_TIMEOUT, not minutes later, and installs nothing', async () => {
    const sb = sandbox(reg.url);
    const before = installedState(sb.avpHome);
    const started = Date.now();
    const r = await sb.avp(['add', 'slow'], { env: { AVP_REGISTRY_TIMEOUT: '2' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`GET ${reg.url}/api/packages/slow/1.0.0/download did not finish within 2 s`);
    expect(r.stderr).toContain('AVP_REGISTRY_TIMEOUT');
    // Generous (loaded machine); the trickle alone would take a minute.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(installedState(sb.avpHome)).toEqual(before);
  });

  test('a bad AVP_REGISTRY_TIMEOUT is an error with a fix', async () => {
    const r = await sandbox(reg.url).avp(['info', 'demo'], { env: { AVP_REGISTRY_TIMEOUT: 'soon' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/AVP_REGISTRY_TIMEOUT=soon is not a number of seconds/);
  });
});

describe('redirects', () => {
  test('a redirect to file:// is refused, for metadata and for downloads, and no local file is read', async () => {
    const sb = sandbox(reg.url);
    const meta = await sb.avp(['add', 'to-file']);
    expect(meta.code).toBe(1);
    expect(meta.stderr).toMatch(/redirected to a file: URL; avp follows redirects to http\(s\) only/);
    const dl = await sb.avp(['add', 'dl-file']);
    expect(dl.code).toBe(1);
    expect(dl.stderr).toMatch(/download redirected to a file: URL/);
    expect(dl.stderr + meta.stderr).not.toContain('root:');
  });

  test('a publish redirected to another origin is an error, and the other origin receives nothing', async () => {
    const elsewhere: string[] = [];
    const other = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        elsewhere.push(`${req.method} ${new URL(req.url).pathname}`);
        return Response.json({ name: 'pub', version: '1.0.0', published: true, downloadUrl: 'x' }, { status: 201 });
      },
    });
    try {
      const dir = join(tempDir('avp-rcl-pub-'), 'pub');
      mkdirSync(dir);
      writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD('pub'));
      const sb = sandbox(reg.url);
      for (const status of [307, 302]) {
        reg.lie(
          'POST',
          '/api/packages',
          () => new Response(null, { status, headers: { location: `http://127.0.0.1:${other.port}/api/packages` } }),
        );
        const r = await sb.avp(['publish', dir], { env: { AVP_TOKEN: GOOD_TOKEN } });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/POST .*\/api\/packages redirected to another origin/);
        expect(r.stdout + r.stderr).not.toMatch(/published pub/);
      }
      // Same origin but 302/303 would turn the upload into a GET: refused too.
      reg.lie('POST', '/api/packages', (base) => Response.redirect(`${base}/api/packages/demo`, 302));
      const r = await sb.avp(['publish', dir], { env: { AVP_TOKEN: GOOD_TOKEN } });
      expect(r.stderr).toMatch(/redirected with 302, which would turn the POST into a GET/);
      expect(elsewhere).toEqual([]);
    } finally {
      other.stop(true);
    }
  });

  test('a publish answered with some other package is not reported as published', async () => {
    const dir = join(tempDir('avp-rcl-pub2-'), 'pub2');
    mkdirSync(dir);
    writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD('pub2'));
    reg.lie('POST', '/api/packages', () =>
      Response.json({ name: 'demo', version: '1.0.0', published: true, downloadUrl: 'x' }, { status: 201 }),
    );
    const r = await sandbox(reg.url).avp(['publish', dir], { env: { AVP_TOKEN: GOOD_TOKEN } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/answered the upload of pub2@1\.0\.0 with .*not a confirmation of this package/);
  });
});

describe('a password in the registry URL is never printed', () => {
  const secret = 'hunter2-s3cret';
  const withPassword = () => reg.url.replace('http://', `http://alice:${secret}@`);

  test('in errors, logs and JSON output, whatever the command', async () => {
    const sb = sandbox(withPassword());
    const runs = [
      await sb.avp(['info', 'no-such-package']),
      await sb.avp(['info', 'wrong-detail']),
      await sb.avp(['add', 'to-file']),
      await sb.avp(['search', 'x', '--json']),
      await sb.avp(['add', 'demo', '--json']),
      await sb.avp(['info', 'demo', '--json']),
      await sb.avp(['whoami']),
      await sb.avp(['info', 'demo'], { env: { AVP_REGISTRY_URL: `http://alice:${secret}@127.0.0.1:9/` } }),
    ];
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(secret);
    expect(runs[0]!.stderr).toMatch(/http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/packages\/no-such-package failed: 404/);
    expect(runs[7]!.stderr).toMatch(/could not reach http:\/\/\*\*\*@127\.0\.0\.1:9/);
  });

  test('the lockfile records the registry without it', async () => {
    const sb = sandbox(withPassword());
    expect((await sb.avp(['add', 'demo'])).code).toBe(0);
    expect(JSON.stringify(installedState(sb.avpHome))).not.toContain(secret);
  });
});

describe('answers of the wrong shape', () => {
  test.each([
    [
      ['add', 'wrong-types'],
      /latest answered something avp does not understand \(name: expected a string, got number\)/,
    ],
    [['info', 'wrong-detail'], /wrong-detail answered something avp does not understand \(versions: expected a list/],
    [['search', 'x'], /answered something avp does not understand \(packages\[1\]\.name: expected a string/],
  ])('%p', async (args, message) => {
    const r = await sandbox(reg.url).avp(args as string[]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(reg.url);
    expect(r.stderr).not.toMatch(/TypeError|undefined is not/);
  });
});
