/**
 * What a hook shortcut record stands on and how it grows (src/hook/shortcut/record.ts): with validators installed,
 * only calls none of them could concern; the paths the memo found missing folded into the folders above them; one
 * record per basis, extended call by call up to its limit; stale records of other environments removed. Which
 * answers and calls are recorded at all: shortcut-record.test.ts.
 */
import { afterEach, describe, expect, setSystemTime, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordShortcut } from '../../../src/hook/shortcut/record.ts';
import { MAX_CALLS, shortcutCall } from '../../../src/hook/shortcut/shortcut-file.ts';
import { RACY_MS } from '../../../src/validator/cache.ts';
import { specValidator as validator } from '../validator/helpers.ts';
import { contextFor, passed, print, recorded, recordOf, world, type World } from './shortcut-record-support.ts';

afterEach(() => setSystemTime());

describe('with validators installed, a call none of them could concern', () => {
  const findings = { status: 'pass', id: 'v' };
  const ran: [string, Record<string, unknown>][] = [
    ['the call changed files', { files: [{ path: '/p/a.ts', relPath: 'a.ts', inProject: true, kind: 'update' }] }],
    ['a validator could not be loaded', { errors: [{ path: '/p/.avp/validators/x.md', message: 'bad' }] }],
    ['a validator matched', { matched: [validator('m', { match: { tools: ['Read'] } })] }],
    ['a validator ran', { runs: [findings] }],
    ['findings were carried', { carried: [findings] }],
  ];
  test.each(ran)('%s: never recorded', (_, over) => {
    const w = world();
    expect(recorded(w, contextFor(w, {}, { installed: true, ...over }))).toBe(false);
    expect(recorded(w, contextFor(w, {}, over))).toBe(true);
  });

  test('an enabled validator of this tool, whatever files it watches: never recorded; of another tool: recorded', () => {
    const w = world();
    const watching = validator('py', { match: { tools: ['Read'], files: ['**/*.py'] } });
    const other = validator('fetch', { match: { tools: ['WebFetch'] } });
    expect(recorded(w, contextFor(w, {}, { installed: true, active: [watching, other] }))).toBe(false);
    expect(recorded(w, contextFor(w, {}, { installed: true, active: [other] }))).toBe(true);
    expect(recordOf(w)!.installed).toBe(true);
  });

  test('the record names the folder the call is counted in: a folder, never a link, nor a missing one', () => {
    const w = world();
    const other = validator('fetch', { match: { tools: ['WebFetch'] } });
    const installed = () => contextFor(w, {}, { installed: true, active: [other] });
    rmSync(w.pending, { recursive: true });
    expect(recorded(w, installed())).toBe(false);
    mkdirSync(join(w.root, 'elsewhere'));
    symlinkSync(join(w.root, 'elsewhere'), w.pending);
    expect(recorded(w, installed())).toBe(false);
    rmSync(w.pending);
    mkdirSync(w.pending);
    expect(recorded(w, installed())).toBe(true);
    const s = statSync(w.pending);
    expect(recordOf(w)!.pending).toEqual({ dir: w.pending, id: `${s.dev}:${s.ino}` });
    // With nothing installed no call is counted: no folder is named (the shortcut counts where one is), none needed.
    const bare = world();
    expect(recorded(bare, contextFor(bare))).toBe(true);
    expect(recordOf(bare)!.pending).toBeUndefined();
    rmSync(bare.pending, { recursive: true });
    expect(recorded(bare, contextFor(bare, { tool_name: 'Grep' }))).toBe(true);
    expect(recordOf(bare)!.pending).toBeUndefined();
  });

  test('a Stop validator installed: the record says a turn that ended must go to the full path', () => {
    const stop = validator('stop', { trigger: 'Stop' });
    const cases: [boolean, unknown[], boolean][] = [
      [true, [stop], true],
      [true, [validator('fetch', { match: { tools: ['WebFetch'] } })], false],
      [false, [stop], false],
    ];
    for (const [installed, active, stopCheck] of cases) {
      const w = world();
      expect(recorded(w, contextFor(w, {}, { installed, active }))).toBe(true);
      expect(recordOf(w)!.stopCheck).toBe(stopCheck);
    }
  });
});

describe('the paths the memo found missing, folded into the folders above them', () => {
  /** A memo that also found `missing` missing. */
  const withMissing = (w: World, missing: string[]) => {
    const ctx = contextFor(w);
    ctx.view.memo!.seen.push(...missing.map((path): [string, string] => [path, '-']));
    return ctx;
  };
  const seenOf = (w: World) => new Map(recordOf(w)!.seen);

  test('a folder that has not changed for a while stands for the paths missing under it, however deep', () => {
    const w = world();
    const agent = join(w.home, '.agent');
    mkdirSync(agent);
    setSystemTime(new Date(Date.now() + RACY_MS + 1000));
    expect(recorded(w, withMissing(w, [join(agent, 'hooks.json'), join(agent, 'a/b/settings.json')]))).toBe(true);
    const seen = seenOf(w);
    expect(seen.get(agent)).toBe(print(agent));
    expect(seen.has(join(agent, 'hooks.json'))).toBe(false);
    expect(seen.has(join(agent, 'a/b/settings.json'))).toBe(false);
    expect(seen.has(w.home)).toBe(false);
  });

  test('a folder changed in the last moments does not, whatever its mtime says: the path is kept itself', () => {
    const w = world();
    const agent = join(w.home, '.agent');
    const backdated = join(w.home, '.backdated');
    mkdirSync(agent);
    mkdirSync(backdated);
    // `touch -d` sets the mtime back; the ctime, which only the kernel sets, still says it just changed.
    const dayAgo = new Date(Date.now() - 86_400_000);
    utimesSync(backdated, dayAgo, dayAgo);
    const missing = [join(agent, 'hooks.json'), join(backdated, 'hooks.json')];
    expect(recorded(w, withMissing(w, missing))).toBe(true);
    const seen = seenOf(w);
    for (const path of missing) expect(seen.get(path)).toBe('-');
    expect(seen.has(agent) || seen.has(backdated)).toBe(false);
  });

  test("avp's own home never stands for the paths under it, old or not", () => {
    const w = world();
    setSystemTime(new Date(Date.now() + RACY_MS + 1000));
    expect(recorded(w, withMissing(w, [join(w.avp, 'config.json')]))).toBe(true);
    const seen = seenOf(w);
    expect(seen.get(join(w.avp, 'config.json'))).toBe('-');
    expect(seen.has(w.avp)).toBe(false);
  });

  test('a path under a folder already in the memo adds nothing', () => {
    const w = world();
    expect(recorded(w, withMissing(w, [join(w.project, '.claude/settings.json')]))).toBe(true);
    expect(recordOf(w)!.seen.map(([path]) => path)).toEqual(contextFor(w).view.memo!.seen.map(([path]) => path));
  });

  test('a path the memo found missing that is there now: nothing recorded', () => {
    const w = world();
    const agent = join(w.home, '.agent');
    mkdirSync(agent);
    writeFileSync(join(agent, 'hooks.json'), '{}');
    expect(recorded(w, withMissing(w, [join(agent, 'hooks.json')]))).toBe(false);
    expect(existsSync(join(w.avp, 'cache'))).toBe(false);
  });
});

describe('one record per basis, extended call by call', () => {
  const mcp = (i: number) => ({ tool_name: `mcp__srv__tool${i}`, tool_input: {} });

  test('another call on the same basis joins the record; the same call again leaves it as it is', () => {
    const w = world();
    expect(recorded(w, contextFor(w))).toBe(true);
    expect(recorded(w, contextFor(w, mcp(1)))).toBe(true);
    const calls = [
      shortcutCall('PostToolUse', 'Read', w.project),
      shortcutCall('PostToolUse', 'mcp__srv__tool1', w.project),
    ];
    expect(recordOf(w)!.calls).toEqual(calls);
    const path = join(w.avp, 'cache/hook', readdirSync(join(w.avp, 'cache/hook'))[0]!);
    const before = statSync(path).ino;
    recordShortcut(contextFor(w), passed());
    expect(statSync(path).ino).toBe(before);
  });

  test('another answer or acceptance log starts the record again with this call alone', () => {
    const w = world();
    recordShortcut(contextFor(w, mcp(1)), passed());
    recordShortcut(contextFor(w), passed({ stdout: '{"continue":true}\n' }));
    expect(recordOf(w)!.calls).toEqual([shortcutCall('PostToolUse', 'Read', w.project)]);
    writeFileSync(join(w.trust.user, 'acceptances.jsonl'), '{"n":1}\n{"n":2}\n{"n":3}\n');
    recordShortcut(contextFor(w, mcp(2)), passed({ stdout: '{"continue":true}\n' }));
    expect(recordOf(w)!.calls).toEqual([shortcutCall('PostToolUse', 'mcp__srv__tool2', w.project)]);
  });

  test(`at most ${MAX_CALLS} calls: the oldest is dropped`, () => {
    const w = world();
    for (let i = 0; i <= MAX_CALLS; i++) recordShortcut(contextFor(w, mcp(i)), passed());
    const calls = recordOf(w)!.calls;
    expect(calls.length).toBe(MAX_CALLS);
    expect(calls[0]).toBe(shortcutCall('PostToolUse', 'mcp__srv__tool1', w.project));
    expect(calls.at(-1)).toBe(shortcutCall('PostToolUse', `mcp__srv__tool${MAX_CALLS}`, w.project));
  });

  test("a new record removes other environments' records untouched for a week; an extended one removes none", () => {
    const w = world();
    const dir = join(w.avp, 'cache/hook');
    mkdirSync(dir, { recursive: true });
    const aged = (name: string, days: number) => {
      writeFileSync(join(dir, name), '{}');
      const t = new Date(Date.now() - days * 86_400_000);
      utimesSync(join(dir, name), t, t);
    };
    aged('shortcut-old.json', 8);
    aged('shortcut-recent.json', 6);
    aged('memo-old.json', 30);
    recordShortcut(contextFor(w), passed());
    const names = readdirSync(dir);
    expect(names).not.toContain('shortcut-old.json');
    expect(names).toContain('shortcut-recent.json');
    expect(names).toContain('memo-old.json');
    aged('shortcut-old.json', 8);
    recordShortcut(contextFor(w, mcp(1)), passed());
    expect(readdirSync(dir)).toContain('shortcut-old.json');
  });

  test('a home where the record cannot be written: the call is answered all the same (nothing thrown)', () => {
    const w = world();
    writeFileSync(join(w.avp, 'cache'), 'a file where the cache folder would be');
    expect(() => recordShortcut(contextFor(w), passed())).not.toThrow();
    expect(recordOf(w)).toBeUndefined();
  });
});
