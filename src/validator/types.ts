/** The AVP 1.0 validator model shared by discovery, matching, the engine, the registry and the catalog. */

// The triggers are the protocol's vocabulary (protocol/trigger.ts); the format names them.
export { MATCHER_TRIGGERS, STOP_TRIGGERS, TOOL_TRIGGERS, TRIGGERS, type Trigger } from '../protocol/trigger.ts';
import type { Trigger } from '../protocol/trigger.ts';

export const SEVERITIES = ['info', 'warn', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Where an active validator was found. The embedded catalog is not a source: its validators are installed first. */
export type Source = 'project' | 'user';

/** The three on-disk forms. */
export type Form = 'file' | 'directory' | 'ruleset';

/** Validated frontmatter with defaults filled in. */
export interface ValidatorSpec {
  name: string;
  description: string;
  severity: Severity;
  trigger: Trigger;
  match: { tools?: string[]; files?: string[] };
  /**
   * A RuleSet rule's own `match` (the reference's rule key): it narrows `match`, so the rule concerns an event only
   * when both accept it.
   */
  ruleMatch?: { tools?: string[]; files?: string[] };
  triggerMatcher?: string;
  tags: string[];
  once: boolean;
  /** Seconds. */
  timeout: number;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, unknown>;
  /**
   * avp extension: a script judge, path relative to the validator directory and inside its `scripts/`
   * (directory validators only). The script gets the normalized event as JSON on stdin and prints an AVP response.
   */
  script?: string;
  /** avp extension: the model this validator asks its LLM judge for (a hint; config may override). */
  model?: string;
  /**
   * avp extension: `false` keeps this validator out of batched judging (its own request, its own prompt); absent = it
   * may share a request with other validators on the same backend and model (`judge.batch`).
   */
  batch?: false;
}

/** One runnable validator: a single file, a directory validator, or one rule of a RuleSet. */
export interface Validator {
  /** Unique key: the name, or `name/rule` for a RuleSet rule. Used in config (`disabled`), logs, caches, state. */
  id: string;
  name: string;
  /** RuleSet rule name (file stem under `rules/`). */
  rule?: string;
  source: Source;
  form: Form;
  /** Absolute path of the file holding the prompt (`name.md`, `VALIDATOR.md` or `rules/x.md`). */
  path: string;
  /** Absolute path of the validator directory (directory and ruleset forms). */
  dir?: string;
  spec: ValidatorSpec;
  /** The markdown prompt (for a rule: the RuleSet's body followed by the rule's body). */
  body: string;
  /** Absolute paths of the files under `references/` (directory forms). */
  references: string[];
  /** sha256 (hex) over the validator's files: frontmatter, body, references and script. Keys the verdict cache. */
  hash: string;
  /**
   * With a `script`: sha256 over its `scripts/` folder as loaded (validator/scripts-hash.ts), the key that finds an
   * unmodified catalog script in avp's own bundle. Absent when the folder could not be read whole.
   */
  scripts?: string;
  /** Why this validator is loaded and listed but never run (a reference tool rule: avp runs no tool programs). */
  notRun?: string;
  /** The rules of its RuleSet this tool rule replaces while its tool is healthy (the reference's `supersedes`). */
  supersedes?: string[];
}

/** A validator that could not be loaded. Never dropped: the engine treats it as a blocking validator error. */
export interface LoadError {
  source: Source;
  /** The file at fault. */
  path: string;
  line?: number;
  column?: number;
  message: string;
  fix: string;
  /** The validator's name when it could be read; lets matching decide whether the error concerns an event. */
  name?: string;
  /** The trigger when it could be read, so a broken validator blocks only the events it would see. */
  trigger?: Trigger;
}

/** A lint finding (`file:line:col message`). Errors fail `avp lint`; warnings (unknown keys…) do not. */
export interface LintMessage {
  path: string;
  line: number;
  column: number;
  level: 'error' | 'warning';
  message: string;
  fix?: string;
}

export interface Shadowed {
  name: string;
  /** The path that wins (project). */
  winner: string;
  /** The path that loses (user). */
  shadowed: string;
}

export interface Discovery {
  validators: Validator[];
  errors: LoadError[];
  warnings: LintMessage[];
  shadowed: Shadowed[];
}
