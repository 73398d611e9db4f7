import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverInterrupted } from '../../../src/registry-client/stage.ts';

/** Builds the on-disk state a process killed at a given step leaves, then checks what recovery makes of it. */
function scene(opts: { hadOld: boolean; aside: boolean; target: 'old' | 'new' | 'none'; newInStaging: boolean }) {
  const home = mkdtempSync(join(tmpdir(), 'avp-rc-stage-'));
  const validators = join(home, 'validators');
  const root = join(home, '.staging', 'demo-x');
  mkdirSync(root, { recursive: true });
  mkdirSync(validators, { recursive: true });
  writeFileSync(
    join(root, 'journal.json'),
    JSON.stringify({ name: 'demo', hadOld: opts.hadOld, newTree: 'sha512-new' }),
  );
  const put = (dir: string, what: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'VALIDATOR.md'), what);
  };
  if (opts.aside) put(join(root, '.previous'), 'old');
  if (opts.target !== 'none') put(join(validators, 'demo'), opts.target);
  if (opts.newInStaging) put(join(root, 'demo'), 'new');
  const content = () =>
    existsSync(join(validators, 'demo')) ? readFileSync(join(validators, 'demo', 'VALIDATOR.md'), 'utf8') : 'none';
  return { home, validators, content, done: () => rmSync(home, { recursive: true, force: true }) };
}

describe('recoverInterrupted', () => {
  const cases: Array<[string, Parameters<typeof scene>[0], string | undefined, string]> = [
    [
      'killed before the first rename',
      { hadOld: true, aside: false, target: 'old', newInStaging: true },
      'sha512-old',
      'old',
    ],
    [
      'killed between the two renames',
      { hadOld: true, aside: true, target: 'none', newInStaging: true },
      'sha512-old',
      'old',
    ],
    [
      'killed after the renames, before the lockfile',
      { hadOld: true, aside: true, target: 'new', newInStaging: false },
      'sha512-old',
      'old',
    ],
    [
      'killed after the lockfile, before cleanup',
      { hadOld: true, aside: true, target: 'new', newInStaging: false },
      'sha512-new',
      'new',
    ],
    [
      'fresh install killed before the lockfile',
      { hadOld: false, aside: false, target: 'new', newInStaging: false },
      undefined,
      'none',
    ],
    [
      'fresh install killed after the lockfile',
      { hadOld: false, aside: false, target: 'new', newInStaging: false },
      'sha512-new',
      'new',
    ],
  ];
  test.each(cases)('%s', (_, state, locked, expected) => {
    const s = scene(state);
    try {
      recoverInterrupted(s.home, s.validators, () => locked);
      expect(s.content()).toBe(expected);
      expect(existsSync(join(s.home, '.staging', 'demo-x'))).toBe(false);
    } finally {
      s.done();
    }
  });
});
