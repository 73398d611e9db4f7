/**
 * Exact verdicts of dangerous-commands for the tests of its rule modules (test/catalog/commands-*.test.ts): what the
 * agent is told (rule and message of each finding, the summary, a suggestion), and that each finding's check id is
 * the one AVP_DANGEROUS_COMMANDS_ALLOW turns off. The labelled corpus judges only flag or pass under a rule.
 */
import { expect } from 'bun:test';
import { validate, type Verdict } from '../../validators/dangerous-commands/scripts/check.ts';

export const PROJECT = '/work/app';
/** HOME for every run: unlike the machine's, so a validator that ignored $HOME would be seen. */
export const HOME = '/home/dev';

export interface Where {
  cwd?: string;
  /** projectRoot; null: the event names none. */
  project?: string | null;
  /** $HOME (default HOME). */
  home?: string;
  /** AVP_DANGEROUS_COMMANDS_ALLOW */
  allow?: string;
  /** AVP_DANGEROUS_COMMANDS_DENY */
  deny?: string;
}

const ENV = {
  HOME: (w: Where) => w.home ?? HOME,
  AVP_DANGEROUS_COMMANDS_ALLOW: (w: Where) => w.allow,
  AVP_DANGEROUS_COMMANDS_DENY: (w: Where) => w.deny,
};

/** The verdict on one Bash command, with the environment the validator reads set for this call only. */
export function run(command: string, where: Where = {}): Verdict {
  const saved = Object.keys(ENV).map((k) => [k, process.env[k]] as const);
  for (const [k, value] of Object.entries(ENV)) {
    const v = value(where);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return validate({
      tool: 'Bash',
      toolInput: { command },
      cwd: where.cwd ?? PROJECT,
      projectRoot: where.project === null ? undefined : (where.project ?? PROJECT),
    });
  } finally {
    for (const [k, v] of saved)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

/**
 * Each row is `command → rule/check: message` (findings joined by ` ‖ `), or `command →` for a command that runs.
 * The verdict must list exactly those rules and messages, in order, summarise them, suggest something for each, and
 * allowing the row's check must drop that finding.
 */
export function expectVerdicts(rows: string[], where: Where = {}): void {
  for (const row of rows) {
    const [command, expected] = row.split(' →');
    if (command === undefined || expected === undefined) throw new Error(`row without " →": ${row}`);
    const want = expected
      .split(' ‖ ')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => {
        const m = /^(\S+)\/(\S+): (.+)$/s.exec(s);
        if (!m) throw new Error(`finding not written as rule/check: message: ${s}`);
        return { rule: m[1]!, check: m[2]!, message: m[3]! };
      });
    const v = run(command, where);
    const got = v.violations.map((x) => `${x.rule}: ${x.message}`);
    expect({ command, got }).toEqual({ command, got: want.map((f) => `${f.rule}: ${f.message}`) });
    expect({ command, passed: v.passed }).toEqual({ command, passed: want.length === 0 });
    const summary = want.length ? `dangerous command: ${want.map((f) => f.message).join('; ')}` : 'command looks safe';
    expect(v.summary).toBe(summary);
    for (const x of v.violations) {
      expect(x.snippet).toBe(command);
      expect({ command, suggestion: (x.suggestion ?? '') !== '' }).toEqual({ command, suggestion: true });
    }
    for (const f of want) {
      const left = run(command, { ...where, allow: f.check }).violations.map((x) => x.message);
      expect({ command, allowed: f.check, left }).toEqual({
        command,
        allowed: f.check,
        left: want.filter((o) => o.check !== f.check && o.rule !== f.check).map((o) => o.message),
      });
    }
  }
}
