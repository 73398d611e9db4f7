import { describe, expect, test } from 'bun:test';
import { writeFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { prepareEvent, stopGuard } from '../../../src/session/session.ts';
import { turnChanges } from '../../../src/session/turn.ts';
import type { SessionRecord } from '../../../src/session/store.ts';
import { config, ev, tempProject } from './helpers.ts';

function write(root: string, rel: string, before: string | null, after: string, extra: Record<string, unknown> = {}) {
  writeFileSync(join(root, rel), after);
  return ev(root, 'PostToolUse', {
    tool: 'Write',
    raw: { ...extra },
    files: [
      {
        path: join(root, rel),
        relPath: rel,
        inProject: true,
        kind: before === null ? 'create' : 'update',
        before,
        after,
      },
    ],
  });
}

describe('turn tracking', () => {
  test('Stop sees every file changed in the turn: first before, current after, one diff per file', async () => {
    const root = tempProject();
    const cfg = config();
    writeFileSync(join(root, 'a.ts'), 'v1\n');
    await prepareEvent(ev(root, 'UserPromptSubmit'), cfg);
    await prepareEvent(write(root, 'a.ts', 'v1\n', 'v2\n'), cfg);
    await prepareEvent(write(root, 'a.ts', 'v2\n', 'v3\n'), cfg);
    await prepareEvent(write(root, 'new.ts', null, 'hello\n'), cfg);
    const stop = await prepareEvent(ev(root, 'Stop', { stopHookActive: false }), cfg);
    const byRel = Object.fromEntries(stop.files.map((f) => [f.relPath, f]));
    expect(Object.keys(byRel).sort()).toEqual(['a.ts', 'new.ts']);
    expect(byRel['a.ts']!.before).toBe('v1\n');
    expect(byRel['a.ts']!.after).toBe('v3\n');
    expect(byRel['a.ts']!.kind).toBe('update');
    expect(byRel['a.ts']!.diff).toContain('-v1\n+v3\n');
    expect(byRel['new.ts']!.kind).toBe('create');
    expect(byRel['new.ts']!.diff).toContain('--- /dev/null');
  });

  test('a new prompt starts a new turn; a passed Stop ends the turn; a blocked Stop keeps it', async () => {
    const root = tempProject();
    const cfg = config();
    await prepareEvent(write(root, 'old.ts', null, 'x\n'), cfg);
    await prepareEvent(ev(root, 'UserPromptSubmit'), cfg);
    await prepareEvent(write(root, 'a.ts', null, 'a\n'), cfg);
    let stop = await prepareEvent(ev(root, 'Stop', { raw: { n: 1 } }), cfg);
    expect(stop.files.map((f) => f.relPath)).toEqual(['a.ts']);
    // Blocked: the agent continues and its next change belongs to the same turn.
    expect((await stopGuard(stop, true, cfg)).block).toBe(true);
    await prepareEvent(write(root, 'b.ts', null, 'b\n'), cfg);
    stop = await prepareEvent(ev(root, 'Stop', { stopHookActive: true, raw: { n: 2 } }), cfg);
    expect(stop.files.map((f) => f.relPath).sort()).toEqual(['a.ts', 'b.ts']);
    expect((await stopGuard(stop, false, cfg)).block).toBe(false);
    // Passed: the next changes start a new turn even without a UserPromptSubmit hook.
    await prepareEvent(write(root, 'c.ts', null, 'c\n'), cfg);
    stop = await prepareEvent(ev(root, 'Stop', { raw: { n: 3 } }), cfg);
    expect(stop.files.map((f) => f.relPath)).toEqual(['c.ts']);
    // A Stop right after a passed Stop: nothing changed in between.
    stop = await prepareEvent(ev(root, 'Stop', { raw: { n: 4 } }), cfg);
    expect(stop.files).toEqual([]);
  });

  test('a file restored to its original content, or created then deleted, is not a change of the turn', async () => {
    const root = tempProject();
    const cfg = config();
    await prepareEvent(write(root, 'a.ts', 'same\n', 'changed\n'), cfg);
    await prepareEvent(write(root, 'a.ts', 'changed\n', 'same\n'), cfg);
    await prepareEvent(write(root, 'tmp.ts', null, 'tmp\n'), cfg);
    unlinkSync(join(root, 'tmp.ts'));
    const stop = await prepareEvent(ev(root, 'Stop'), cfg);
    expect(stop.files).toEqual([]);
  });

  test("SubagentStop sees only its sub-agent's changes; the main Stop sees all of them", async () => {
    const root = tempProject();
    const cfg = config();
    await prepareEvent(ev(root, 'UserPromptSubmit'), cfg);
    await prepareEvent(write(root, 'main.ts', null, 'm\n'), cfg);
    await prepareEvent(write(root, 'sub.ts', null, 's\n', { agent_id: 'ag1', agent_type: 'general' }), cfg);
    const sub = await prepareEvent(ev(root, 'SubagentStop', { raw: { agent_id: 'ag1' } }), cfg);
    expect(sub.files.map((f) => f.relPath)).toEqual(['sub.ts']);
    const main = await prepareEvent(ev(root, 'Stop'), cfg);
    expect(main.files.map((f) => f.relPath).sort()).toEqual(['main.ts', 'sub.ts']);
  });

  test('sessions are separate, and an event without a session id is left alone', async () => {
    const root = tempProject();
    const cfg = config();
    await prepareEvent(write(root, 'a.ts', null, 'a\n'), cfg);
    const other = await prepareEvent(ev(root, 'Stop', { sessionId: 'other' }), cfg);
    expect(other.files).toEqual([]);
    const none = ev(root, 'Stop', { sessionId: undefined });
    expect(await prepareEvent(none, cfg)).toBe(none);
  });

  test('turnChanges over raw records', () => {
    const c = (path: string, agent?: string): SessionRecord => ({
      t: 'change',
      ts: 0,
      path,
      rel: path,
      in: true,
      kind: 'update',
      ...(agent ? { agent } : {}),
    });
    const recs: SessionRecord[] = [
      c('x'),
      { t: 'turn', ts: 0, reason: 'prompt' },
      c('a'),
      { t: 'stop', ts: 0, agent: 'sub' },
      c('b'),
      { t: 'stop', ts: 0 },
      { t: 'stop-block', ts: 0 },
      c('d'),
    ];
    expect(turnChanges(recs, undefined).map((r) => (r as { path: string }).path)).toEqual(['a', 'b', 'd']);
    expect(
      turnChanges([...recs, { t: 'stop', ts: 0 }, c('e')], undefined).map((r) => (r as { path: string }).path),
    ).toEqual(['e']);
  });
});
