import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  carriedFile,
  MAX_ENTRIES,
  MAX_VIOLATIONS,
  readCarried,
  updateCarried,
  type CarriedFinding,
} from '../../../src/session/carried-findings.ts';
import { contentDigest, judgedBefore, noteJudged } from '../../../src/session/judged-edits.ts';
import { undoEdits } from '../../../src/hook/observed-edit.ts';
import { tempDir } from '../../support/run-avp.ts';

const finding = (i: number, extra: Partial<CarriedFinding> = {}): CarriedFinding => ({
  file: `src/f${i}.ts`,
  path: `/p/src/f${i}.ts`,
  validator: 'no-secrets',
  name: 'no-secrets',
  severity: 'error',
  validatorPath: '/p/.avp/validators/no-secrets/VALIDATOR.md',
  status: 'failed',
  summary: 'a key',
  violations: [{ rule: 'no-keys', message: 'hard-coded key' }],
  ts: i,
  ...extra,
});

describe('carried findings: bounded, locked, gone when empty', () => {
  test('a runaway producer keeps the newest entries, few violations each, clipped fields', async () => {
    const dir = tempDir('avp-carried-');
    const huge = 'x'.repeat(100_000);
    const many = Array.from({ length: 500 }, () => ({ rule: 'r', message: huge, snippet: huge }));
    await updateCarried(dir, () => Array.from({ length: 3 * MAX_ENTRIES }, (_, i) => finding(i, { violations: many })));
    const kept = readCarried(dir);
    expect(kept).toHaveLength(MAX_ENTRIES);
    expect(kept[0]!.ts).toBe(2 * MAX_ENTRIES);
    expect(kept.every((e) => e.violations.length === MAX_VIOLATIONS)).toBe(true);
    expect(kept[0]!.violations[0]!.message!.length).toBeLessThanOrEqual(1000);
    expect(readFileSync(carriedFile(dir), 'utf8').length).toBeLessThan(2_000_000);
  });

  test('no entries left: no file (the blocking point is one stat again); a torn or foreign file reads as none', async () => {
    const dir = tempDir('avp-carried-');
    await updateCarried(dir, () => [finding(1)]);
    expect(existsSync(carriedFile(dir))).toBe(true);
    await updateCarried(dir, () => []);
    expect(existsSync(carriedFile(dir))).toBe(false);
    writeFileSync(carriedFile(dir), '[{"file": "a"');
    expect(readCarried(dir)).toEqual([]);
    writeFileSync(carriedFile(dir), JSON.stringify([{ file: 'a', path: '/a', validator: 'v', status: 'passed' }, 7]));
    expect(readCarried(dir)).toEqual([]);
  });

  test('processes updating at once lose no finding (each change is a read-modify-write under the lock)', async () => {
    const dir = tempDir('avp-carried-');
    const module = join(import.meta.dir, '../../../src/session/carried-findings.ts');
    const script = join(dir, 'add.ts');
    writeFileSync(
      script,
      `import { updateCarried } from ${JSON.stringify(module)};
const [dir, who] = process.argv.slice(2);
for (let i = 0; i < 8; i++)
  await updateCarried(dir, (entries) => [...entries, { file: who + '-' + i, path: '/p/' + who + '-' + i,
    validator: 'v', status: 'failed', summary: '', violations: [], ts: i }]);
`,
    );
    const procs = Array.from({ length: 5 }, (_, w) =>
      Bun.spawn([process.execPath, script, dir, `w${w}`], { stdout: 'ignore', stderr: 'inherit' }),
    );
    expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0, 0, 0, 0]);
    expect(new Set(readCarried(dir).map((e) => e.file)).size).toBe(40);
  });
});

describe('judged edits', () => {
  test('the same file and content judged by the same validators; anything else was not', async () => {
    const dir = tempDir('avp-judged-');
    await noteJudged(dir, '/p/a.ts', contentDigest('x'), ['v@1']);
    await noteJudged(dir, '/p/a.ts', contentDigest('x'), ['w@1']);
    expect([...judgedBefore(dir, '/p/a.ts', contentDigest('x'))].sort()).toEqual(['v@1', 'w@1']);
    expect(judgedBefore(dir, '/p/a.ts', contentDigest('x\n')).size).toBe(0);
    expect(judgedBefore(dir, '/p/b.ts', contentDigest('x')).size).toBe(0);
    expect(contentDigest(null)).not.toBe(contentDigest(''));
  });
});

describe('undoEdits: the content before an observed edit, only when unambiguous', () => {
  test('undone exactly', () => {
    const edits = [{ old_string: 'a = 1', new_string: 'a = 2', replace_all: false }];
    expect(undoEdits('x\na = 2\n', edits)).toBe('x\na = 1\n');
  });
  test('never guessed: the new text twice, a deletion, replace_all', () => {
    expect(undoEdits('a = 2\na = 2\n', [{ old_string: 'a = 1', new_string: 'a = 2', replace_all: false }])).toBe(
      undefined,
    );
    expect(undoEdits('x\n', [{ old_string: 'y', new_string: '', replace_all: false }])).toBe(undefined);
    expect(undoEdits('b b', [{ old_string: 'a', new_string: 'b', replace_all: true }])).toBe(undefined);
  });
});

test('files are under the session folder given', () => {
  expect(carriedFile('/s')).toBe(join('/s', 'carried-findings.json'));
});
