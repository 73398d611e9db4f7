/**
 * The calls the hook shortcut counts as files of their own (src/stats/pending-calls.ts): folded into their days'
 * counter files by a full-path call at a turn's edge and read by `avp stats` until then — and, since the folder sits
 * where the agent can write, nothing else in it read, followed or removed.
 */
import { describe, expect, test } from 'bun:test';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import {
  callKey,
  callLine,
  callsFile,
  isPendingName,
  pendingDirOf,
  pendingName,
} from '../../../src/stats/call-line.ts';
import { countCall } from '../../../src/stats/calls.ts';
import { foldPending, MAX_PENDING_BYTES, pendingFiles, readPending } from '../../../src/stats/pending-calls.ts';
import { readLogs } from '../../../src/stats/read.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { tempDir } from '../../support/run-avp.ts';

/** A project whose logs folder and pending folder exist, as the full path's first count leaves them. */
function projectWithPending() {
  const root = tempDir('avp-pending-calls-');
  const pending = pendingDirOf(root);
  mkdirSync(pending, { recursive: true });
  const logs = join(root, '.avp', 'logs');
  const pend = (key: string, when: string) => {
    const name = pendingName();
    writeFileSync(join(pending, name), callLine('PostToolUse', key, new Date(when)));
    return join(pending, name);
  };
  return { root, pending, logs, pend };
}

const linesOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).call);
/** Sets a file's times two minutes back: past the minute a file that may be being written is left alone. */
const aged = (path: string) => utimesSync(path, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));

describe('pending calls', () => {
  test('named at random, and only such names are taken for one', () => {
    const names = new Set(Array.from({ length: 100 }, pendingName));
    expect(names.size).toBe(100);
    for (const name of names) expect(isPendingName(name)).toBe(true);
    const upper = pendingName().toUpperCase().replace('.CALL', '.call');
    for (const name of ['x.call', `../${pendingName()}`, `${pendingName()}.tmp`, upper, 'calls-2026-11-27.jsonl'])
      expect(isPendingName(name)).toBe(false);
  });

  test('folded into the counter file of their own day, then removed; the day’s earlier lines kept', () => {
    const p = projectWithPending();
    writeFileSync(callsFile(p.root, new Date('2026-11-26T10:00:00Z')), callLine('Stop', 'before', new Date()));
    p.pend('a', '2026-11-26T23:59:59Z');
    p.pend('b', '2026-11-27T00:00:01Z');
    p.pend('c', '2026-11-27T08:00:00Z');
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.pending)).toEqual([]);
    expect(linesOf(join(p.logs, 'calls-2026-11-26.jsonl'))).toEqual(['before', 'a']);
    expect(linesOf(join(p.logs, 'calls-2026-11-27.jsonl')).sort()).toEqual(['b', 'c']);
  });

  test('only a counted call is folded: a time, a key; a file of exactly the limit is still read', () => {
    const p = projectWithPending();
    const odd = [
      '{"ts": 2026, "call": "a year as a number"}',
      '{"ts": "2026-11-27T08:00:00Z", "call": ""}',
      '{"ts": "2026-11-27T08:00:00Z", "call": 5}',
      '{"ts": "yesterday", "call": "k"}',
      '[1]',
      'null',
    ];
    for (const text of odd) writeFileSync(join(p.pending, pendingName()), text);
    for (const name of readdirSync(p.pending)) aged(join(p.pending, name));
    const full = p.pend('full', '2026-11-27T08:00:00Z');
    const line = readFileSync(full, 'utf8').trim();
    writeFileSync(full, `${line}${' '.repeat(MAX_PENDING_BYTES - line.length)}`);
    expect(statSync(full).size).toBe(MAX_PENDING_BYTES);
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.logs).filter((n) => n.startsWith('calls-'))).toEqual(['calls-2026-11-27.jsonl']);
    expect(linesOf(join(p.logs, 'calls-2026-11-27.jsonl'))).toEqual(['full']);
    expect(readdirSync(p.pending)).toEqual([]);
  });

  test('a day whose counter cannot be written keeps its pending calls; the other days are folded', () => {
    const p = projectWithPending();
    mkdirSync(callsFile(p.root, new Date('2026-11-26T00:00:00Z')));
    const stuck = p.pend('stuck', '2026-11-26T08:00:00Z');
    p.pend('moved', '2026-11-27T08:00:00Z');
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.pending)).toEqual([basename(stuck)]);
    expect(linesOf(join(p.logs, 'calls-2026-11-27.jsonl'))).toEqual(['moved']);
  });

  test('the counter’s paths and keys: a root spelled with a trailing slash, a key too long to be a tool call’s', () => {
    const p = projectWithPending();
    expect(pendingDirOf(`${p.root}/`)).toBe(p.pending);
    expect(callsFile(`${p.root}/`, new Date('2026-11-27T08:00:00Z'))).toBe(join(p.logs, 'calls-2026-11-27.jsonl'));
    const event = (id: unknown) => ({ event: 'PostToolUse', raw: { tool_use_id: id } });
    expect(callKey(event('toolu_1'), 5)).toBe('toolu_1');
    expect(callKey(event('t'.repeat(200)), 5)).toBe('t'.repeat(200));
    for (const id of ['t'.repeat(201), '', 7, ['toolu_1'], undefined])
      expect(callKey(event(id), 5)).toBe(`PostToolUse-${process.pid}-5`);
  });

  test('the full path counts its own call first; the pending ones wait for the turn’s edge, where they are folded', () => {
    const p = projectWithPending();
    p.pend('read', '2026-11-27T08:00:00Z');
    const at = (event: string) => ({ event, projectRoot: p.root, raw: {} }) as unknown as HookEvent;
    countCall(at('PreToolUse'), 'write', new Date('2026-11-27T08:00:05Z'));
    expect(linesOf(join(p.logs, 'calls-2026-11-27.jsonl'))).toEqual(['write']);
    expect(readdirSync(p.pending)).toHaveLength(1);
    countCall(at('Stop'), 'stop', new Date('2026-11-27T08:00:09Z'));
    expect(linesOf(join(p.logs, 'calls-2026-11-27.jsonl'))).toEqual(['write', 'stop', 'read']);
    expect(readdirSync(p.pending)).toEqual([]);
    for (const edge of ['SubagentStop', 'SessionStart', 'SessionEnd']) {
      p.pend(edge, '2026-11-27T08:00:00Z');
      countCall(at(edge), `${edge}-call`, new Date('2026-11-27T08:00:10Z'));
      expect(readdirSync(p.pending)).toEqual([]);
    }
    for (const mid of ['PostToolUse', 'UserPromptSubmit', 'Notification', 'PermissionRequest']) {
      p.pend(mid, '2026-11-27T08:00:00Z');
      countCall(at(mid), `${mid}-call`, new Date('2026-11-27T08:00:10Z'));
    }
    expect(readdirSync(p.pending)).toHaveLength(4);
  });

  test('at a turn’s edge up to 1,024 are folded; mid-turn only a backlog of 256, 128 at a time; `avp stats` reads all', () => {
    const p = projectWithPending();
    for (let i = 0; i < 255; i++) p.pend(`k${i}`, '2026-11-27T08:00:00Z');
    foldPending(p.root, 'mid-turn');
    expect(readdirSync(p.pending)).toHaveLength(255);
    p.pend('k255', '2026-11-27T08:00:00Z');
    foldPending(p.root, 'mid-turn');
    expect(readdirSync(p.pending)).toHaveLength(256 - 128);
    expect(linesOf(join(p.logs, 'calls-2026-11-27.jsonl'))).toHaveLength(128);
    for (let i = 256; i < 1200; i++) p.pend(`k${i}`, '2026-11-27T08:00:00Z');
    expect(readLogs(p.logs).calls).toHaveLength(1200);
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.pending)).toHaveLength(1200 - 128 - 1024);
    expect(readLogs(p.logs).calls).toHaveLength(1200);
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.pending)).toEqual([]);
    expect(new Set(linesOf(join(p.logs, 'calls-2026-11-27.jsonl'))).size).toBe(1200);
  });

  test('a path that cannot be a folder (a file on the way) holds no pending calls, and a fold there does nothing', () => {
    const root = tempDir('avp-pending-calls-file-');
    mkdirSync(join(root, '.avp'));
    writeFileSync(join(root, '.avp', 'logs'), 'not a folder');
    expect(pendingFiles(pendingDirOf(root))).toEqual([]);
    foldPending(root, 'turn-edge');
    // `avp stats` says what is wrong there, and what to do, rather than failing on the listing.
    expect(() => readLogs(join(root, '.avp', 'logs'))).toThrow(
      expect.objectContaining({ code: 'logs-not-a-folder', file: join(root, '.avp', 'logs') }),
    );
    expect(readFileSync(join(root, '.avp', 'logs'), 'utf8')).toBe('not a folder');
  });

  test('a missing folder is made, so the shortcut has somewhere to count; none without a logs folder', () => {
    const p = projectWithPending();
    const bare = tempDir('avp-pending-calls-bare-');
    Bun.spawnSync(['rmdir', p.pending]);
    foldPending(p.root, 'turn-edge');
    expect(existsSync(p.pending)).toBe(true);
    Bun.spawnSync(['rmdir', p.pending]);
    foldPending(p.root, 'mid-turn');
    expect(existsSync(p.pending)).toBe(true);
    foldPending(bare, 'turn-edge');
    foldPending(bare, 'mid-turn');
    expect(existsSync(pendingDirOf(bare))).toBe(false);
  });

  test('other names, links and oversized files are never read or followed; what is no call goes once it is old', () => {
    const p = projectWithPending();
    const outside = join(tempDir('avp-pending-calls-out-'), 'secret.json');
    writeFileSync(outside, callLine('PostToolUse', 'outside', new Date()));
    symlinkSync(outside, join(p.pending, pendingName()));
    writeFileSync(join(p.pending, 'notes.txt'), callLine('PostToolUse', 'unnamed', new Date()));
    const big = p.pend('big', '2026-11-27T08:00:00Z');
    writeFileSync(big, `${readFileSync(big, 'utf8').trim()}${' '.repeat(MAX_PENDING_BYTES)}\n`);
    const young = join(p.pending, pendingName());
    writeFileSync(young, '');
    const old = join(p.pending, pendingName());
    writeFileSync(old, '{"ts": "never"}');
    aged(old);
    aged(big);
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.logs).filter((n) => n.startsWith('calls-'))).toEqual([]);
    const left = readdirSync(p.pending);
    expect(left).toContain('notes.txt');
    expect(left).toContain(basename(young));
    expect(left).not.toContain(basename(old));
    expect(left).not.toContain(basename(big));
    expect(left).toHaveLength(3);
    expect(readFileSync(outside, 'utf8')).toContain('"outside"');
  });

  test('read without following a link, without waiting on a pipe, and no further than a counter line', () => {
    const p = projectWithPending();
    const outside = join(tempDir('avp-pending-calls-out-'), 'secret.json');
    writeFileSync(outside, callLine('PostToolUse', 'outside', new Date()));
    const link = join(p.pending, pendingName());
    symlinkSync(outside, link);
    const pipe = join(p.pending, pendingName());
    expect(Bun.spawnSync(['mkfifo', pipe]).exitCode).toBe(0);
    const big = p.pend('big', '2026-11-27T08:00:00Z');
    writeFileSync(big, 'x'.repeat(MAX_PENDING_BYTES + 1));
    const fits = p.pend('fits', '2026-11-27T08:00:00Z');
    // A pipe opened to read waits for a writer; a listing taken before it was put there would not know.
    expect(readPending(pipe)).toBeUndefined();
    expect(readPending(link)).toBeUndefined();
    expect(readPending(big)).toEqual({ mtimeMs: statSync(big).mtimeMs });
    expect(readPending(fits)?.text).toContain('"fits"');
    // Every descriptor it opens is closed, whatever it found (the hook process runs on after a fold).
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) for (const f of [link, pipe, big, fits]) readPending(f);
    expect(open()).toBe(before);
    expect(pendingFiles(p.pending).sort()).toEqual([big, fits].sort());
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(p.pending).sort()).toEqual([link, pipe, big].map((f) => basename(f)).sort());
  });

  test('the folder made a link to another folder: nothing there is read or removed', () => {
    const p = projectWithPending();
    const elsewhere = tempDir('avp-pending-calls-elsewhere-');
    const name = pendingName();
    writeFileSync(join(elsewhere, name), callLine('PostToolUse', 'elsewhere', new Date()));
    Bun.spawnSync(['rmdir', p.pending]);
    symlinkSync(elsewhere, p.pending);
    foldPending(p.root, 'turn-edge');
    expect(readdirSync(elsewhere)).toEqual([name]);
    expect(readdirSync(p.logs).filter((n) => n.startsWith('calls-'))).toEqual([]);
    expect(readLogs(p.logs).calls).toEqual([]);
  });

  test('`avp stats` reads them before they are folded, and names one that is not a call', () => {
    const p = projectWithPending();
    writeFileSync(callsFile(p.root, new Date('2026-11-27T07:00:00Z')), callLine('Stop', 'folded', new Date()));
    p.pend('waiting', '2026-11-26T08:00:00Z');
    const bad = join(p.pending, pendingName());
    writeFileSync(bad, 'not json\n');
    const data = readLogs(p.logs);
    expect(data.calls.map((c) => c.call).sort()).toEqual(['folded', 'waiting']);
    // The counter covers the days from the oldest call it holds, pending ones included.
    const run = { ts: '2026-11-26T09:00:00Z', validator: 'v', status: 'passed', durationMs: 1, call: 'waiting' };
    writeFileSync(join(p.logs, 'hook-2026-11-26.jsonl'), `${JSON.stringify(run)}\n`);
    expect(readLogs(p.logs).counted).toBe(true);
    expect(data.skipped).toEqual([{ file: bad, line: 1, reason: 'not JSON (a line cut short?)' }]);
  });
});
