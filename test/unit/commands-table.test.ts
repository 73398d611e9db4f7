import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commands } from '../../src/commands/index.ts';
import { runAvp } from '../support/run-avp.ts';

/** Every test file except this one, as text. */
function testSources(): Array<{ file: string; text: string }> {
  const root = join(import.meta.dir, '..');
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'fixtures' && name !== 'node_modules') walk(p);
      } else if (name.endsWith('.test.ts') && p !== import.meta.path) {
        out.push({ file: relative(root, p), text: readFileSync(p, 'utf8') });
      }
    }
  };
  walk(root);
  return out;
}

describe('command table', () => {
  const sources = testSources();

  for (const name of Object.keys(commands)) {
    test(`"${name}" has a test that runs it through the binary`, () => {
      // An invocation looks like runAvp(['name', …]) or a spawn of AVP_BIN / dist/avp with 'name' as first argument.
      const pattern = new RegExp(`(runAvp|avp|AVP_BIN|BIN)[^\\n]{0,60}['"\`\\[ ]${name}['"\`, ]`);
      const users = sources.filter((s) => pattern.test(s.text)).map((s) => s.file);
      expect(users.length, `no test runs \`avp ${name}\``).toBeGreaterThan(0);
    });

    test(`"${name} --help" prints its usage`, async () => {
      const r = await runAvp([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).toContain(name);
      expect(r.stdout + r.stderr).not.toContain('not built yet');
    });
  }

  test('--version prints the package version, with no node or bun on PATH (the binary carries its runtime)', async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, '../../package.json'), 'utf8'));
    const r = await runAvp(['--version'], { env: { PATH: '/nonexistent' } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});
