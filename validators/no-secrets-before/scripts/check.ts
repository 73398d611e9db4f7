#!/usr/bin/env bun
/**
 * no-secrets — avp catalog script judge (self-contained: Bun/Node built-ins and the files next to it, installed alone).
 *
 * Reads the normalized avp HookEvent (JSON on stdin, or `validate(event)` in-process) and flags secrets in the lines
 * a change ADDS (./added-lines.ts), so content that was already there is never re-flagged:
 * - a file tool before it runs (PreToolUse: the engine rebuilt the resulting content) or after (PostToolUse);
 * - a shell command before it runs: the text it writes, and what a `git commit` would commit (./shell.ts);
 * - the files a shell command changed on its own, after it ran (PostToolUse, the engine's list).
 * Rules: ./providers.ts, ./rules.ts, the project's .gitleaks.toml (./gitleaks.ts); documented in
 * ../references/rules.md.
 */
import { type Added, changes, type HookEvent, type Verdict, type Violation } from './added-lines.ts';
import { type GitleaksConfig, loadGitleaks } from './gitleaks.ts';
import { EXAMPLE_FILE, GENERATED, LOCKFILE, TEST_PATH } from './rules.ts';
import { scanAdded } from './scan.ts';
import { commandWrites, commitChanges, gitCommit } from './shell.ts';

export type { Verdict } from './added-lines.ts';

const SHELL_TOOLS = /^(?:Bash|run_shell_command|shell|exec_command|local_shell|execute_command)$/;

function judgeFiles(
  files: Array<{ file: string; added: Added[] }>,
  gitleaks: GitleaksConfig | undefined,
): { violations: Violation[]; scanned: number } {
  const violations: Violation[] = [];
  let scanned = 0;
  for (const { file, added } of files) {
    if (LOCKFILE.test(file) || GENERATED.test(file) || gitleaks?.allowsPath(file)) continue;
    const inTests = TEST_PATH.test(file);
    const r = scanAdded(file, added, { heuristics: !inTests && !EXAMPLE_FILE.test(file), keys: !inTests, gitleaks });
    violations.push(...r.violations);
    scanned += r.scanned;
  }
  return { violations, scanned };
}

/** Judges an event: flags secrets in added lines. Reads the disk only for .gitleaks.toml and `git commit`. */
export function validate(event: HookEvent & { alsoTrigger?: string }): Verdict {
  const root = event.projectRoot ?? event.cwd ?? process.cwd();
  const gitleaks = loadGitleaks(root);
  const command = event.toolInput?.command;
  const before = event.event === 'PreToolUse' && SHELL_TOOLS.test(event.tool ?? '') && typeof command === 'string';
  let verdict: { violations: Violation[]; scanned: number };
  let commit = false;
  // Where the agent's adapter already judges a file edit at PreToolUse with the after-the-fact validators
  // (`alsoTrigger`), no-secrets judges it there: the before-copy leaves file tools to it, so nothing is said twice.
  const leftToAfter =
    !before && event.alsoTrigger === 'PostToolUse' && process.env.AVP_VALIDATOR_NAME === 'no-secrets-before';
  if (leftToAfter) verdict = { violations: [], scanned: 0 };
  else if (before) {
    const cwd = event.cwd ?? root;
    verdict = judgeFiles(commandWrites(command, root, cwd), gitleaks);
    const c = gitCommit(command);
    if (c) {
      commit = true;
      const staged = judgeFiles(commitChanges(cwd, c.all, c.adds), gitleaks);
      for (const v of staged.violations) {
        v.message = `git commit would commit it: ${v.message}`;
        v.suggestion = `Unstage the file (git restore --staged ${v.file}), remove the secret from it and read it at run time instead; rotate it if it is real. Test data: mark the line with \`avp:allow-secret\`.`;
      }
      verdict.violations.push(...staged.violations);
      verdict.scanned += staged.scanned;
    }
  } else verdict = judgeFiles(changes(event), gitleaks);
  const { violations, scanned } = verdict;
  const files = new Set(violations.map((v) => v.file)).size;
  return {
    passed: violations.length === 0,
    violations,
    summary: violations.length
      ? `${violations.length} hard-coded secret${violations.length > 1 ? 's' : ''} in ${files} file${files > 1 ? 's' : ''}${commit ? ' (in what the command writes or commits)' : ''}`
      : `no secrets in ${scanned} added line${scanned === 1 ? '' : 's'}`,
  };
}

if (import.meta.main) {
  let event: HookEvent;
  try {
    event = JSON.parse(await Bun.stdin.text()) as HookEvent;
  } catch (err) {
    console.error(`no-secrets: cannot read the event on stdin: ${(err as Error).message}`);
    process.exit(1);
  }
  try {
    // console.log, not process.stdout.write: initialising Node's stdout stream costs ~10 ms of CPU per run.
    console.log(JSON.stringify(validate(event)));
  } catch (err) {
    console.error(`no-secrets: ${(err as Error).message}`);
    process.exit(1);
  }
}
