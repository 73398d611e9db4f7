/**
 * The recorder of the hook shortcut (src/hook/shortcut/record.ts), held to each of its rules with the context a full
 * hook call hands it: which answers and calls it records. The binary's tests (test/integration/hook-shortcut*.test.ts)
 * drive the same rules through real calls; a mutation run of the recorder showed that answers the full path rarely
 * gives (an exit code, a note, a notice) were not held there, so each rule is held here against a context that
 * differs from a recorded one in that one thing. What a record stands on and how it grows: shortcut-record-basis.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HookAnswer } from '../../../src/hook/context.ts';
import { recordShortcut } from '../../../src/hook/shortcut/record.ts';
import { shortcutCall } from '../../../src/hook/shortcut/shortcut-file.ts';
import { stateRoot } from '../../../src/session/store.ts';
import { contextFor, passed, recorded, recordOf, world } from './shortcut-record-support.ts';

describe('a call the full path passed is recorded with what its answer stood on', () => {
  test('the call, the answer, the project folder, the acceptance logs, the session folder', () => {
    const w = world();
    const ctx = contextFor(w);
    expect(recorded(w, ctx)).toBe(true);
    const file = recordOf(w)!;
    const { dev, ino } = statSync(w.project);
    expect(file.calls).toEqual([shortcutCall('PostToolUse', 'Read', w.project)]);
    expect(file.stdout).toBe('{}\n');
    expect(file.root).toEqual({ dir: w.project, id: `${dev}:${ino}` });
    expect(file.projectRoot).toBe(ctx.normalized.projectRoot);
    expect(file.told).toEqual({ dir: join(w.trust.project, 'sessions'), project: 8, user: 16 });
    expect(file.sessions).toBe(stateRoot(ctx.normalized.projectRoot, w.env));
    expect(file.installed).toBe(false);
    expect(file.stopCheck).toBe(false);
  });

  test('a project folder gone by the time the answer is recorded: nothing recorded', () => {
    const w = world();
    const ctx = contextFor(w);
    rmSync(w.project, { recursive: true });
    expect(recorded(w, ctx)).toBe(false);
  });

  test('an avp home not plainly spelled, or not where avp keeps its state: nothing recorded', () => {
    const w = world();
    expect(recorded(w, contextFor(w, {}, { env: { AVP_HOME: `${w.avp}/` } }))).toBe(false);
    expect(recorded(w, contextFor(w, {}, { env: { AVP_HOME: '' } }))).toBe(false);
    expect(readdirSync(w.avp)).not.toContain('cache');
  });
});

describe('answers that are never recorded', () => {
  const cases: [string, Partial<HookAnswer>][] = [
    ['an exit code other than 0', { exitCode: 2 }],
    ["the answer's own stderr", { stderr: 'refused' }],
    ['a note for stderr', { notes: ['avp: the run log could not be written'] }],
  ];
  test.each(cases)('%s', (_, over) => {
    const w = world();
    expect(recorded(w, contextFor(w), passed(over))).toBe(false);
    expect(recorded(w, contextFor(w), passed())).toBe(true);
  });

  const states: [string, Record<string, unknown>][] = [
    ['a notice of pending changes', { view: { notice: 'validators changed', tellModel: false } }],
    ['the model told of pending changes', { view: { tellModel: true } }],
    ['a managed policy', { config: { disabled: false, policy: { files: [], required: [], notes: [] } } }],
    ['the kill switch', { config: { disabled: true } }],
    ["avp's own configuration problem", { problem: new Error('config.json: bad') }],
  ];
  test.each(states)('%s', (_, over) => {
    const w = world();
    const ctx = contextFor(w);
    const view = over.view ? { ...(ctx.view as object), ...(over.view as object) } : ctx.view;
    expect(recorded(w, contextFor(w, {}, { ...over, view }))).toBe(false);
    expect(recorded(w, contextFor(w))).toBe(true);
  });
});

describe('calls that are never recorded', () => {
  test.each(['AVP_SUBAGENT', 'AVP_DISABLE', 'AVP_PROFILE', 'AVP_DEBUG', 'AVP_NO_CACHE'])(
    '%s set (set empty, it is off: recorded)',
    (name) => {
      const w = world();
      expect(recorded(w, contextFor(w, {}, { env: { [name]: '1' } }))).toBe(false);
      expect(recorded(w, contextFor(w, {}, { env: { [name]: '' } }))).toBe(true);
    },
  );

  test('a stateless event', () => {
    const w = world();
    expect(recorded(w, contextFor(w, {}, { normalized: { stateless: true } }))).toBe(false);
  });

  test('a Write after the tool ran: recorded with nothing installed, never once session tracking records it', () => {
    const w = world();
    const write = { tool_name: 'Write', tool_input: { file_path: join(w.project, 'a.ts'), content: 'x' } };
    expect(recorded(w, contextFor(w, write, { installed: true }))).toBe(false);
    expect(recorded(w, contextFor(w, write, { installed: false }))).toBe(true);
    // A Read is recorded either way (nothing installed concerns it).
    expect(recorded(w, contextFor(w, {}, { installed: true }))).toBe(true);
  });

  test('a before-tool Write (the guard reads it)', () => {
    const w = world();
    const write = { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: 'a.ts', content: '' } };
    expect(recorded(w, contextFor(w, write))).toBe(false);
  });

  // Claude Code's adapter refuses such input before any stage runs; the recorder does not rely on it: here the
  // normalized event says what the input said, so only the recorder's own test of the input can refuse it.
  const raws: [string, Record<string, unknown>][] = [
    ['a session id that is not a string', { session_id: 7 }],
    ['an empty session id', { session_id: '' }],
    ['a cwd that is not a string', { cwd: ['/'] }],
    ['an event name that is not a string', { hook_event_name: { name: 'PostToolUse' } }],
    ['a tool name that is not a string', { tool_name: 3 }],
  ];
  test.each(raws)('%s, as the agent sent it', (_, raw) => {
    const w = world();
    const sent = { ...(contextFor(w).normalized.raw as object), ...raw };
    const sessionId = 'session_id' in raw ? raw.session_id : 's1';
    recordShortcut(contextFor(w, {}, { normalized: { raw: sent, sessionId, stateless: false } }), passed());
    expect(recordOf(w)).toBeUndefined();
  });

  test('a session id other than the one the adapter read', () => {
    const w = world();
    expect(recorded(w, contextFor(w, {}, { normalized: { sessionId: 's2' } }))).toBe(false);
  });

  test('an event that names no tool is recorded under no tool', () => {
    const w = world();
    const ctx = contextFor(w, { hook_event_name: 'Notification', tool_name: undefined, tool_input: undefined });
    recordShortcut(ctx, passed());
    expect(recordOf(w)!.calls).toEqual([shortcutCall('Notification', undefined, w.project)]);
  });
});
