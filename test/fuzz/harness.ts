/**
 * The hook fuzzer's project, its two runners (in-process through `answerClaudeHook`, and the compiled binary) and the
 * properties every answer must have.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerClaudeHook } from '../../src/hook/hook.ts';
import { AvpError } from '../../src/errors.ts';
import { parseInput } from '../../src/hook/stdin.ts';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';
import type { Expectation } from './oracle.ts';
import type { FuzzLayout } from './values.ts';

/** The whole call's budget: small, so a validator or avp stage that ignores it shows up as a hang. */
export const BUDGET_MS = 3000;
/** How long past the budget an answer may take on a loaded 2-core machine before it counts as a hang. */
export const MARGIN_MS = 12_000;

export interface FuzzProject extends FuzzLayout {
  home: string;
}

const FAILS = `#!/bin/sh
cat >/dev/null
echo '{"passed":false,"violations":[{"rule":"always","message":"this validator always fails"}],"summary":"failed"}'
`;

function validator(root: string, name: string, front: string): void {
  const dir = join(root, '.avp/validators', name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  const md = `---\nname: ${name}\ndescription: Fuzz validator ${name}.\n${front}script: scripts/check.sh\n---\nFuzz.\n`;
  writeFileSync(join(dir, 'VALIDATOR.md'), md);
  writeFileSync(join(dir, 'scripts/check.sh'), FAILS);
  chmodSync(join(dir, 'scripts/check.sh'), 0o755);
}

/** A project with the validators oracle.ts describes, a few files, and symlinks in and out of it. */
export function fuzzProject(): FuzzProject {
  const root = tempDir('avp-fuzz-');
  const outside = tempDir('avp-fuzz-outside-');
  const home = tempDir('avp-fuzz-home-');
  mkdirSync(join(root, '.git'));
  const fileTools = "match:\n  tools: ['Write|Edit|MultiEdit']\n  files: ['**/*']\n";
  validator(root, 'always-fails-pre', `severity: error\ntrigger: PreToolUse\n${fileTools}`);
  validator(root, 'always-fails-post', `severity: error\ntrigger: PostToolUse\n${fileTools}`);
  validator(root, 'stop-fails', 'severity: error\ntrigger: Stop\n');
  validator(root, 'warns', 'severity: warn\ntrigger: UserPromptSubmit\n');
  validator(root, 'never-matches', "severity: error\ntrigger: Notification\ntriggerMatcher: 'zz-never-zz'\n");
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\nline 1 x\n');
  writeFileSync(join(root, 'README.md'), '# fuzz\n');
  writeFileSync(join(root, '..foo'), 'a file whose name starts with two dots\n');
  symlinkSync(outside, join(root, 'out-link'));
  symlinkSync('/dev/zero', join(root, 'zero-link'));
  symlinkSync(join(root, 'src'), join(outside, 'in-link'));
  return { root, outside, home };
}

export interface HookResult {
  code: number;
  stdout: string;
  stderr: string;
  /** No answer within budget + margin. */
  hung?: boolean;
  /** In-process only: what was thrown that was not a hook-input error. */
  crash?: string;
}

function env(p: FuzzProject, extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: p.home,
    AVP_HOME: join(p.home, '.avp'),
    AVP_BUDGET_MS: String(BUDGET_MS),
    ...extra,
  };
}

/** One input through the hook's entry, as `avp hook` does it after reading stdin (src/commands/hook.ts). */
export async function runInProcess(p: FuzzProject, stdin: string, extra: Record<string, string>): Promise<HookResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<HookResult>((done) => {
    timer = setTimeout(() => done({ code: -1, stdout: '', stderr: '', hung: true }), BUDGET_MS + MARGIN_MS);
  });
  const call = (async (): Promise<HookResult> => {
    try {
      const answer = await answerClaudeHook(parseInput(stdin), env(p, extra));
      return { code: answer.exitCode, stdout: answer.stdout, stderr: answer.notes.join('\n') };
    } catch (e) {
      if (e instanceof AvpError && e.code === 'hook-input')
        return { code: 2, stdout: '', stderr: `avp hook: ${e.describe()}\n` };
      return { code: -1, stdout: '', stderr: '', crash: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
  })();
  try {
    return await Promise.race([call, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** One input through the compiled binary, killed at budget + margin. */
export async function runBinary(p: FuzzProject, stdin: string, extra: Record<string, string>): Promise<HookResult> {
  const limit = BUDGET_MS + MARGIN_MS;
  const r = await runAvp(['hook'], { bin: AVP_BIN, cwd: p.root, stdin, env: env(p, extra), timeoutMs: limit });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ...(r.ms >= limit ? { hung: true } : {}) };
}

const blocked = (json: Record<string, any>) =>
  json.decision === 'block' ||
  json.hookSpecificOutput?.permissionDecision === 'deny' ||
  json.hookSpecificOutput?.decision?.behavior === 'deny';

/** Every property one answer breaks (empty: none). */
export function problems(event: string | undefined, x: Expectation, r: HookResult): string[] {
  if (r.hung) return [`no answer within the budget (${BUDGET_MS} ms) + ${MARGIN_MS} ms`];
  if (r.crash) return [`threw: ${r.crash.slice(0, 600)}`];
  const out: string[] = [];
  if (r.code !== 0 && r.code !== 2) out.push(`exit code ${r.code}`);
  if (x.shape === 'event' && r.code !== 0) out.push(`a well-formed event got exit ${r.code}`);
  if (x.shape === 'not-event' && r.code !== 2) out.push(`input that is not an event got exit ${r.code}, not 2`);
  if (/^\s+at .+:\d+/m.test(r.stderr)) out.push('a stack trace on stderr');
  if (/internal error/.test(r.stderr + r.stdout)) out.push(`avp's internal error: ${r.stderr.slice(0, 300)}`);
  if (r.code === 2) {
    if (r.stdout !== '') out.push('exit 2 with something on stdout');
    if (!/^avp hook: \S/.test(r.stderr)) out.push('exit 2 without a message on stderr');
    // Exit 2 blocks in Claude Code (stderr goes to the model): for malformed input it satisfies `block`, and refusing
    // a wrongly typed core field is avp's documented choice, so it is accepted for `pass` too.
    return out;
  }
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    return [...out, `stdout is not one JSON document: ${JSON.stringify(r.stdout.slice(0, 200))}`];
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [...out, 'stdout is not an object'];
  if (r.stdout.includes('never-matches')) out.push('the validator that matches nothing ran');
  if (x.outcome === 'block') {
    const denied =
      event === 'PreToolUse' ? json.hookSpecificOutput?.permissionDecision === 'deny' : json.decision === 'block';
    if (!denied) out.push(`expected ${event === 'PreToolUse' ? 'permissionDecision "deny"' : 'decision "block"'}`);
    const named = [...(json.violations ?? []), ...(json.errors ?? [])].some((v: any) => v?.validator === x.by);
    if (!named) out.push(`the block does not come from ${x.by}`);
  }
  if ((x.outcome === 'pass' || x.outcome === 'warn') && blocked(json))
    out.push('blocked where nothing blocking matches');
  if (x.outcome === 'warn' && !String(json.systemMessage ?? '').includes('warns')) out.push('no warning from "warns"');
  return out;
}
