/**
 * A turn is judged with the ignore rules of its start, whatever rule the agent's shell added during the turn — through
 * the compiled hook, in real git repositories, as an attacker would try it: one Bash call writes an ignore rule, the
 * next writes a file holding a key, and the Stop must still see that file. Every way git learns an ignore rule is
 * tried: a new `.gitignore` that ignores itself, one in a new subfolder, `.git/info/exclude` created during the turn,
 * and `core.excludesFile` (local or global) pointed at a new file. The other side: files the start rules ignored
 * (build output, the user's global excludes) stay out of the Stop's files.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/session');

/** One avp home (and HOME, for git's global config) per project. */
const homes = new Map<string, string>();

function sh(root: string, command: string): void {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homes.get(root)! };
  const p = Bun.spawnSync(['bash', '-c', command], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${command}: ${p.stderr.toString()}`);
}

/** A git repository with one commit and the Stop validator that names the turn's files and the keys in them. */
function project(setup = ''): string {
  const root = tempDir('avp-ignore-turn-');
  homes.set(root, tempDir('avp-ignore-turn-home-'));
  writeFileSync(join(root, 'config.ts'), 'export const url = "x";\n');
  sh(
    root,
    'git init -q && git config user.email t@example.com && git config user.name t && git config commit.gpgsign false' +
      ` && git add . && git commit -qm init${setup ? ` && ${setup}` : ''}`,
  );
  mkdirSync(join(root, '.avp', 'validators'), { recursive: true });
  cpSync(join(FIXTURES, 'stop-turn-files'), join(root, '.avp', 'validators', 'stop-turn-files'), { recursive: true });
  return root;
}

async function hook(root: string, input: Record<string, unknown>) {
  const home = homes.get(root)!;
  const r = await runAvp(['hook', '--agent', 'claude'], {
    cwd: root,
    stdin: JSON.stringify({ transcript_path: join(root, 't.jsonl'), cwd: root, session_id: 's', ...input }),
    env: { CLAUDE_PROJECT_DIR: root, HOME: home, AVP_HOME: join(home, '.avp') },
  });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { decision?: string; reason?: string };
}

/** A Bash call as Claude Code runs it: PreToolUse, the command, PostToolUse. */
async function bash(root: string, command: string, id: string) {
  const input = { tool_name: 'Bash', tool_input: { command }, tool_use_id: id };
  await hook(root, { ...input, hook_event_name: 'PreToolUse' });
  sh(root, command);
  return hook(root, { ...input, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '' } });
}

/** A turn: the prompt, each command as its own Bash call, then the Stop's reason. */
async function turn(root: string, commands: string[]): Promise<string> {
  await hook(root, { hook_event_name: 'UserPromptSubmit', prompt: 'go' });
  for (const [i, c] of commands.entries()) await bash(root, c, `t${i}`);
  const end = await hook(root, { hook_event_name: 'Stop', stop_hook_active: false });
  expect(end.decision).toBe('block');
  return end.reason ?? '';
}

describe('a rule added during the turn hides nothing from the Stop', () => {
  test('a new .gitignore that ignores everything, itself included', async () => {
    const root = project();
    const reason = await turn(root, ["printf '*\\n' > .gitignore", 'echo sk-live-star1 > secret.ts']);
    expect(reason).toContain('keys in: secret.ts');
  });

  test('a new .gitignore naming itself and the file', async () => {
    const root = project();
    const reason = await turn(root, [
      "printf '.gitignore\\nsecret.ts\\n' > .gitignore",
      'echo sk-live-self2 > secret.ts',
    ]);
    expect(reason).toContain('keys in: secret.ts');
  });

  test('the self-ignoring .gitignore and the file in one command', async () => {
    const root = project();
    const reason = await turn(root, ["printf '*\\n' > .gitignore && echo sk-live-one3 > secret.ts"]);
    expect(reason).toContain('keys in: secret.ts');
  });

  test('a self-ignoring .gitignore in a new subfolder', async () => {
    const root = project();
    const reason = await turn(root, ["mkdir -p lib && printf '*\\n' > lib/.gitignore", 'echo sk-live-sub4 > lib/k.ts']);
    expect(reason).toContain('keys in: lib/k.ts');
  });

  test('a nested .gitignore in an existing tracked folder, ignoring itself', async () => {
    const root = project('mkdir src && echo "export {};" > src/a.ts && git add src && git commit -qm src');
    const reason = await turn(root, [
      "printf '.gitignore\\nk.ts\\n' > src/.gitignore",
      'echo sk-live-nest5 > src/k.ts',
    ]);
    expect(reason).toContain('keys in: src/k.ts');
  });

  test('.git/info/exclude created during the turn (absent at its start)', async () => {
    const root = project('rm -rf .git/info');
    const reason = await turn(root, ['mkdir -p .git/info && echo x.ts > .git/info/exclude', 'echo sk-live-ex6 > x.ts']);
    expect(reason).toContain('keys in: x.ts');
  });

  test('core.excludesFile pointed at a new file (repository config)', async () => {
    const root = project();
    const reason = await turn(root, [
      'echo g.ts > ../$(basename "$PWD").ignore && git config core.excludesFile "$PWD.ignore"',
      'echo sk-live-cfg7 > g.ts',
    ]);
    expect(reason).toContain('keys in: g.ts');
  });

  test('core.excludesFile moved from an existing global file to a new one', async () => {
    const root = project(
      'printf "*.log\\n" > "$HOME/old-ignore" && git config --global core.excludesFile "$HOME/old-ignore"',
    );
    const reason = await turn(root, [
      'printf "*.ts\\n" > "$HOME/new-ignore" && git config --global core.excludesFile "$HOME/new-ignore"',
      'echo sk-live-glob8 > moved.ts',
    ]);
    expect(reason).toContain('keys in: moved.ts');
  });

  test('the global excludes file core.excludesFile names, edited during the turn', async () => {
    const root = project('printf "*.log\\n" > "$HOME/gi" && git config --global core.excludesFile "$HOME/gi"');
    const reason = await turn(root, ['echo edited.ts >> "$HOME/gi"', 'echo sk-live-edit13 > edited.ts']);
    expect(reason).toContain('keys in: edited.ts');
  });

  test('what the start rules ignored stays out: build output, the global excludes, a self-ignoring cache, a new rule', async () => {
    const root = project(
      'printf "dist/\\n*.gen.ts\\n" > .gitignore && git add .gitignore && git commit -qm ignore' +
        ' && printf "*.log\\n" > "$HOME/global-ignore" && git config --global core.excludesFile "$HOME/global-ignore"' +
        // A tool's cache that ignores itself before the turn (as pytest and mypy write theirs).
        " && mkdir -p .tool_cache/v && printf '*\\n' > .tool_cache/.gitignore && echo 1 > .tool_cache/v/old",
    );
    const reason = await turn(root, [
      'mkdir -p dist && echo sk-live-dist9 > dist/app.ts && echo sk-live-gen10 > api.gen.ts && echo x > run.log' +
        ' && echo sk-live-cache12 > .tool_cache/v/new.ts',
      "mkdir -p tmp && printf '*\\n' > tmp/.gitignore",
      'echo sk-live-tmp11 > tmp/k.ts',
    ]);
    expect(reason).toContain('keys in: tmp/k.ts');
    for (const kept of ['dist/app.ts', 'api.gen.ts', 'run.log', '.tool_cache']) expect(reason).not.toContain(kept);
  });
});
