/**
 * A registry that accepts the connection and never answers: avp says so well before 30 s of silence (10 s by
 * default, AVP_REGISTRY_SILENCE to change it), and search/info fall back to the embedded catalog.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { AVP_BIN, runAvp } from '../support/run-avp.ts';

const held: Array<() => void> = [];
const silent = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  // Bun closes a silent request after 10 s by default, which races avp's own 10 s limit: keep it open (0 = never).
  idleTimeout: 0,
  // Never answers: the request waits until the test ends.
  fetch: () => new Promise<Response>((resolve) => held.push(() => resolve(new Response('late')))),
});
const url = `http://127.0.0.1:${silent.port}`;

afterAll(() => {
  for (const release of held) release();
  silent.stop(true);
});

describe('a registry that does not answer', () => {
  test('avp search: the default silence limit (10 s) ends the wait, and the catalog answers instead', async () => {
    const r = await runAvp(['search', 'secrets', '--registry', url], { timeoutMs: 40_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('did not answer within 10 s');
    expect(r.stdout).toContain('no-secrets');
    expect(r.ms).toBeLessThan(25_000);
  }, 45_000);

  test('on a terminal, the wait is shown while it lasts (a pseudo-terminal through script(1))', async () => {
    const home = (await import('../support/run-avp.ts')).tempDir('avp-silence-home-');
    const proc = Bun.spawn(['script', '-qec', `${AVP_BIN} search secrets --registry ${url}`, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        AVP_HOME: `${home}/.avp`,
        AVP_REGISTRY_SILENCE: '3',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out).toContain(`asking ${url}… 1 s (Ctrl-C to stop)`);
    expect(out).toContain('did not answer within 3 s');
  }, 30_000);

  test('avp info with AVP_REGISTRY_SILENCE=1: one second, then the catalog', async () => {
    const r = await runAvp(['info', 'no-secrets', '--registry', url], {
      env: { AVP_REGISTRY_SILENCE: '1' },
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('did not answer within 1 s');
    expect(r.stdout).toContain('no-secrets');
    expect(r.ms).toBeLessThan(8_000);
  }, 35_000);
});
