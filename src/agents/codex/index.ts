/**
 * OpenAI Codex CLI. Hooks in `.codex/hooks.json` or `$CODEX_HOME/hooks.json` (`~/.codex`), Claude Code's event and
 * field names. Codex is strict: an answer with a field its schema for that event does not have is "invalid hook
 * output" and counts as no answer (the call goes on), so avp emits only the fields each event's schema lists — never
 * AVP's own. A crash, a timeout, a non-zero exit other than 2 and malformed output all let the call go on in Codex;
 * avp therefore always answers on exit 0 with a valid document, or on exit 2 with the reason on stderr.
 *
 * Quirks handled here: shell calls arrive as `Bash`; file edits as `apply_patch` (one patch, several files) — or,
 * with a model Codex has no metadata for, as a shell command `apply_patch <<'PATCH' …` that gets a PreToolUse and no
 * PostToolUse, so its PostToolUse validators judge it at the PreToolUse (see `alsoTrigger`).
 */
import { homedir } from '../../os/home.ts';
import { join } from 'node:path';
import type { HookEvent } from '../../protocol/event.ts';
import { claudeShape, jsonAnswer } from '../claude-shape.ts';
import { type NormalizeSpec } from '../normalize.ts';
import { projectAndUserFile } from '../install-paths.ts';
import type { Decision, EventAbilities, ToolMapping } from '../types.ts';
import { defineAdapter } from '../define.ts';

/** The events Codex 0.16x fires (newer versions add more; an unknown name in hooks.json is refused by older ones). */
const EVENTS: Record<string, string> = {
  SessionStart: 'SessionStart',
  PreToolUse: 'PreToolUse',
  PermissionRequest: 'PermissionRequest',
  PostToolUse: 'PostToolUse',
  UserPromptSubmit: 'UserPromptSubmit',
  Stop: 'Stop',
};

const TOOLS: Record<string, ToolMapping> = {
  Bash: { tool: 'Bash', kind: 'shell' },
  apply_patch: { tool: 'Edit', kind: 'edit', patchField: 'command' },
};

/**
 * PreToolUse refuses through `permissionDecision: "deny"` (Codex ignores `allow`, `ask` and `updatedInput`);
 * PostToolUse, UserPromptSubmit and Stop through `decision: "block"` + `reason` (a blocked Stop goes on with the
 * reason as the next prompt). SessionStart only takes context.
 */
const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: true },
  PermissionRequest: { stop: 'deny', context: false },
  PostToolUse: { stop: 'block', context: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
};

/** Top-level fields each event's output schema has (codex-rs/hooks/schema/generated/*.command.output.schema.json). */
const COMMON = ['continue', 'stopReason', 'suppressOutput', 'systemMessage'];
const FIELDS: Record<string, string[]> = {
  PreToolUse: [...COMMON, 'hookSpecificOutput'],
  PermissionRequest: [...COMMON, 'hookSpecificOutput'],
  PostToolUse: [...COMMON, 'decision', 'reason', 'hookSpecificOutput'],
  UserPromptSubmit: [...COMMON, 'decision', 'reason', 'hookSpecificOutput'],
  Stop: [...COMMON, 'decision', 'reason'],
  SessionStart: [...COMMON, 'hookSpecificOutput'],
};
/** `hookSpecificOutput` fields per event. */
const SPECIFIC: Record<string, string[]> = {
  PreToolUse: ['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'additionalContext'],
  PermissionRequest: ['hookEventName', 'decision'],
  PostToolUse: ['hookEventName', 'additionalContext'],
  UserPromptSubmit: ['hookEventName', 'additionalContext'],
  SessionStart: ['hookEventName', 'additionalContext'],
};

/** Only what Codex's schema for the event has; an event Codex does not document gets the common fields only. */
export function codexDocument(event: HookEvent, d: Decision): Record<string, unknown> {
  const doc = claudeShape(event, d, false);
  const allowed = FIELDS[event.event] ?? COMMON;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (!allowed.includes(k)) continue;
    if (k === 'hookSpecificOutput') {
      const keep = SPECIFIC[event.event] ?? [];
      const hso = Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([f]) => keep.includes(f)));
      if (Object.keys(hso).length > 1) out[k] = hso;
    } else out[k] = v;
  }
  // Codex refuses `decision: "block"` without a non-blank reason.
  if (out.decision === 'block' && !(typeof out.reason === 'string' && out.reason.trim()))
    out.reason = 'avp blocked this';
  return out;
}

const SPEC: NormalizeSpec = {
  name: 'codex',
  displayName: 'Codex CLI',
  events: EVENTS,
  tools: TOOLS,
  projectDirVars: [],
  lastMessageField: 'last_assistant_message',
  turnIdField: 'turn_id',
  // `tool_response` is the command's output as a string: nothing about file contents.
  response: () => undefined,
  shellPatches: true,
};

/** Codex's user folder: `$CODEX_HOME`, else `~/.codex`. */
export const codexHome = (env: NodeJS.ProcessEnv): string => env.CODEX_HOME || join(env.HOME || homedir(), '.codex');

const codex = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  render: (event, d) => jsonAnswer(codexDocument(event, d)),
  install: {
    ...projectAndUserFile('.codex', codexHome, 'hooks.json'),
    timeoutUnit: 'seconds',
    events: Object.keys(EVENTS),
  },
});

export default codex;
