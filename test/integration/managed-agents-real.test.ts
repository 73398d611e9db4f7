/**
 * `avp init --managed --agent gemini,qwen` with the real Gemini CLI and Qwen Code, run by an ordinary user created
 * for the test in a private mount namespace over a copy of /etc: the hooks in their system settings run while the
 * user's own settings switch hooks off (`hooksConfig.enabled: false` for Gemini, `disableAllHooks: true` for Qwen, and
 * Qwen's safe mode from the project's `.env`), which without avp's switches in the system file turned the managed
 * hooks off too.
 *
 * As in managed-codex.test.ts, avp's hook command is swapped for one that leaves a mark (the layout, keys and
 * precedence are what is tested here, not avp's hook), and no model answers (the provider is a closed port): the
 * session-start hooks run before the first request.
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './hook-support.ts';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';

const isRoot = process.getuid?.() === 0;
const canUnshare = isRoot && process.platform === 'linux' && Bun.spawnSync(['unshare', '-m', 'true']).exitCode === 0;
const USER = 'avpmanagedreal';
const cli = (name: string) => (existsSync(join(AGENT_CLI_BIN, name)) ? join(AGENT_CLI_BIN, name) : '');
const GEMINI = cli('gemini');
const QWEN = cli('qwen');

function setup() {
  const base = mkdtempSync(join(tmpdir(), 'avp-managed-real-'));
  chmodSync(base, 0o755);
  const etc = join(base, 'etc');
  cpSync('/etc', etc, { recursive: true, dereference: false, verbatimSymlinks: true });
  for (const dir of ['gemini-cli', 'qwen-code']) rmSync(join(etc, dir), { recursive: true, force: true });
  const root = join(base, 'project');
  const home = join(base, 'home');
  const marks = join(base, 'marks');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(marks, { mode: 0o777 });
  chmodSync(marks, 0o777);
  return { base, etc, root, home, marks };
}

type Env = ReturnType<typeof setup>;

function inNamespace(e: Env, script: string, userEnv?: string) {
  const body =
    userEnv === undefined
      ? 'exec sh -c "$SCRIPT"'
      : `exec setpriv --reuid=${USER} --regid=${USER} --init-groups env -i PATH=/usr/bin:/bin HOME=${e.home} ` +
        `${userEnv} sh -c "$SCRIPT"`;
  const r = Bun.spawnSync(
    ['unshare', '-m', '--propagation', 'private', 'sh', '-c', `mount --bind "$ETC_COPY" /etc && ${body}`],
    { cwd: e.root, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', ETC_COPY: e.etc, SCRIPT: script, AVP: BIN } },
  );
  return { code: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** The system file with avp's hook command swapped for a mark. */
function markSystemFile(e: Env, dir: string, agent: string): void {
  const file = join(e.etc, dir, 'settings.json');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(`/etc/avp/bin/avp hook --agent ${agent}`);
  writeFileSync(file, text.replaceAll(`/etc/avp/bin/avp hook --agent ${agent}`, `touch ${e.marks}/${agent}`));
}

describe('avp init --managed with the real Gemini CLI and Qwen Code', () => {
  test.skipIf(!canUnshare || !GEMINI || !QWEN)(
    "the system settings' hooks run for an ordinary user whose settings switch hooks off (needs root and the agent " +
      'CLIs: skipped otherwise)',
    () => {
      const e = setup();
      try {
        scenario(e);
      } finally {
        rmSync(e.base, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

function scenario(e: Env) {
  expect(inNamespace(e, '"$AVP" init --managed --agent gemini,qwen --no-validators').code).toBe(0);
  markSystemFile(e, 'gemini-cli', 'gemini');
  markSystemFile(e, 'qwen-code', 'qwen');
  mkdirSync(join(e.home, '.gemini'), { recursive: true });
  writeFileSync(
    join(e.home, '.gemini/settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      hooksConfig: { enabled: false },
    }),
  );
  mkdirSync(join(e.home, '.qwen'), { recursive: true });
  writeFileSync(join(e.home, '.qwen/settings.json'), JSON.stringify({ disableAllHooks: true }));
  // Safe mode from the project's .env (which, without avp's excludedEnvVars in the system file, ran no hook).
  writeFileSync(join(e.root, '.env'), 'QWEN_CODE_SAFE_MODE=1\nQWEN_CODE_SIMPLE=1\n');
  expect(inNamespace(e, `useradd -M -d ${e.home} ${USER} && chown -R ${USER}: ${e.root} ${e.home}`).code).toBe(0);

  inNamespace(
    e,
    `cd ${e.root} && timeout 12 ${GEMINI} -p hello -o json`,
    'GEMINI_API_KEY=x GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9 GEMINI_CLI_TRUST_WORKSPACE=true',
  );
  inNamespace(
    e,
    `cd ${e.root} && timeout 20 ${QWEN} --approval-mode yolo -o json hello`,
    'OPENAI_API_KEY=x OPENAI_BASE_URL=http://127.0.0.1:9/v1 OPENAI_MODEL=m',
  );
  expect(inNamespace(e, `ls ${e.marks}`).stdout.split('\n').filter(Boolean)).toEqual(['gemini', 'qwen']);
}
