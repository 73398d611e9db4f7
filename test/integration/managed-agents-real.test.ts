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
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import {
  canUnshare,
  inNamespace,
  managedSandbox,
  withSandbox,
  type MarkedSandbox,
} from '../support/managed-sandbox.ts';

const USER = 'avpmanagedreal';
const cli = (name: string) => (existsSync(join(AGENT_CLI_BIN, name)) ? join(AGENT_CLI_BIN, name) : '');
const GEMINI = cli('gemini');
const QWEN = cli('qwen');

/** The system file with avp's hook command swapped for a mark. */
function markSystemFile(e: MarkedSandbox, dir: string, agent: string): void {
  const file = join(e.etc, dir, 'settings.json');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(`/etc/avp/bin/avp hook --agent ${agent}`);
  writeFileSync(file, text.replaceAll(`/etc/avp/bin/avp hook --agent ${agent}`, `touch ${e.marks}/${agent}`));
}

describe('avp init --managed with the real Gemini CLI and Qwen Code', () => {
  test.skipIf(!canUnshare || !GEMINI || !QWEN)(
    "the system settings' hooks run for an ordinary user whose settings switch hooks off (needs root and the agent " +
      'CLIs: skipped otherwise)',
    () =>
      withSandbox(
        managedSandbox('avp-managed-real-', { dropFromEtc: ['gemini-cli', 'qwen-code'], marks: true }),
        scenario,
      ),
    120_000,
  );
});

function scenario(e: MarkedSandbox) {
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

  inNamespace(e, untilMarked(e, 'gemini', `${GEMINI} -p hello -o json`), {
    user: USER,
    env: { GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  });
  inNamespace(e, untilMarked(e, 'qwen', `${QWEN} --approval-mode yolo -o json hello`), {
    user: USER,
    env: { OPENAI_API_KEY: 'x', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'm' },
  });
  expect(inNamespace(e, `ls ${e.marks}`).stdout.split('\n').filter(Boolean)).toEqual(['gemini', 'qwen']);
}

/**
 * A shell script that runs the agent until its hook has left the mark (at most 50 s, so both agents fit in the
 * test's 120 s), then stops it: the model's port is closed, so the agent would go on retrying, and a fixed timeout
 * short enough to keep the test quick ended it before its first hook on a loaded machine.
 */
function untilMarked(e: { root: string; marks: string }, agent: string, command: string): string {
  return (
    `cd ${e.root} && { timeout 50 ${command} >/dev/null 2>&1 & pid=$!; i=0; ` +
    `while [ ! -e ${e.marks}/${agent} ] && [ $i -lt 500 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i+1)); done; ` +
    'kill $pid 2>/dev/null; wait $pid; true; }'
  );
}
