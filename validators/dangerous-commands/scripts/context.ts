/** What every rule module of dangerous-commands shares: the finding it returns and the context it judges in. */
import type { PathCtx, Place } from './paths.ts';

export interface Finding {
  /** The rule id reported to the agent (`destructive-delete`, `git-discard`…). */
  rule: string;
  /** The finer check that fired (`git-reset-hard`); AVP_DANGEROUS_COMMANDS_ALLOW may name either. */
  check: string;
  message: string;
  suggestion: string;
}

export interface Ctx extends PathCtx {
  /** The session's cwd (git is asked there for the current branch). */
  cwd: string;
  /** Opt-in checks that are off by default (AVP_DANGEROUS_COMMANDS_DENY), e.g. `force-push`, `git-rebase`. */
  strict: Set<string>;
  /** Analyses a command line that something else will run (an interpreter's `os.system("…")`) where it runs. */
  recurse: (src: string, place: Place) => Finding[];
}

export const finding = (rule: string, check: string, message: string, suggestion: string): Finding => ({
  rule,
  check,
  message,
  suggestion,
});

/** Short and long options of an argument list, and the operands (everything after `--` is an operand). */
export function flagsOf(args: string[]): { short: string; long: string[]; rest: string[] } {
  let short = '';
  const long: string[] = [];
  const rest: string[] = [];
  let done = false;
  for (const a of args) {
    if (done || !a.startsWith('-') || a === '-') rest.push(a);
    else if (a === '--') done = true;
    else if (a.startsWith('--')) long.push(a);
    else short += a.slice(1);
  }
  return { short, long, rest };
}

/** `--name` or `--name=value` is among the long options. */
export const hasLong = (long: string[], name: string) => long.some((l) => l === name || l.startsWith(`${name}=`));
