/**
 * The built-in guard in-process on the calls ./guard.test.ts does not make: shell commands (sh and PowerShell) that
 * write a control file or put a hook switch into a .env file, a file tool writing an avp binary on PATH, an agent's
 * .env file judged by its lines, a settings file whose hook switches or avp entries change, and Codex's config.toml
 * (user and project). Each reason is checked whole where it tells the agent what to do.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { ENV_SWITCH_REFUSAL } from '../../../src/trust/env-switches.ts';
import { controlPlaneDenial, guardDenial } from '../../../src/trust/guard.ts';
import { tempDir } from '../../support/run-avp.ts';

const root = tempDir('avp-guard-calls-root-');
const home = tempDir('avp-guard-calls-home-');
const env = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: join(home, 'bin') };
const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** A call at PreToolUse: a shell command, or a file tool leaving `after` in `path` (undefined: not rebuilt). */
const shell = (command: unknown, over: Partial<HookEvent> = {}): HookEvent =>
  ({
    agent: 'claude',
    event: 'PreToolUse',
    tool: 'Bash',
    toolInput: { command },
    cwd: root,
    projectRoot: root,
    files: [],
    raw: {},
    ...over,
  }) as HookEvent;
const write = (path: string, after: string | undefined, tool: string | null = 'Write'): HookEvent =>
  ({
    agent: 'claude',
    event: 'PreToolUse',
    ...(tool ? { tool } : {}),
    toolInput: { file_path: path },
    cwd: root,
    projectRoot: root,
    files: [{ path, relPath: relative(root, path), inProject: true, kind: 'update', after }],
    raw: {},
  }) as HookEvent;

const avpHook = (command: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...extra, hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command }] }] } });

const CONTROL_TAIL =
  'Those files decide whether avp checks this agent, and only the user changes them (`avp init` / `avp deinit` in ' +
  "their own terminal). Read them if you need to; don't write them.";

describe('shell commands', () => {
  test('sh writing a hook settings file: refused before it runs, with what to do instead', () => {
    const why = controlPlaneDenial(shell("echo '{}' > .claude/settings.json"), env);
    expect(why).toStartWith('avp refuses this command before it runs: ');
    expect(why).toEndWith(CONTROL_TAIL);
    expect(why).not.toContain(ENV_SWITCH_REFUSAL);
  });

  test('sh putting a hook switch into a .env file: refused with the .env explanation, not the control-file one', () => {
    const why = controlPlaneDenial(shell('echo QWEN_CODE_SIMPLE=true >> .env'), env);
    expect(why).toStartWith('avp refuses this command before it runs: ');
    expect(why).toEndWith(`. ${ENV_SWITCH_REFUSAL}`);
    expect(why).not.toContain('Those files decide');
    expect(controlPlaneDenial(shell('echo API_URL=https://x >> .env'), env)).toBeUndefined();
  });

  test('git marking files unchanged for good: refused with why it hides edits, not the control-file tail', () => {
    const why = controlPlaneDenial(shell('git update-index --assume-unchanged src/a.ts'), env);
    expect(why).toBe(
      'avp refuses this command before it runs: `git update-index --assume-unchanged` makes git report files ' +
        'unchanged whatever is written to them. avp learns from git what a shell command and a turn changed, so ' +
        "the agent's edits to those files would go unchecked; only the user marks files that way.",
    );
    expect(controlPlaneDenial(shell('git update-index --no-skip-worktree src/a.ts'), env)).toBeUndefined();
  });

  test('PowerShell is read as PowerShell: its writes are refused, an sh reading of them is not what counts', () => {
    const ps = (command: string) => shell(command, { tool: 'PowerShell', toolKind: 'shell', agentTool: 'powershell' });
    const why = controlPlaneDenial(ps("Set-Content -Path .claude\\settings.json -Value '{}'"), env);
    expect(why).toStartWith('avp refuses this command before it runs: ');
    expect(why).toEndWith(CONTROL_TAIL);
    expect(controlPlaneDenial(ps("echo '{}' > notes.txt"), env)).toBeUndefined();
    // The same PowerShell text through Bash is no write at all; the sh write through PowerShell is not judged as sh.
    expect(controlPlaneDenial(shell("Set-Content -Path .claude\\settings.json -Value '{}'"), env)).toBeUndefined();
  });

  test('only a shell tool with a command string is read as a command', () => {
    const line = "echo '{}' > .claude/settings.json";
    expect(controlPlaneDenial(shell(line, { tool: 'Write' }), env)).toBeUndefined();
    expect(controlPlaneDenial(shell(42), env)).toBeUndefined();
    expect(controlPlaneDenial(shell(line, { event: 'PostToolUse' }), env)).toBeUndefined();
  });
});

describe('file tools', () => {
  test('an avp on PATH: refused, naming the tool (or "file") and who upgrades avp', () => {
    const bin = join(home, 'bin', 'avp');
    const reason = (tool?: string) =>
      `avp refuses this ${tool ?? 'file'} change: ${relative(root, bin)} is an avp that agents' hooks run. ` +
      'Leave it alone; the user installs or upgrades avp in their own terminal.';
    expect(controlPlaneDenial(write(bin, 'x'), env)).toBe(reason('Write'));
    expect(controlPlaneDenial(write(bin, 'x', null), env)).toBe(reason());
    expect(controlPlaneDenial(write(join(home, 'bin', 'avp-notes'), 'x'), env)).toBeUndefined();
  });

  test("an agent's .env: ordinary lines pass, a new switch line is refused, an unknown result is refused", () => {
    const dotenv = join(root, '.env');
    put(dotenv, 'QWEN_CODE_SIMPLE=true\n');
    expect(controlPlaneDenial(write(dotenv, 'QWEN_CODE_SIMPLE=true\nAPI_URL=https://x\n'), env)).toBeUndefined();
    expect(controlPlaneDenial(write(dotenv, 'AVP_DISABLE=1\n'), env)).toBe(
      `avp refuses this change to .env: it sets AVP_DISABLE=1. ${ENV_SWITCH_REFUSAL}`,
    );
    expect(controlPlaneDenial(write(dotenv, undefined, 'Edit'), env)).toBe(
      'avp refuses this change to .env: its result could not be rebuilt to check it for hook switches.',
    );
  });

  test('a settings file: a hook switch turned on is refused with the switch named and what may be edited', () => {
    const settings = join(root, '.claude', 'settings.json');
    put(settings, avpHook('avp hook --agent claude'));
    expect(
      controlPlaneDenial(write(settings, avpHook('avp hook --agent claude', { disableAllHooks: true })), env),
    ).toBe(
      'avp refuses this change to .claude/settings.json: it sets disableAllHooks=true, which can stop or reroute ' +
        "avp's hooks or change avp's environment; only the user changes that (in their own terminal). Edit the " +
        "other settings without touching hook switches, `env` AVP_* / PATH entries or avp's hook entries.",
    );
  });

  test('a settings file deleted: free without avp hooks in it', () => {
    const settings = join(root, '.gemini', 'settings.json');
    put(settings, '{"model": "x"}');
    const gone = write(settings, undefined);
    gone.files[0] = { ...gone.files[0]!, kind: 'delete', after: null };
    expect(controlPlaneDenial(gone, env)).toBeUndefined();
  });

  test("a settings file: avp's entry changed with the switches kept is refused; an unknown result is refused", () => {
    const settings = join(root, '.claude', 'settings.local.json');
    put(settings, avpHook('avp hook --agent claude'));
    expect(controlPlaneDenial(write(settings, avpHook('avp hook --agent codex')), env)).toBe(
      "avp refuses this change to .claude/settings.local.json: it would change avp's hook entries, which only the " +
        'user changes (`avp init` / `avp deinit` in their own terminal). Edit the other settings without touching ' +
        'the avp hooks.',
    );
    expect(controlPlaneDenial(write(settings, undefined, 'Edit'), env)).toBe(
      "avp refuses this change to .claude/settings.local.json: its result could not be rebuilt to check avp's " +
        'hooks in it.',
    );
  });
});

describe("Codex's config.toml", () => {
  const off = '[features]\ncodex_hooks = false\n';
  const refused = (path: string, e: NodeJS.ProcessEnv = env) =>
    controlPlaneDenial(write(path, off), e)?.startsWith(`avp refuses this change to ${relative(root, path)}: it sets`);

  test('user (~/.codex or $CODEX_HOME) and project: switching hooks off is refused', () => {
    expect(refused(join(home, '.codex', 'config.toml'))).toBe(true);
    expect(refused(join(root, '.codex', 'config.toml'))).toBe(true);
    const codexHome = join(home, 'codex-elsewhere');
    expect(refused(join(codexHome, 'config.toml'), { ...env, CODEX_HOME: codexHome })).toBe(true);
    // With $CODEX_HOME set, ~/.codex is no longer Codex's folder.
    expect(refused(join(home, '.codex', 'config.toml'), { ...env, CODEX_HOME: codexHome })).toBeUndefined();
    expect(refused(join(home, 'config.toml'))).toBeUndefined();
  });

  test("a hooks.json elsewhere in Codex's folder is no plugin's: the user business", () => {
    const loose = join(home, '.codex', 'notes', 'hooks.json');
    expect(controlPlaneDenial(write(loose, avpHook('avp hook --agent codex')), env)).toBeUndefined();
    const plugin = join(home, '.codex', 'plugins', 'm', 'hooks.json');
    expect(controlPlaneDenial(write(plugin, avpHook('avp hook --agent codex')), env)).toStartWith('avp refuses');
  });

  test('other settings in it are the user business: only its hook switches are judged', () => {
    const config = join(root, '.codex', 'config.toml');
    put(config, '[features]\ncodex_hooks = true\n');
    expect(controlPlaneDenial(write(config, '[features]\ncodex_hooks = true\n\nmodel = "o3"\n'), env)).toBeUndefined();
  });

  test("without $HOME in the agent's environment, the user's home folder is found all the same", () => {
    const noHome = { AVP_HOME: env.AVP_HOME, PATH: env.PATH };
    expect(refused(join(homedir(), '.codex', 'config.toml'), noHome)).toBe(true);
    const pluginHooks = join(homedir(), '.claude', 'plugins', 'm', 'hooks.json');
    expect(controlPlaneDenial(write(pluginHooks, avpHook('avp hook --agent claude')), noHome)).toStartWith(
      'avp refuses this change to',
    );
  });
});

describe('guardDenial: an Edit whose result is unknown is judged again on its rebuilt result', () => {
  const settings = join(root, '.claude', 'settings.json');
  /** An Edit of the settings file replacing `from` by `to`, next to a file whose result is known. */
  const edit = (from: string, to: string): HookEvent => ({
    ...write(settings, undefined, 'Edit'),
    toolInput: { file_path: settings, old_string: from, new_string: to },
    files: [
      { path: settings, relPath: '.claude/settings.json', inProject: true, kind: 'update' },
      { path: join(root, 'notes.txt'), relPath: 'notes.txt', inProject: true, kind: 'update', after: 'x' },
    ],
  });

  test("an Edit leaving avp's hooks alone goes on, with the rebuilt result; one changing them is refused", async () => {
    put(settings, avpHook('avp hook --agent claude', { model: 'a' }));
    const kept = edit('"model":"a"', '"model":"b"');
    expect(controlPlaneDenial(kept, env)).toContain('its result could not be rebuilt');
    const ok = await guardDenial(kept, env);
    expect(ok.denial).toBeUndefined();
    expect(ok.event.files[0]!.after).toBe(avpHook('avp hook --agent claude', { model: 'b' }));
    const changed = await guardDenial(edit('--agent claude', '--agent codex'), env);
    expect(changed.denial).toContain("it would change avp's hook entries");
  });

  test('nothing is rebuilt when the answer does not hang on it: the event comes back as it was', async () => {
    const allowed = { ...edit('a', 'b'), files: [{ ...edit('a', 'b').files[0]!, path: join(root, 'src.ts') }] };
    expect(await guardDenial(allowed, env)).toEqual({ denial: undefined, event: allowed });
    expect((await guardDenial(allowed, env)).event).toBe(allowed);
    const known = write(join(home, 'bin', 'avp'), 'x');
    const refused = await guardDenial(known, env);
    expect(refused.denial).toContain('is an avp that agents');
    expect(refused.event).toBe(known);
  });
});
