import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvpError } from '../../../src/errors.ts';
import {
  cachingJudge,
  changeFingerprint,
  evict,
  readVerdict,
  verdictCacheDir,
  verdictCacheKey,
  writeVerdict,
} from '../../../src/judges/cache.ts';
import type { Judge, JudgeRequest } from '../../../src/judges/types.ts';
import { tempDir } from '../../support/run-avp.ts';
import { editEvent, makeValidator, writeEvent } from './helpers.ts';

const verdict = { passed: false, violations: [{ rule: 'r', line: 1 }], summary: 'bad' };

describe('cache keys', () => {
  test('same change → same key; any relevant difference → another key', () => {
    const e = editEvent({ before: 'a\n', after: 'b\n' });
    const k = verdictCacheKey('h1', 'anthropic', 'm', e);
    expect(verdictCacheKey('h1', 'anthropic', 'm', editEvent({ before: 'a\n', after: 'b\n' }))).toBe(k);
    expect(verdictCacheKey('h2', 'anthropic', 'm', e)).not.toBe(k);
    expect(verdictCacheKey('h1', 'openai', 'm', e)).not.toBe(k);
    expect(verdictCacheKey('h1', 'anthropic', 'm2', e)).not.toBe(k);
    expect(verdictCacheKey('h1', 'anthropic', 'm', editEvent({ before: 'a\n', after: 'c\n' }))).not.toBe(k);
    expect(
      verdictCacheKey('h1', 'anthropic', 'm', editEvent({ before: 'a\n', after: 'b\n', relPath: 'src/other.ts' })),
    ).not.toBe(k);
    // the session, transcript and timing of an event do not matter
    expect(changeFingerprint({ ...e, sessionId: 'other', raw: { session_id: 'x', duration_ms: 5 } })).toBe(
      changeFingerprint(e),
    );
  });

  test('Bash command and output are part of the change', () => {
    const base = { ...writeEvent(''), tool: 'Bash', files: [] };
    const a = changeFingerprint({ ...base, toolInput: { command: 'ls' }, toolResponse: { stdout: '1' } });
    expect(changeFingerprint({ ...base, toolInput: { command: 'ls' }, toolResponse: { stdout: '2' } })).not.toBe(a);
    expect(changeFingerprint({ ...base, toolInput: { command: 'ls -a' }, toolResponse: { stdout: '1' } })).not.toBe(a);
  });
});

describe('cache files', () => {
  test('write, read, corrupt entries are misses and removed', () => {
    const dir = join(tempDir('avp-cache-'), 'verdicts');
    writeVerdict(dir, 'k1', { judge: 'anthropic', model: 'm', verdict }, 1 << 20);
    expect(readVerdict(dir, 'k1')?.verdict).toEqual(verdict);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    writeFileSync(join(dir, 'k2.json'), '{"v":"avp-verdict-1","verdict":');
    expect(readVerdict(dir, 'k2')).toBeUndefined();
    expect(existsSync(join(dir, 'k2.json'))).toBe(false);
    writeFileSync(join(dir, 'k3.json'), JSON.stringify({ v: 'avp-verdict-1', verdict: { passed: 'yes' } }));
    expect(readVerdict(dir, 'k3')).toBeUndefined();
    expect(readVerdict(dir, 'missing')).toBeUndefined();
  });

  test('eviction keeps the total under maxBytes, least recently used first', () => {
    const dir = tempDir('avp-cache-');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(dir, `e${i}.json`), 'x'.repeat(1000));
      utimesSync(join(dir, `e${i}.json`), new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    evict(dir, 5000);
    const left = readdirSync(dir).sort();
    expect(left).toEqual(['e6.json', 'e7.json', 'e8.json', 'e9.json']);
  });
});

describe('cachingJudge', () => {
  function counting(result: () => Promise<any>): Judge & { calls: number } {
    const j = {
      name: 'anthropic',
      calls: 0,
      async evaluate() {
        j.calls++;
        return result();
      },
    };
    return j;
  }

  test('a verdict is stored and served without calling the judge again; errors are never stored', async () => {
    const root = tempDir('avp-proj-');
    const v = makeValidator();
    const req: JudgeRequest = {
      validator: v,
      event: editEvent({ before: 'a\n', after: 'b\n', projectRoot: root }),
      signal: new AbortController().signal,
      timeoutMs: 1000,
    };
    let fail = true;
    const inner = counting(async () => {
      if (fail) throw new AvpError('judge-timeout', 'slow');
      return { verdict, judge: 'anthropic', model: 'm', usage: { inputTokens: 10, outputTokens: 2 } };
    });
    const judge = cachingJudge(inner, { model: 'm', maxBytes: 1 << 20 });
    await expect(judge.evaluate(req)).rejects.toThrow('slow');
    expect(existsSync(verdictCacheDir(root))).toBe(false);
    fail = false;
    const first = await judge.evaluate(req);
    expect(first.cached).toBeUndefined();
    expect(first.usage?.inputTokens).toBe(10);
    const second = await judge.evaluate(req);
    expect(inner.calls).toBe(2); // the failed call and the first verdict; the second came from the cache
    expect(second).toEqual({ verdict, judge: 'anthropic', model: 'm', cached: true });
    // another model: another entry
    await cachingJudge(inner, { model: 'other', maxBytes: 1 << 20 }).evaluate(req);
    expect(inner.calls).toBe(3);
  });
});

describe('concurrent writers', () => {
  test('4 processes writing and reading the same keys never see a torn entry', async () => {
    const dir = join(tempDir('avp-cache-'), 'verdicts');
    const script = `
      import { readVerdict, writeVerdict } from ${JSON.stringify(join(import.meta.dir, '../../../src/judges/cache.ts'))};
      const dir = process.argv[2];
      let bad = 0, hits = 0;
      for (let i = 0; i < 200; i++) {
        const key = 'k' + (i % 7);
        writeVerdict(dir, key, { judge: 'anthropic', verdict: { passed: i % 2 === 0, violations: [], summary: 'x'.repeat(2000 + i) } }, 40_000);
        const e = readVerdict(dir, 'k' + ((i + 3) % 7));
        if (e) { hits++; if (e.verdict.summary.length < 2000) bad++; }
      }
      console.log(JSON.stringify({ bad, hits }));
    `;
    const file = join(tempDir('avp-cache-script-'), 'w.ts');
    writeFileSync(file, script);
    const procs = Array.from({ length: 4 }, () =>
      Bun.spawn([process.execPath, file, dir], { stdout: 'pipe', stderr: 'pipe' }),
    );
    const outs = await Promise.all(
      procs.map(async (p) => ({
        out: await new Response(p.stdout).text(),
        err: await new Response(p.stderr).text(),
        code: await p.exited,
      })),
    );
    for (const o of outs) {
      expect(o.code).toBe(0);
      const r = JSON.parse(o.out);
      expect(r.bad).toBe(0);
      expect(r.hits).toBeGreaterThan(0);
    }
    // bounded: at most 40 KB of entries, no temp files left
    const left = readdirSync(dir);
    expect(left.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(left.length).toBeLessThanOrEqual(20);
  }, 30_000);
});
