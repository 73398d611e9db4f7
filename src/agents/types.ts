/**
 * The shape of an agent adapter: everything avp knows about one coding agent's hook protocol, so the engine speaks
 * none. An adapter turns the agent's stdin into a `HookEvent` (`normalize`), avp's neutral decision into the agent's
 * answer (`render`), says how avp's own failure must look there (`failClosed`), and where and how its hook entries
 * are installed (`install`). Its tables (events ↔ AVP triggers, tools ↔ canonical tools, what each event can do)
 * are data, so `avp list --agent`, the docs and the shared adapter suite read the same facts the hook uses.
 */
import type { Decision, EventAbility } from '../protocol/decision.ts';
import type { AgentName, HookEvent, ToolKind } from '../protocol/event.ts';

export type { Decision, EventAbility };

export type EventAbilities = Partial<Record<string, EventAbility>>;

/** What `avp hook` prints and exits with. */
export interface AgentAnswer {
  stdout: string;
  /** For the agent's log or, where exit 2 is the refusal, the reason the agent shows. */
  stderr?: string;
  exitCode: number;
}

/** A canonical tool (Claude Code's name) and what it does, for one of the agent's tools. */
export interface ToolMapping {
  tool: string;
  kind: ToolKind;
  /** The agent's input renamed to Claude Code's field names (`old_str` → `old_string`). */
  input?: (input: Record<string, unknown>) => Record<string, unknown>;
  /** The tool applies a patch (`*** Begin Patch` …) found in this input field. */
  patchField?: string;
}

export type InstallScope = 'project' | 'local' | 'user';

export interface AgentInstall {
  /** The scopes this agent has a hook file for (`local`: a per-machine project file, Claude Code only). */
  scopes: readonly InstallScope[];
  /** The hook settings file of a scope. */
  path(scope: InstallScope, projectRoot: string, env: NodeJS.ProcessEnv): string;
  /** The unit of the entry's `timeout` (Gemini CLI and Qwen Code count milliseconds). */
  timeoutUnit: 'seconds' | 'milliseconds';
  /**
   * The agent's event names avp writes entries for: only events this agent has (an unknown event name can make an
   * agent refuse the whole file, which would switch every hook off silently).
   */
  events: readonly string[];
  /** The folders whose presence says the project or the user has this agent (detection for `avp init`). */
  markers(projectRoot: string, env: NodeJS.ProcessEnv): { project: string[]; user: string[] };
  /**
   * How avp's hook is written when it is not Claude Code's `{hooks: {Event: [{matcher, hooks: [...]}]}}` groups:
   * flat entries in a JSON file of the agent's own shape, or whole files avp owns (scripts, plugins).
   */
  layout?: InstallLayout;
}

/** A hook file avp owns outright (an executable per event, a plugin): its whole text is avp's. */
export interface OwnedFile {
  path: string;
  text: string;
  /** File mode (an executable hook script: 0o755). */
  mode?: number;
  /** The agent event the file serves (a script per event), for `avp doctor`. */
  event?: string;
}

export type InstallLayout =
  | {
      /** One entry per event directly in `hooks.<event>` (no matcher groups), as Cursor, Windsurf, Copilot, Kiro. */
      kind: 'flat';
      /** avp's entry for one event: the command under the agent's key(s), its timeout in the agent's field. */
      entry(command: string, timeout: number, event: string): Record<string, unknown>;
      /** Top-level keys the file must have (`version: 1`), written when missing. */
      top?: Readonly<Record<string, unknown>>;
    }
  | {
      /**
       * Claude Code's matcher groups keyed by event name at the top level of the file, not under `"hooks"`: Factory
       * Droid's `hooks.json`.
       */
      kind: 'top';
    }
  | {
      /** Files avp writes whole: `path(scope)` is the file, or the folder holding one file per event. */
      kind: 'owned';
      files(command: string, timeout: number, path: string): OwnedFile[];
    };

export interface AgentAdapter {
  name: AgentName;
  displayName: string;
  /** The agent's event names → AVP triggers. Triggers absent from the values never fire on this agent. */
  events: Readonly<Record<string, string>>;
  /** The agent's tool names → canonical tools. A tool not listed keeps its own name (MCP tools, new tools). */
  tools: Readonly<Record<string, ToolMapping>>;
  /** What each trigger's answer can do on this agent (absent: nothing but a message for the user). */
  abilities: EventAbilities;
  /** Environment variables through which the agent names the project directory, most specific first. */
  projectDirVars: readonly string[];
  /** The agent ignores response fields it does not know, so AVP's own fields may ride along. */
  extraFields: boolean;
  normalize(input: unknown, env: NodeJS.ProcessEnv): HookEvent;
  render(event: HookEvent, decision: Decision): AgentAnswer;
  /**
   * The answer when avp cannot give a verdict — input that is not an event (`bad-input`) or avp's own failure
   * (`internal`) — in the shape that makes this agent refuse, not pass.
   */
  failClosed(input: unknown, problem: { kind: 'bad-input' | 'internal'; message: string }): AgentAnswer;
  install: AgentInstall;
  /**
   * What happens instead where a trigger exists but its answer cannot refuse on this agent (Cursor's observe-only
   * `afterFileEdit`): shown by `avp list --agent` for the validators on that trigger.
   */
  instead?: Readonly<Partial<Record<string, string>>>;
}
