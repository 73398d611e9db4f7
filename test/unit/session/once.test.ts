import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onceState } from '../../../src/session/session.ts';
import { readRecords, sessionDir } from '../../../src/session/store.ts';
import { tempProject } from './helpers.ts';

const worker = join(import.meta.dir, 'worker.ts');
async function spawnAll(n: number, args: (i: number) => string[]): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const p = Bun.spawn([process.execPath, worker, ...args(i)], {
        stdout: 'pipe',
        stderr: 'inherit',
        env: process.env,
      });
      const out = await new Response(p.stdout).text();
      expect(await p.exited).toBe(0);
      return out.trim();
    }),
  );
}

describe('once state', () => {
  test('marks persist per session', async () => {
    const root = tempProject();
    const a = await onceState(root, 's1');
    expect(a.isDone('lint')).toBe(false);
    await a.markDone(['lint', 'rules/x']);
    expect(a.isDone('lint')).toBe(true);
    const again = await onceState(root, 's1');
    expect(again.isDone('lint')).toBe(true);
    expect(again.isDone('rules/x')).toBe(true);
    expect(again.isDone('other')).toBe(false);
    expect((await onceState(root, 's2')).isDone('lint')).toBe(false);
    await again.markDone(['lint']); // idempotent
    const none = await onceState(root, undefined);
    await none.markDone(['lint']);
    expect(none.isDone('lint')).toBe(false);
  });

  test('of 6 processes claiming the same once-validator, exactly one wins', async () => {
    const root = tempProject();
    const outs = await spawnAll(6, () => ['once', root]);
    expect(outs.filter((o) => o === '["v1"]')).toHaveLength(1);
    expect(outs.filter((o) => o === '[]')).toHaveLength(5);
  });
});

describe('concurrent hook processes', () => {
  test('4 processes × 50 Write events: every change record is kept, none torn', async () => {
    const root = tempProject();
    await spawnAll(4, (i) => ['write', root, String(i)]);
    const text = readFileSync(join(sessionDir(root, 's1'), 'events.jsonl'), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    for (const l of lines) JSON.parse(l);
    const paths = new Set(readRecords(sessionDir(root, 's1')).map((r) => (r as { rel?: string }).rel));
    expect(paths.size).toBe(200);
  });
});
