/**
 * Claude Code: the protocol AVP's triggers are named after. Hooks in `.claude/settings.json` (project),
 * `.claude/settings.local.json` (this machine) or `~/.claude/settings.json`; every event's answer is one JSON
 * document on exit 0, and Claude Code ignores the AVP fields riding along (`passed`, `violations`, `summary`).
 */
import { homedir } from '../../os/home.ts';
import { join } from 'node:path';
import type { HookEvent } from '../../protocol/event.ts';
import { TRIGGERS } from '../../validator/types.ts';
import { claudeShape, jsonAnswer } from '../claude-shape.ts';
import { claudeResponse, normalizeWith, type NormalizeSpec } from '../normalize.ts';
import type { Decision, EventAbilities } from '../types.ts';
import { CLAUDE_TOOLS } from './tools.ts';
import { defineAdapter } from '../define.ts';

/**
 * What each answer can do. `additionalContext` is not used on Stop/SubagentStop (accepted, but observed with the
 * real CLI to start a new model turn — a released or warned Stop would loop) nor on Notification (fired while the
 * agent waits; same risk). A PostToolUseFailure block does not reach the model by itself: the context carries it.
 */
const ABILITIES: EventAbilities = {
  PreToolUse: { stop: 'deny', context: true },
  PermissionRequest: { stop: 'deny', context: false },
  PostToolUse: { stop: 'block', context: true },
  PostToolUseFailure: { stop: 'block', context: true, contextOnBlock: true },
  UserPromptSubmit: { stop: 'block', context: true },
  Stop: { stop: 'block', context: false },
  SubagentStop: { stop: 'block', context: false },
  SessionStart: { stop: false, context: true },
  Setup: { stop: false, context: true },
  SubagentStart: { stop: false, context: true },
};

const EVENTS: Record<string, string> = Object.fromEntries(TRIGGERS.map((t) => [t, t]));

const SPEC: NormalizeSpec = {
  name: 'claude',
  displayName: 'Claude Code',
  events: EVENTS,
  tools: CLAUDE_TOOLS,
  projectDirVars: ['CLAUDE_PROJECT_DIR'],
  sessionEnv: 'CLAUDE_CODE_SESSION_ID',
  lastMessageField: 'last_assistant_message',
  response: claudeResponse,
};

const render = (event: HookEvent, d: Decision) => jsonAnswer(claudeShape(event, d, true));

const claude = defineAdapter({
  spec: SPEC,
  abilities: ABILITIES,
  extraFields: true,
  render,
  install: {
    scopes: ['project', 'local', 'user'],
    path: (scope, root, env) =>
      scope === 'user'
        ? join(claudeHome(env), 'settings.json')
        : join(root, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json'),
    timeoutUnit: 'seconds',
    events: TRIGGERS,
    markers: (root, env) => ({ project: [join(root, '.claude')], user: [claudeHome(env)] }),
  },
});

/** Claude Code's user folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeHome(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

export default claude;

/** Claude Code input → HookEvent (kept for tests and tools that only speak Claude Code). */
export function normalizeClaudeEvent(input: unknown, env: NodeJS.ProcessEnv = process.env): HookEvent {
  return normalizeWith(SPEC, input, env);
}
