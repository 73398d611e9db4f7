/**
 * What the recorder's tests (shortcut-record*.test.ts) share: a home, an avp home and a project on disk, and the
 * context a full hook call hands the recorder once it has answered, built from a real Claude Code input.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeClaudeEvent } from '../../../src/agents/claude/index.ts';
import type { HookAnswer, HookContext } from '../../../src/hook/context.ts';
import { recordShortcut } from '../../../src/hook/shortcut/record.ts';
import { envDigest, shortcutCall, shortcutPath } from '../../../src/hook/shortcut/shortcut-file.ts';
import type { ShortcutFile } from '../../../src/hook/shortcut/shortcut-file.ts';
import { seenPrint } from '../../../src/os/stat-print.ts';
import { tempDir } from '../../support/run-avp.ts';

/** A home, an avp home with both acceptance logs, and a project folder: what a memo's paths name. */
export function world() {
  const root = tempDir('avp-shortcut-record-');
  const home = join(root, 'home');
  const avp = join(home, '.avp');
  const project = join(root, 'project');
  const trust = { project: join(avp, 'trust/projects/p1'), user: join(avp, 'trust/user') };
  // The folder the shortcut counts calls in, as the full path's count makes it once validators are installed.
  const pending = join(project, '.avp/logs/pending-calls');
  for (const dir of [pending, trust.project, trust.user]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(trust.project, 'acceptances.jsonl'), '{"n":1}\n');
  writeFileSync(join(trust.user, 'acceptances.jsonl'), '{"n":1}\n{"n":2}\n');
  const env: NodeJS.ProcessEnv = { HOME: home, AVP_HOME: avp, CLAUDE_PROJECT_DIR: project };
  return { root, home, avp, project, pending, trust, env };
}
export type World = ReturnType<typeof world>;

export const print = (path: string) => seenPrint(statSync(path, { throwIfNoEntry: false }) ?? null);

/** The context of a full hook call that passed a Read after the tool ran, with `over` changed. */
export function contextFor(
  w: World,
  raw: Record<string, unknown> = {},
  over: Record<string, unknown> = {},
): HookContext {
  const input = {
    session_id: 's1',
    transcript_path: '/dev/null',
    cwd: w.project,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: join(w.project, 'a.ts') },
    ...raw,
  };
  // The environment and the normalized event are changed field by field; anything else is replaced whole.
  const { env: envOver, normalized: eventOver, ...rest } = over;
  const env = { ...w.env, ...(envOver as NodeJS.ProcessEnv) };
  const normalized = { ...normalizeClaudeEvent(input, env), ...(eventOver as object) };
  const seen: [string, string][] = [
    [w.project, print(w.project)],
    [join(w.trust.project, 'acceptances.jsonl'), print(join(w.trust.project, 'acceptances.jsonl'))],
    [join(w.avp, 'validators'), '-'],
  ];
  const ctx = {
    normalized,
    event: normalized,
    env,
    config: { disabled: false },
    view: { tellModel: false, memo: { seen, trust: w.trust } },
    installed: false,
    files: [],
    errors: [],
    matched: [],
    runs: [],
    carried: [],
    active: [],
    ...rest,
  };
  return ctx as unknown as HookContext;
}

export const passed = (over: Partial<HookAnswer> = {}): HookAnswer => ({
  stdout: '{}\n',
  exitCode: 0,
  notes: [],
  ...over,
});

export function recordOf(w: World, env: NodeJS.ProcessEnv = w.env): ShortcutFile | undefined {
  const path = shortcutPath(w.avp, envDigest(env));
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ShortcutFile) : undefined;
}

/** Records the call of `ctx` and says whether a record now covers it. */
export function recorded(w: World, ctx: HookContext, answer = passed()): boolean {
  recordShortcut(ctx, answer);
  const raw = ctx.normalized.raw as Record<string, unknown>;
  const call = shortcutCall(String(raw.hook_event_name), raw.tool_name as string | undefined, String(raw.cwd));
  return !!recordOf(w, ctx.env)?.calls.includes(call);
}
