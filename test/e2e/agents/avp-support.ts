/**
 * avp wired into a driven agent as a user would do it: `avp` on PATH (a temp bin folder holding a link to `dist/avp`),
 * `avp init --agent NAME` in the temp project (hook entries and the catalog's recommended validators), a script Stop
 * validator that never passes, `avp accept`. The scripted turn then writes a hard-coded key, runs `rm -rf ~` and
 * stops. `rm` on that PATH is a guard: asked to delete the temp HOME it records the attempt and deletes nothing, so a
 * hook that fails to deny costs a failed test, never a file.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { AVP_BIN } from '../../support/run-avp.ts';
import { projectSessions } from '../../support/session-state.ts';
import type { AgentProject } from './agent-support.ts';
import type { Step } from './turn-support.ts';

/** What the user asks for in the scripted turn with avp (avpStepAt). */
export const PROMPT = 'Add src/config.ts with the API key, clean up the home folder, then stop.';
/** avp's default loop guard: Stops it blocks in a row before it lets the agent stop. */
export const MAX_STOP_BLOCKS = 3;
export const KEY_FILE = 'src/config.ts';
export const KEY_TEXT = 'export const API_KEY = "sk-live-1234567890abcdef";\n';
export const RM_HOME = 'rm -rf ~';
export const DONE_TEXT = 'All done, stopping now.';
/** In the temp HOME: still there after the turn, or `rm -rf ~` ran. */
export const SENTINEL = 'sentinel-keep-me.txt';
const STOP_FIXTURE = resolve(import.meta.dir, '../../fixtures/session/always-fail-stop');

/** The scripted turn with avp: write the key, run `rm -rf ~`, then end the turn (again after every blocked Stop). */
export function avpStepAt(root: string, toolResults: number): Step {
  if (toolResults === 0) return { kind: 'write', path: join(root, KEY_FILE), content: KEY_TEXT };
  if (toolResults === 1) return { kind: 'shell', command: RM_HOME };
  return { kind: 'done', text: DONE_TEXT };
}

function sh(project: AgentProject, argv: string[]): string {
  const r = Bun.spawnSync(argv, { cwd: project.root, env: project.env, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')} failed (${r.exitCode}): ${r.stderr}${r.stdout}`);
  return r.stdout.toString();
}

/** The `rm` guard: refuses (and records) any deletion of the temp HOME; anything else goes to the real rm. */
function rmGuard(home: string, log: string): string {
  return `#!/bin/sh
for a in "$@"; do
  case "$a" in
    '${home}'|'${home}/'|'~') echo "rm $*" >> '${log}'; exit 0 ;;
  esac
done
exec /bin/rm "$@"
`;
}

/**
 * Puts avp on the project's PATH, runs `avp init --agent NAME`, adds the never-passing Stop validator, accepts. With
 * `user`, all of it at user scope (`avp init --user`: the agent's user hook file, `$AVP_HOME/validators`).
 */
export function installAvp(
  project: AgentProject,
  agent: string,
  opts: { user?: boolean } = {},
): { rmLog: string; initOutput: string } {
  const bin = join(project.root, '..', 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(AVP_BIN, join(bin, 'avp'));
  const rmLog = join(project.root, '..', 'rm-guard.log');
  writeFileSync(join(bin, 'rm'), rmGuard(project.home, rmLog));
  chmodSync(join(bin, 'rm'), 0o755);
  writeFileSync(join(project.home, SENTINEL), 'the hook must deny rm -rf ~\n');
  project.env.PATH = `${bin}:${project.env.PATH}`;
  // Agents run shell commands in login shells (Codex: `bash -lc`), whose /etc/profile resets PATH; the HOME's own
  // profile, read after it, puts the guard back in front.
  for (const f of ['.bash_profile', '.profile']) writeFileSync(join(project.home, f), `PATH="${bin}:$PATH"\n`);
  project.env.AVP_HOME = join(project.home, '.avp');
  const initOutput = sh(project, ['avp', 'init', '--agent', agent, ...(opts.user ? ['--user'] : [])]);
  const validators = opts.user ? join(project.env.AVP_HOME, 'validators') : join(project.root, '.avp', 'validators');
  cpSync(STOP_FIXTURE, join(validators, 'always-fail-stop'), { recursive: true });
  // A validator added after `avp init` is pending until the user accepts it.
  sh(project, ['avp', 'accept']);
  return { rmLog, initOutput };
}

/** avp's session records (`$AVP_HOME/sessions/<project>/<session>/events.jsonl`) of every session in the project. */
export function sessionRecords(project: AgentProject): Array<{ t: string }> {
  const state = projectSessions(project.env.AVP_HOME!, project.root);
  if (!existsSync(state)) return [];
  return readdirSync(state)
    .filter((d) => !d.startsWith('.') && existsSync(join(state, d, 'events.jsonl')))
    .flatMap((d) =>
      readFileSync(join(state, d, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
}

/** The validators avp ran, from its run logs (`.avp/logs/*.jsonl`): name and outcome per run. */
export function runLog(project: AgentProject): any[] {
  const logs = join(project.root, '.avp', 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs)
    .filter((f) => f.endsWith('.jsonl') && !f.startsWith('calls-'))
    .flatMap((f) =>
      readFileSync(join(logs, f), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
}
