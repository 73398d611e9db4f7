/** The engine's neutral decision and what an agent can do with one: words of the protocol every layer shares. */

/**
 * The engine's one decision for an event, before any agent's wording:
 * - `deny`: refuse a tool call before it runs (PreToolUse, PermissionRequest);
 * - `block`: act on what already happened — a tool's result, a prompt, a stop (the agent goes on with `reason`);
 * - `warn`: tell the user and the model, stop nothing (warnings, a released Stop, an event the agent cannot refuse);
 * - `pass`: nothing to say beyond the AVP fields.
 */
export interface Decision {
  kind: 'block' | 'deny' | 'warn' | 'pass';
  /** For the model: the report (why it was refused, what to fix). */
  reason?: string;
  /** For the user, in the agent's UI. */
  userMessage?: string;
  /** For the model's context where the event accepts extra context (warnings, notes). */
  context?: string;
  /** AVP's own response fields (passed, violations, summary, errors …), for agents that accept unknown fields. */
  avp: Record<string, unknown>;
}

/** What an agent can do with an answer to one event (keyed by AVP trigger in `EventAbilities`). */
export interface EventAbility {
  /** How the agent refuses here: `deny` before a tool runs, `block` after the fact or at a stop; false: it cannot. */
  stop: 'deny' | 'block' | false;
  /** The model reads extra context given on this event. */
  context: boolean;
  /**
   * The refusal alone does not reach the model (Claude Code's PostToolUseFailure; Qwen Code's PostToolUse, which
   * ignores `decision`): the reason also goes in the context, which does.
   */
  contextOnBlock?: boolean;
}
