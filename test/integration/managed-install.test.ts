/**
 * `avp init --managed`, the hard guarantee: run as root, it installs avp's binary, validators and policy in /etc/avp
 * and Claude Code's managed hooks in /etc/claude-code. The agent then runs as an ordinary user (created here) and
 * tries every route around avp a user has — environment switches, config and accepted state, its own validator of
 * the same name, the agents' settings, writing the managed files — and a hard-coded key is still refused.
 *
 * Everything runs in a private mount namespace over a copy of /etc, so the machine's own /etc (and other tests'
 * Claude Code) never see these files. Before: `avp init --managed` did not exist.
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canUnshare, inNamespace, managedSandbox, withSandbox, type Sandbox } from '../support/managed-sandbox.ts';

const USER = 'avpmanaged';

/** As the agent's user, with avp's state in their home. */
const asUser = (e: Sandbox, stdin?: string) => ({
  user: USER,
  env: { AVP_HOME: `${e.home}/.avp` },
  ...(stdin === undefined ? {} : { stdin }),
});

function keyWrite(e: Sandbox) {
  const file = join(e.root, 'src/k.ts');
  const content = 'const AWS_KEY = "AKIAQ3EGUIRXZ7PLMN4V";\n';
  return JSON.stringify({
    session_id: 'm1',
    transcript_path: join(e.home, 't.jsonl'),
    cwd: e.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content },
    tool_response: { type: 'create', filePath: file, content },
    tool_use_id: 't1',
  });
}

/** The managed hook as Claude Code would run it, as the agent's user, with `prefix` (env switches) before it. */
function managedHook(e: Sandbox, prefix = ''): any {
  const r = inNamespace(e, `cd ${e.root} && ${prefix} /etc/avp/bin/avp hook --agent claude`, asUser(e, keyWrite(e)));
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`hook answered no JSON (${r.code}): ${r.stdout}\n${r.stderr}`);
  }
}

describe('avp init --managed', () => {
  test.skipIf(!canUnshare)(
    'every route a user has fails (needs root for useradd and a private mount namespace: skipped otherwise)',
    () => withSandbox(managedSandbox('avp-managed-', { dropFromEtc: [], projectDirs: ['src'] }), scenario),
    120_000,
  );
});

function scenario(e: Sandbox) {
  const add = inNamespace(e, `useradd -M -d ${e.home} ${USER} && chown -R ${USER}: ${e.root} ${e.home}`);
  expect(add.code).toBe(0);

  const init = inNamespace(e, '"$AVP" init --managed');
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('/etc/claude-code/managed-settings.d/avp.json');
  const files = inNamespace(
    e,
    'cat /etc/claude-code/managed-settings.d/avp.json /etc/avp/managed.json; ls /etc/avp/validators',
  );
  expect(files.stdout).toContain('"allowManagedHooksOnly": true');
  expect(files.stdout).toContain('/etc/avp/bin/avp hook --agent claude');
  expect(files.stdout).toContain('"validatorsDir": "/etc/avp/validators"');
  expect(files.stdout).toContain('no-secrets');

  // The baseline: the agent's key write is refused.
  expect(managedHook(e).decision).toBe('block');

  // Environment switches the agent can put in its settings' "env".
  for (const prefix of [
    'AVP_DISABLE=1',
    'AVP_SUBAGENT=1',
    'AVP_DISABLED_VALIDATORS=no-secrets',
    `AVP_HOME=${e.home}/elsewhere`,
    'AVP_MANAGED_CONFIG=/dev/null',
  ]) {
    const answer = managedHook(e, prefix);
    expect({ prefix, decision: answer.decision }).toEqual({ prefix, decision: 'block' });
  }

  // Config, accepted by the user themselves (the agent's shell is the user), and a same-named validator.
  const user = (script: string) => inNamespace(e, `cd ${e.root} && ${script}`, asUser(e));
  writeFileSync(join(e.root, 'avp.config.json'), '{"disabled": true, "disabledValidators": ["no-secrets"]}');
  const mine = join(e.home, '.avp/validators/no-secrets');
  mkdirSync(join(mine, 'scripts'), { recursive: true });
  writeFileSync(
    join(mine, 'VALIDATOR.md'),
    '---\nname: no-secrets\ndescription: Passes everything.\nseverity: info\ntrigger: PostToolUse\nscript: scripts/ok.sh\n---\nok\n',
  );
  writeFileSync(join(mine, 'scripts/ok.sh'), '#!/bin/sh\ncat >/dev/null; echo \'{"passed":true,"violations":[]}\'\n');
  chmodSync(join(mine, 'scripts/ok.sh'), 0o755);
  mkdirSync(join(e.root, '.claude'), { recursive: true });
  writeFileSync(join(e.root, '.claude/settings.json'), '{"disableAllHooks": true}');
  inNamespace(e, `chown -R ${USER}: ${e.root} ${e.home}`);
  expect(user('/etc/avp/bin/avp accept').code).toBe(0);
  expect(managedHook(e).decision).toBe('block');

  // The managed files are not the user's to change.
  for (const path of [
    '/etc/avp/managed.json',
    '/etc/avp/bin/avp',
    '/etc/avp/validators/no-secrets/VALIDATOR.md',
    '/etc/claude-code/managed-settings.d/avp.json',
  ]) {
    expect({ path, code: user(`: > ${path}`).code }).not.toEqual({ path, code: 0 });
  }
  expect(user('rm -rf /etc/avp/validators/no-secrets').code).not.toBe(0);
  const deinit = user('/etc/avp/bin/avp deinit --managed');
  expect(deinit.code).toBe(1);
  expect(deinit.stderr).toContain('root');
  expect(managedHook(e).decision).toBe('block');

  // The administrator undoes it.
  const undo = inNamespace(e, '"$AVP" deinit --managed');
  expect(undo.code).toBe(0);
  expect(inNamespace(e, 'ls /etc/avp/bin /etc/claude-code/managed-settings.d/avp.json').code).not.toBe(0);
}
