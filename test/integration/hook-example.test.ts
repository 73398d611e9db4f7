import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { BIN } from './hook-support.ts';

test('npm run example: the demo project blocks the captured hardcoded-key Write and passes the fix', async () => {
  const repo = join(import.meta.dir, '../..');
  const proc = Bun.spawn(['bash', 'scripts/example.sh'], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', AVP_BIN: BIN },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(code).toBe(0);
  expect(err).toContain('added no-secrets@1.0.0 from catalog');
  expect(out).toContain('"decision": "block"');
  expect(out).toContain('[no-secrets] src/config.ts:1');
  expect(out).toContain('AVP_DISABLE=1');
  expect(out).toMatch(/edit-fix\.json[\s\S]*"passed": true/);
});
