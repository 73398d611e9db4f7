/**
 * What driving any real agent CLI end to end needs: a throwaway git project with a temp HOME, a recording hook script
 * wired into the agent's hook config, and a headless run of the CLI that is killed as a whole process group when it
 * runs over its time (agents start hooks and shells of their own that a plain kill would leave behind).
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENT_CLI_BIN } from '../../support/agent-clis.ts';

export const BIN = AGENT_CLI_BIN;

/** A pre-tool hook input whose tool input contains this string is answered with the agent's blocking shape. */
export const BLOCK_MARKER = 'avp-e2e-block-me';
/** The reason the recording hook gives when it blocks: the test looks for it in the model's next request. */
export const BLOCK_REASON = 'Blocked by the e2e test hook (reason-7f3a): this command is not allowed.';

export interface AgentProject {
  /** The project folder (a git repository), where the agent runs. */
  root: string;
  /** The agent's HOME (its config and session files live here). */
  home: string;
  /** Where the recording hook writes one `<time>-<pid>.json` (stdin) and `.env` (agent variables, cwd) per call. */
  records: string;
  /** The command line the agent's hook config runs. */
  hookCommand: string;
  /** PATH, HOME and a few quiet-mode variables; each agent adds its own. */
  env: Record<string, string>;
  cleanup(): void;
}

export interface HookRecord {
  input: any;
  /** `cwd=…` and the agent's own variables (CODEX_*, GEMINI_*, QWEN_*, FACTORY_*, DROID_*, CLAUDE_*), and whether
   * the model keys (OPENAI_*, ANTHROPIC_*) reach hooks. */
  env: Record<string, string>;
}

/**
 * The recording hook: saves its stdin and the agent's variables, answers `blockAnswer` to a pre-tool event
 * (PreToolUse / BeforeTool) whose input contains BLOCK_MARKER, and `{}` (carry on) to everything else.
 */
function hookScript(records: string, blockAnswer: object): string {
  return `#!/bin/sh
f="${records}/$(date +%s%N)-$$"
cat > "$f.json.tmp"
{ echo "cwd=$(pwd)"; env | grep -E '^(CODEX|GEMINI|QWEN|FACTORY|DROID|CLAUDE|OPENAI|ANTHROPIC)_'; } > "$f.env"
mv "$f.json.tmp" "$f.json"
if grep -q '${BLOCK_MARKER}' "$f.json" && grep -Eq '"hook_event_name": *"(PreToolUse|BeforeTool)"' "$f.json"; then
  cat <<'ANSWER'
${JSON.stringify(blockAnswer)}
ANSWER
  exit 0
fi
echo '{}'
`;
}

/**
 * What the agent's hooks run: the recording hook, which blocks with `reason` (in the agent's shape), a command of
 * the test's own (it still runs in the temp project and HOME), or nothing written by the driver: `avpInit`, where the
 * test runs `avp init --agent NAME` in the project and avp writes the agent's hook file itself.
 */
export type HookSetup = { reason: string } | { command: string } | { avpInit: true };

export const reasonOf = (hook: HookSetup): string => ('reason' in hook ? hook.reason : '');
export const commandOf = (hook: HookSetup): string | undefined => ('command' in hook ? hook.command : undefined);
/** Whether the driver writes the agent's project hook file (not when `avp init` does). */
export const writesHooks = (hook: HookSetup): boolean => !('avpInit' in hook);

/** A PreToolUse refusal in Claude Code's shape, which Codex, Qwen Code and Droid read too (nothing else in it). */
export const preToolUseDeny = (reason: string) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
});

/** A settings `hooks` table running `entry` on every tool event (any tool, `matcher: '*'`) and every other event. */
export const hooksOn = (toolEvents: string[], otherEvents: string[], entry: object) =>
  Object.fromEntries([
    ...toolEvents.map((e) => [e, [{ matcher: '*', hooks: [entry] }]]),
    ...otherEvents.map((e) => [e, [{ hooks: [entry] }]]),
  ]);

/**
 * A folder for temp projects that no other user can write to, nor any folder above it: Gemini CLI skips a settings
 * file (the judge's hooks-off defaults) under a folder writable by others, such as /tmp.
 */
export function secureTempParent(): string {
  const dir = join(homedir(), '.cache', 'avp-tests');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

/**
 * A git project, a HOME and the recording hook, all under one temp folder (in `parent`, default the system's temp
 * folder); `command` replaces the recording hook.
 */
export function makeAgentProject(agent: string, blockAnswer: object, command?: string, parent?: string): AgentProject {
  const base = mkdtempSync(join(parent ?? tmpdir(), `avp-e2e-${agent}-`));
  const root = join(base, 'project');
  const home = join(base, 'home');
  const records = join(base, 'hook-records');
  for (const d of [root, home, records]) mkdirSync(d, { recursive: true });
  const hook = join(base, 'record-hook.sh');
  writeFileSync(hook, hookScript(records, blockAnswer));
  chmodSync(hook, 0o755);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    NO_COLOR: '1',
    TERM: 'dumb',
    CI: '1',
  };
  const git = Bun.spawnSync(
    ['bash', '-c', 'git init -q && git config user.email e2e@example.com && git config user.name e2e'],
    { cwd: root, env },
  );
  if (git.exitCode !== 0) throw new Error(`git init failed: ${git.stderr}`);
  return {
    root,
    home,
    records,
    hookCommand: command ?? hook,
    env,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** Every hook call recorded so far, in the order they ran. */
export function readRecords(project: AgentProject): HookRecord[] {
  return readdirSync(project.records)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ f, key: f.split(/[-.]/, 2).map(BigInt) as [bigint, bigint] }))
    .sort((a, b) => (a.key[0] !== b.key[0] ? cmp(a.key[0], b.key[0]) : cmp(a.key[1], b.key[1])))
    .map(({ f }) => f)
    .map((f) => {
      const raw = readFileSync(join(project.records, f), 'utf8');
      const envText = readFileSync(join(project.records, f.replace(/\.json$/, '.env')), 'utf8');
      const env = Object.fromEntries(
        envText
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      return { input: JSON.parse(raw), env };
    });
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `argv` in its own process group; on timeout the whole group is killed, so no hook or shell outlives it. */
export async function runAgent(
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<AgentRun> {
  const proc = Bun.spawn(argv, {
    cwd: opts.cwd,
    env: opts.env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    detached: true,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      proc.kill('SIGKILL');
    }
  }, opts.timeoutMs ?? 150_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  // Whatever the agent left running in its group (background shells, hooks) goes with it.
  try {
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
  return { code, stdout, stderr, timedOut };
}

/** Writes a JSON file, creating its folder. */
export function writeJson(path: string, value: unknown): void {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Whether any process is left in process group `pgid` (a signal 0 reaches none once the group is gone). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Processes on this machine whose environment holds `HOME=home` (a test's temp HOME): what an agent started and
 * left behind, even outside its process group (a `setsid` child). Linux only (/proc); elsewhere none are found.
 */
export function processesWithHome(home: string): number[] {
  if (!existsSync('/proc')) return [];
  const needle = `\0HOME=${home}\0`;
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)
    .filter((d) => {
      try {
        return `\0${readFileSync(`/proc/${d}/environ`, 'latin1')}`.includes(needle);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}
