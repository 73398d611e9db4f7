/**
 * `avp init --managed --agent copilot`: avp's hooks in `/etc/github-copilot/policy.d/avp.json` (Copilot CLI's policy
 * hooks: machine-wide, loaded before every other source, in any folder, and neither `disableAllHooks` nor
 * `disabledHooks` suppresses them) and `allowManagedHooksOnly: true` in `/etc/github-copilot/managed-settings.json`
 * (the user's, the repository's and user-enabled plugins' hooks are dropped). Both root's, 0644.
 *
 * The real Copilot CLI, run by an ordinary user created for the test in a private mount namespace over a copy of
 * /etc, in a folder it does not trust, with the user's `disableAllHooks`, hooks of their own, another
 * `COPILOT_HOME` and `AVP_DISABLE=1`: the model's write of a hard-coded key is refused by the managed hook before it
 * is written, and none of the user's hooks run. `avp deinit --managed` gives the admin's file back byte for byte.
 * Before: `init --managed --agent copilot` was refused ("managed hooks come through managed plugins").
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import {
  canUnshare,
  inNamespaceAsync,
  managedSandbox,
  withSandbox,
  type MarkedSandbox,
} from '../support/managed-sandbox.ts';
import { startOpenAIServer } from '../support/openai-server.ts';

const USER = 'avpmanagedcopilot';
/** The real Copilot CLI (`AVP_COPILOT_BIN`, else the one the e2e tests install). */
const COPILOT =
  process.env.AVP_COPILOT_BIN || (existsSync(join(AGENT_CLI_BIN, 'copilot')) ? join(AGENT_CLI_BIN, 'copilot') : '');
const KEY = 'const AWS_KEY = "AKIAQ3EGUIRXZ7PLMN4V";\n';
/** The admin's own managed settings (Copilot reads this file as strict JSON: no comments). */
const ADMIN = '{\n  "permissions": { "disableBypassPermissionsMode": "disable" }\n}\n';

/** The model writes a key with Copilot's `create`; the managed hook refuses it before it is written. */
async function keyWriteRefused(
  e: MarkedSandbox,
  asUser: (script: string, env?: Record<string, string>) => ReturnType<typeof inNamespaceAsync>,
  flags: string[],
  env: Record<string, string>,
) {
  const keyFile = join(e.root, 'src/k.ts');
  const server = await startOpenAIServer(({ body }) => {
    if (!body?.tools?.length) return { text: 'ok' };
    const results = (body.messages ?? []).filter((m: any) => m?.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ name: 'create', arguments: { path: keyFile, file_text: KEY } }] };
    return { text: 'done' };
  });
  try {
    const run = await asUser(`timeout 120 ${COPILOT} -p "write the key file" --allow-all-tools ${flags.join(' ')}`, {
      COPILOT_PROVIDER_BASE_URL: server.url,
      COPILOT_PROVIDER_API_KEY: 'sk-managed-test',
      COPILOT_MODEL: 'test-model',
      ...env,
    });
    const turns = server.requests.filter((r) => (r.body as any)?.tools?.length);
    const toolResults = turns.flatMap((r) => ((r.body as any).messages ?? []).filter((m: any) => m?.role === 'tool'));
    expect({ flags, ran: turns.length > 1, code: run.code, out: (run.stdout + run.stderr).slice(-400) }).toMatchObject({
      ran: true,
    });
    expect({ flags, written: existsSync(keyFile) }).toEqual({ flags, written: false });
    expect(JSON.stringify(toolResults)).toContain('no-secrets');
  } finally {
    await server.close();
  }
}

const hookFile = (mark: string) =>
  `${JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: 'command', bash: `touch ${mark}`, timeoutSec: 10 }] } })}\n`;

describe('avp init --managed --agent copilot', () => {
  test.skipIf(!canUnshare || !COPILOT)(
    "the real Copilot CLI runs the managed hook as an ordinary user, not the user's own, whatever the user's " +
      'settings say (needs root and the agent CLIs: skipped otherwise)',
    () =>
      withSandbox(
        managedSandbox('avp-managed-copilot-', { dropFromEtc: ['github-copilot'], projectDirs: ['src'], marks: true }),
        scenario,
      ),
    240_000,
  );
});

async function scenario(e: MarkedSandbox) {
  const gh = join(e.etc, 'github-copilot');
  mkdirSync(gh, { mode: 0o755 });
  writeFileSync(join(gh, 'managed-settings.json'), ADMIN, { mode: 0o644 });
  const init = await inNamespaceAsync(e, '"$AVP" init --managed --agent copilot');
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('wrote   /etc/github-copilot/policy.d/avp.json');
  expect(init.stdout).toContain('wrote   /etc/github-copilot/managed-settings.json');
  expect(init.stdout).not.toMatch(/not covered\s+copilot/);
  expect(init.stdout).not.toContain('user can still');
  const settings = readFileSync(join(gh, 'managed-settings.json'), 'utf8');
  expect(settings).toContain('"disableBypassPermissionsMode": "disable"');
  expect(settings).toContain('"allowManagedHooksOnly": true');
  const policy = JSON.parse(readFileSync(join(gh, 'policy.d/avp.json'), 'utf8'));
  expect(policy.hooks.preToolUse[0].bash).toBe('/etc/avp/bin/avp hook --agent copilot --event preToolUse');
  expect((await inNamespaceAsync(e, 'stat -c "%U %a" /etc/github-copilot/policy.d/avp.json')).stdout).toBe(
    'root 644\n',
  );

  expect(
    (await inNamespaceAsync(e, `useradd -M -d ${e.home} ${USER} && chown -R ${USER}: ${e.root} ${e.home}`)).code,
  ).toBe(0);
  const asUser = (script: string, env: Record<string, string> = {}) =>
    inNamespaceAsync(e, `cd ${e.root} && ${script}`, { user: USER, env });
  // Not the user's to change, remove or undo.
  for (const script of [
    ': > /etc/github-copilot/policy.d/avp.json',
    'rm -f /etc/github-copilot/policy.d/avp.json',
    'mv /etc/github-copilot/policy.d /tmp/p',
    'printf "{}" > /etc/github-copilot/managed-settings.json',
    '/etc/avp/bin/avp deinit --managed --agent copilot',
  ])
    expect({ script, code: (await asUser(script)).code }).not.toEqual({ script, code: 0 });

  // The user's side: hooks of their own in each place Copilot reads them, and every switch they have.
  const copilotHome = join(e.home, 'other-copilot-home');
  for (const dir of [join(e.home, '.copilot'), copilotHome]) {
    mkdirSync(join(dir, 'hooks'), { recursive: true });
    writeFileSync(join(dir, 'hooks/mine.json'), hookFile(join(e.marks, 'user')));
  }
  mkdirSync(join(e.root, '.github/hooks'), { recursive: true });
  writeFileSync(join(e.root, '.github/hooks/mine.json'), hookFile(join(e.marks, 'project')));
  // In a folder Copilot does not trust, with `disableAllHooks` in the settings it reads and `AVP_DISABLE=1`.
  writeFileSync(join(copilotHome, 'settings.json'), '{ "disableAllHooks": true }\n');
  await inNamespaceAsync(e, `chown -R ${USER}: ${e.root} ${e.home}`);
  await keyWriteRefused(e, asUser, [], { COPILOT_HOME: copilotHome, AVP_DISABLE: '1' });
  // In a trusted folder with hooks on: the user's and the project's hooks would run but for allowManagedHooksOnly.
  await keyWriteRefused(e, asUser, ['--trust-folder'], {});
  expect((await inNamespaceAsync(e, `ls ${e.marks}`)).stdout).toBe('');

  // The administrator undoes it: the admin's file byte for byte, avp's policy file and folder gone.
  const undo = await inNamespaceAsync(e, '"$AVP" deinit --managed --agent copilot');
  expect(undo.code).toBe(0);
  expect(readFileSync(join(gh, 'managed-settings.json'), 'utf8')).toBe(ADMIN);
  expect(existsSync(join(gh, 'policy.d'))).toBe(false);
}
