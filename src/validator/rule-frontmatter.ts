/**
 * A RuleSet rule's own frontmatter. A rule may override `severity` and `timeout`, give its own `description`, and,
 * as the reference's RuleSets do, carry the reference's rule keys:
 *
 * - `match` narrows its RuleSet's match: the rule concerns an event only when the RuleSet's match and the rule's
 *   match both accept it (tools: the tool name matches a RuleSet pattern and a rule pattern; files: one changed file
 *   matches a RuleSet glob and a rule glob). A rule never matches what its RuleSet does not. An empty intersection
 *   means the rule never runs (lint warns where it can see it: plain tool names, `*.ext` globs).
 *   `match.project_types` (the reference's detected project types) is not applied: avp detects no project types.
 * - `tool` makes it a tool rule: a program run on the changed files instead of a prompt. avp runs no tool rules, so
 *   the rule is loaded, listed and never run.
 * - `supersedes` names the prompt rules a tool rule replaces while its tool is healthy. avp never runs the tool, so
 *   the named rules always run: the reference's own behaviour when the tool is missing.
 * Keys that would move a rule to other events (`trigger`, `triggerMatcher`, `once`, `script`) stay errors.
 */
import * as v from 'valibot';
import type { Frontmatter, Problem } from './frontmatter.ts';
import { SCHEMA, SEP, list } from './schema.ts';
import type { ValidatorSpec } from './types.ts';

export const RULE_OVERRIDES = ['severity', 'timeout'];
/** The reference's rule keys avp reads (see above). */
export const RULE_REFERENCE_KEYS = ['match', 'supersedes', 'tool'];
export const RULE_ALLOWED = ['name', 'description', ...RULE_OVERRIDES, ...RULE_REFERENCE_KEYS];
/**
 * Keys that would change which events a rule sees: silently ignoring them would run the rule where its author did not
 * expect.
 */
export const RULE_FORBIDDEN = ['trigger', 'triggerMatcher', 'once', 'script'];

/** Why a tool rule does not run, as `avp list` and `avp add` say it. */
export const TOOL_RULE_NOT_RUN = 'tool rule: avp runs no tool programs';

export interface RuleFrontmatter {
  severity?: ValidatorSpec['severity'];
  timeout?: number;
  description?: string;
  /** The rule's own match, which narrows its RuleSet's. */
  match?: { tools?: string[]; files?: string[] };
  supersedes?: string[];
  /** Set when the rule has a `tool` block: the program it names, when its `run` script starts with one. */
  tool?: { program?: string };
  problems: Problem[];
}

const PARTIAL = v.partial(v.pick(SCHEMA, ['severity', 'timeout', 'description', 'match']));

/** Validates a rule's own frontmatter (its `match.files` file groups already expanded). */
export function validateRuleFrontmatter(fm: Pick<Frontmatter, 'data' | 'locate'>): RuleFrontmatter {
  const problems: Problem[] = [];
  const out: RuleFrontmatter = { problems };
  const data = fm.data;
  const sub = v.safeParse(PARTIAL, data, { abortPipeEarly: true });
  if (!sub.success) {
    for (const issue of sub.issues) {
      const path = (issue.path ?? []).map((p) => p.key as string | number);
      const [message, fix] = issue.message.split(SEP);
      problems.push({ ...fm.locate(path), message: message!, fix, level: 'error' });
    }
  } else {
    if (sub.output.severity) out.severity = sub.output.severity;
    if (sub.output.timeout !== undefined) out.timeout = sub.output.timeout;
    if (sub.output.description !== undefined) out.description = sub.output.description;
    const tools = list(sub.output.match?.tools);
    const files = list(sub.output.match?.files);
    if (tools?.length || files?.length)
      out.match = { ...(tools?.length ? { tools } : {}), ...(files?.length ? { files } : {}) };
  }
  matchKeys(fm, problems);
  if (data.supersedes !== undefined) out.supersedes = supersedesOf(fm, problems);
  if (data.tool !== undefined && data.tool !== null) out.tool = toolOf(fm, problems);
  for (const key of Object.keys(data)) {
    if (RULE_FORBIDDEN.includes(key)) {
      problems.push({
        ...fm.locate([key]),
        column: 1,
        message: `a rule cannot set \`${key}\`: rules inherit it from the RuleSet's VALIDATOR.md`,
        fix: `remove \`${key}\` from the rule, or make this rule its own validator`,
        level: 'error',
      });
    } else if (!RULE_ALLOWED.includes(key)) {
      problems.push({
        ...fm.locate([key]),
        column: 1,
        message: `unknown key \`${key}\` in a rule (ignored)`,
        fix: `a rule may set only ${RULE_ALLOWED.join(', ')}`,
        level: 'warning',
      });
    }
  }
  return out;
}

function matchKeys(fm: Pick<Frontmatter, 'data' | 'locate'>, problems: Problem[]): void {
  const match = fm.data.match;
  if (!match || typeof match !== 'object' || Array.isArray(match)) return;
  for (const key of Object.keys(match)) {
    if (key === 'tools' || key === 'files') continue;
    problems.push({
      ...fm.locate(['match', key]),
      level: 'warning',
      message:
        key === 'project_types'
          ? '`match.project_types` is not applied: avp detects no project types, so the other match keys alone ' +
            'decide where it applies'
          : `unknown key \`match.${key}\` (ignored)`,
      fix:
        key === 'project_types'
          ? 'narrow the rule with `match.files` if it must not run elsewhere'
          : 'use `tools`/`files`',
    });
  }
}

function supersedesOf(fm: Pick<Frontmatter, 'data' | 'locate'>, problems: Problem[]): string[] | undefined {
  const raw = fm.data.supersedes;
  const names = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
  if (!names || !names.every((n) => typeof n === 'string' && n)) {
    problems.push({
      ...fm.locate(['supersedes']),
      level: 'warning',
      message: '`supersedes` must name rules of this RuleSet (a name or a list of names); ignored',
      fix: 'write `supersedes: rule-name` or a `- rule-name` list',
    });
    return undefined;
  }
  return names as string[];
}

function toolOf(fm: Pick<Frontmatter, 'data' | 'locate'>, problems: Problem[]): { program?: string } {
  const tool = fm.data.tool;
  if (typeof tool !== 'object' || Array.isArray(tool)) {
    problems.push({
      ...fm.locate(['tool']),
      level: 'warning',
      message: '`tool` should be a mapping (`run`, `scope`, `doctor`, `install`); the rule is a tool rule either way',
      fix: 'write `tool:` then an indented `run: |` script',
    });
    return {};
  }
  const run = (tool as Record<string, unknown>).run;
  const program = typeof run === 'string' ? /^\s*([A-Za-z0-9_.+-]+)/.exec(run)?.[1] : undefined;
  return program ? { program } : {};
}
