/**
 * `avp init --managed --agent codex`: avp's hooks, `allow_managed_hooks_only = true` and `[features] hooks = true` in
 * `/etc/codex/requirements.toml`, which Codex reads above every config.toml and `-c` flag (checked with codex 0.169:
 * requirements hooks run without the trust review, the user's own hooks are dropped, and the user's
 * `features.hooks = false` is outvoted). The user cannot write the file; `avp deinit --managed` gives the admin's file
 * back byte for byte; a file that already sets one of those keys is refused, unchanged.
 *
 * As in managed-install.test.ts: root, a private mount namespace over a copy of /etc, a user created for the test.
 * Before: `init --managed` wrote nothing for Codex.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_CLI_BIN } from '../support/agent-clis.ts';
import {
  canUnshare,
  inNamespace,
  managedSandbox,
  withSandbox,
  type MarkedSandbox,
  type Sandbox,
} from '../support/managed-sandbox.ts';

const USER = 'avpmanagedcodex';
/** The real Codex CLI (`AVP_CODEX_BIN`, else the one the e2e tests install, else `codex` on PATH). */
const CODEX =
  process.env.AVP_CODEX_BIN ||
  (existsSync(join(AGENT_CLI_BIN, 'codex')) ? join(AGENT_CLI_BIN, 'codex') : '') ||
  Bun.which('codex') ||
  '';

const ADMIN =
  '# the admin\'s requirements\nallowed_approval_policies = ["on-request"]\n\n[mcp_servers.docs]\nidentity = { command = "docs-mcp" }';

describe('avp init --managed --agent codex', () => {
  test.skipIf(!canUnshare)(
    'requirements.toml holds avp, the user cannot change it, deinit gives it back (needs root: skipped otherwise)',
    () => withSandbox(managedSandbox('avp-managed-codex-', { dropFromEtc: ['codex'] }), scenario),
    120_000,
  );

  test.skipIf(!canUnshare || !CODEX)(
    "the real Codex runs the managed hooks, not the user's, with the user's features.hooks = false (needs root and " +
      'AVP_CODEX_BIN or codex on PATH: skipped otherwise)',
    () => withSandbox(managedSandbox('avp-managed-codex-', { dropFromEtc: ['codex'], marks: true }), realCodex),
    120_000,
  );
});

/**
 * avp's requirements with its hook command swapped for one that leaves a mark (the layout, keys and precedence are
 * what is tested here, not avp's hook), and a user whose config.toml turns hooks off and adds a hook of its own.
 * No model answers (the provider is a closed port): SessionStart and UserPromptSubmit run before the first request.
 */
function realCodex(e: MarkedSandbox) {
  expect(inNamespace(e, '"$AVP" init --managed --agent codex --no-validators').code).toBe(0);
  const req = join(e.etc, 'codex/requirements.toml');
  writeFileSync(
    req,
    readFileSync(req, 'utf8').replaceAll('/etc/avp/bin/avp hook --agent codex', `touch ${e.marks}/managed`),
  );
  const codexHome = join(e.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "m"',
      'model_provider = "closed"',
      '[features]',
      'hooks = false',
      '[model_providers.closed]',
      'name = "closed"',
      'base_url = "http://127.0.0.1:9/v1"',
      'wire_api = "responses"',
      'env_key = "AVP_TEST_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      `[projects."${e.root}"]`,
      'trust_level = "trusted"',
      '[[hooks.SessionStart]]',
      '[[hooks.SessionStart.hooks]]',
      'type = "command"',
      `command = "touch ${e.marks}/user"`,
      '',
    ].join('\n'),
  );
  inNamespace(e, `useradd -M -d ${e.home} ${USER} && chown -R ${USER}: ${e.root} ${e.home}`);
  inNamespace(
    e,
    `cd ${e.root} && AVP_TEST_KEY=x CODEX_HOME=${codexHome} timeout 15 ${CODEX} exec ` +
      `--dangerously-bypass-hook-trust --skip-git-repo-check --json -C ${e.root} -c features.hooks=false hello`,
    { user: USER },
  );
  const left = inNamespace(e, `ls ${e.marks}`).stdout.split('\n').filter(Boolean);
  expect(left).toEqual(['managed']);
}

function scenario(e: Sandbox) {
  const req = join(e.etc, 'codex/requirements.toml');
  expect(inNamespace(e, `useradd -M -d ${e.home} ${USER} && chown -R ${USER}: ${e.root} ${e.home}`).code).toBe(0);

  // The admin's file (no newline at its end): avp's top-level key goes first, its tables after, the rest unchanged.
  mkdirSync(join(e.etc, 'codex'), { mode: 0o755 });
  writeFileSync(req, ADMIN, { mode: 0o644 });
  const init = inNamespace(e, '"$AVP" init --managed --agent codex --no-validators');
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('/etc/codex/requirements.toml');
  const text = readFileSync(req, 'utf8');
  const firstTable = text.indexOf('\n[');
  expect(text.indexOf('\nallow_managed_hooks_only = true\n')).toBeGreaterThan(-1);
  expect(text.indexOf('\nallow_managed_hooks_only = true\n')).toBeLessThan(firstTable);
  expect(text).toContain(ADMIN);
  expect(text).toContain('\n[features]\nhooks = true\n');
  for (const event of ['SessionStart', 'PreToolUse', 'PostToolUse', 'Stop'])
    expect(text).toContain(
      `[[hooks.${event}]]\nmatcher = "*"\n\n[[hooks.${event}.hooks]]\ntype = "command"\n` +
        'command = "/etc/avp/bin/avp hook --agent codex"\ntimeout = 60\n',
    );
  // Twice: the same file.
  expect(inNamespace(e, '"$AVP" init --managed --agent codex --no-validators').code).toBe(0);
  expect(readFileSync(req, 'utf8')).toBe(text);

  // Not the user's to change or remove.
  for (const script of [
    ': > /etc/codex/requirements.toml',
    'rm -f /etc/codex/requirements.toml',
    'mv /etc/codex /tmp/x',
  ])
    expect({ script, code: inNamespace(e, script, { user: USER }).code }).not.toEqual({ script, code: 0 });

  // The administrator undoes it: byte for byte.
  const undo = inNamespace(e, '"$AVP" deinit --managed --agent codex');
  expect(undo.code).toBe(0);
  expect(readFileSync(req, 'utf8')).toBe(ADMIN);

  // A file that already sets one of avp's keys is refused and left as it was.
  const own = `${ADMIN}\n\n[features]\nhooks = false\n`;
  writeFileSync(req, own);
  const refused = inNamespace(e, '"$AVP" init --managed --no-validators');
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('[features]');
  expect(readFileSync(req, 'utf8')).toBe(own);
  // …before anything else was written (every agent's file is checked first).
  expect(inNamespace(e, 'ls /etc/claude-code/managed-settings.d/avp.json /etc/gemini-cli/settings.json').code).not.toBe(
    0,
  );

  // No file: created (root's, 0644), then removed with the folder.
  rmSync(join(e.etc, 'codex'), { recursive: true });
  expect(inNamespace(e, '"$AVP" init --managed --agent codex --no-validators').code).toBe(0);
  expect(inNamespace(e, 'stat -c "%U %a" /etc/codex/requirements.toml').stdout).toBe('root 644\n');
  expect(inNamespace(e, '"$AVP" deinit --managed').code).toBe(0);
  expect(inNamespace(e, 'ls -d /etc/codex').code).not.toBe(0);
}
