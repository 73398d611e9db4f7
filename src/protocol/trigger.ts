/**
 * The triggers of AVP 1.0 (Claude Code's event names, the validators' language) and the sets of them the rules
 * speak of — defined once here; the validator format, matching, normalizing and session state all read these.
 */

/** The 13 triggers of AVP 1.0. */
export const TRIGGERS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'Setup',
  'PreCompact',
  'Notification',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/**
 * An event's name: an AVP trigger, or an agent's event avp has no trigger for — passed through as the agent named
 * it, matched by no validator. Compare with `isEvent`, whose triggers are checked when compiling.
 */
export type EventName = Trigger | (string & {});

/** Triggers whose events carry a tool name (`match.tools` applies). */
export const TOOL_TRIGGERS: readonly Trigger[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
];
/** Triggers whose events carry the files the turn changed (`match.files` applies, as on the tool triggers). */
export const STOP_TRIGGERS: readonly Trigger[] = ['Stop', 'SubagentStop'];
/** Triggers with a value for `triggerMatcher` (source, reason, trigger, notification type, agent type). */
export const MATCHER_TRIGGERS: readonly Trigger[] = [
  'SessionStart',
  'SessionEnd',
  'Setup',
  'PreCompact',
  'Notification',
  'SubagentStart',
  'SubagentStop',
];

const ALL = new Set<string>(TRIGGERS);
const TOOLS = new Set<string>(TOOL_TRIGGERS);
const STOPS = new Set<string>(STOP_TRIGGERS);

export const isTrigger = (name: string): name is Trigger => ALL.has(name);
/** A tool event: PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest. */
export const isToolTrigger = (name: string): boolean => TOOLS.has(name);
/** The end of a turn: Stop or SubagentStop. */
export const isStopTrigger = (name: string): boolean => STOPS.has(name);

/** Whether the event is one of `triggers` (a misspelled trigger does not compile, as it would in `===`). */
export function isEvent(event: { event: EventName }, ...triggers: Trigger[]): boolean {
  return (triggers as string[]).includes(event.event);
}
