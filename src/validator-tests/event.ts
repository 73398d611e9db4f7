/**
 * A test case as the hook event an agent would send: a Write (or an Edit when the case gives `before`) of its file,
 * a shell command, a prompt, or a Stop over the turn's files. The files live under a project folder of the test's
 * own, outside the user's project, so a script reading the disk sees the case and nothing else.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { diffTexts } from '../file-changes/diff.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import { TOOL_TRIGGERS, type Validator } from '../validator/types.ts';
import type { TestCase } from './cases.ts';

async function change(root: string, f: TestCase['files'][number]): Promise<FileChange> {
  const before = f.before ?? null;
  return {
    path: join(root, f.path),
    relPath: f.path,
    inProject: true,
    kind: before === null ? 'create' : 'update',
    before,
    after: f.content,
    diff: await diffTexts(f.path, before, f.content),
  };
}

/** The tool a file case stands for: the case's, else Write (Edit when it has a before), if the validator takes it. */
function fileTool(c: TestCase, v: Validator): string {
  if (c.tool) return c.tool;
  const edit = c.files[0]?.before !== undefined;
  const wanted = edit ? 'Edit' : 'Write';
  const tools = v.spec.match?.tools;
  return !tools?.length || tools.some((t) => new RegExp(`^(?:${t})$`).test(wanted)) ? wanted : (tools[0] ?? wanted);
}

/**
 * The event of one case for validator `v`, its files written under `root` as the event's timing has them: after a
 * PostToolUse or at a Stop the new content is on disk; before a PreToolUse the old content (or nothing).
 */
export async function caseEvent(c: TestCase, v: Validator, root: string): Promise<HookEvent> {
  const event = c.event ?? v.spec.trigger;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const files = await Promise.all(c.files.map((f) => change(root, f)));
  for (const f of c.files) {
    const text = event === 'PreToolUse' || event === 'PermissionRequest' ? f.before : f.content;
    if (text === undefined) continue;
    mkdirSync(dirname(join(root, f.path)), { recursive: true });
    writeFileSync(join(root, f.path), text);
  }
  const base = { agent: 'claude' as const, cwd: root, projectRoot: root, event, sessionId: 'avp-test' };
  const raw: Record<string, unknown> = { hook_event_name: event, source: 'avp test', case: c.name };
  if (!(TOOL_TRIGGERS as readonly string[]).includes(event)) {
    return {
      ...base,
      files,
      ...(c.prompt !== undefined ? { prompt: c.prompt } : {}),
      ...(c.lastMessage !== undefined ? { lastMessage: c.lastMessage } : {}),
      ...(event === 'Stop' || event === 'SubagentStop' ? { stopHookActive: false } : {}),
      raw,
    };
  }
  if (c.command !== undefined || c.tool === 'Bash') {
    const toolInput = { command: c.command ?? '' };
    return {
      ...base,
      tool: c.tool ?? 'Bash',
      toolInput,
      files,
      raw: { ...raw, tool_name: 'Bash', tool_input: toolInput },
    };
  }
  const tool = fileTool(c, v);
  const f = c.files[0];
  const toolInput: Record<string, unknown> = { file_path: f ? join(root, f.path) : '' };
  if (f && tool === 'Write') toolInput.content = f.content;
  else if (f) Object.assign(toolInput, { old_string: f.before ?? '', new_string: f.content });
  return { ...base, tool, toolInput, files, raw: { ...raw, tool_name: tool, tool_input: toolInput } };
}
