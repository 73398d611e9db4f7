/**
 * The Claude Code plugin (`plugins/avp`, listed by `.claude-plugin/marketplace.json`) in the real Claude Code CLI,
 * offline against the loopback Anthropic server, with `dist/avp` on PATH as install.sh or npm would put it:
 * (a) loaded with `--plugin-dir` in a project that never ran `avp init`, a Write with a hardcoded key is blocked;
 * (b) installed the `/plugin install` way (`claude plugin marketplace add <this repo>`, `claude plugin install`),
 *     the same; (c) in a project that also ran `avp init`, avp runs once per event, not twice.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startAnthropicServer } from '../support/anthropic-server.ts';
import { countedCalls } from '../support/counted-calls.ts';
import { AVP_BIN } from '../support/run-avp.ts';
import { slowPassValidator } from './slow-validator.ts';
import { CLAUDE_BIN, FIXTURES, mainRequests, newInput, runClaude, turnOf, type Project } from './claude-support.ts';

const REPO = resolve(import.meta.dir, '../..');
const PLUGIN = join(REPO, 'plugins', 'avp');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A git project with the key validator (accepted), avp on PATH as `avp`; `init` also runs `avp init`. */
function pluginProject(opts: { init?: boolean } = {}): Project {
  const base = mkdtempSync(join(tmpdir(), 'avp-plugin-e2e-'));
  made.push(base);
  const root = join(base, 'project');
  const home = join(base, 'home');
  const bin = join(base, 'bin');
  for (const d of [root, home, bin]) mkdirSync(d, { recursive: true });
  symlinkSync(AVP_BIN, join(bin, 'avp'));
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    NO_COLOR: '1',
  };
  const sh = (cmd: string[]) => {
    const r = Bun.spawnSync(cmd, { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
    if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr}`);
    return r.stdout.toString();
  };
  sh(['git', 'init', '-q']);
  if (opts.init) sh(['avp', 'init', '--no-validators']);
  cpSync(join(FIXTURES, 'no-hardcoded-keys'), join(root, '.avp', 'validators', 'no-hardcoded-keys'), {
    recursive: true,
  });
  // The twin test: the claiming call outlives its twin's start (test/e2e/slow-validator.ts).
  if (opts.init) slowPassValidator(root, 'PostToolUse');
  sh(['avp', 'accept']);
  return { root, home, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Scripted model: one Write of a hardcoded key, then a closing answer. */
async function keyServer(file: string) {
  return startAnthropicServer(({ body }) => {
    if (!Array.isArray(body.tools) || !body.tools.length) return { text: 'ok' };
    if (turnOf(body) === 0)
      return {
        toolUse: {
          name: 'Write',
          input: { file_path: file, content: 'export const API_KEY = "sk-live-1234567890abcdef";\n' },
        },
      };
    return { text: 'Understood.' };
  });
}

/** avp's hook calls per event in this project, from its call counter (pending ones included). */
function callsOf(project: Project, event: string): number {
  return countedCalls(project.root).filter((c) => c.event === event).length;
}

async function expectKeyBlocked(project: Project, args: string[]): Promise<void> {
  const file = join(project.root, 'src', 'config.ts');
  const server = await keyServer(file);
  try {
    const run = await runClaude(project, server.url, 'Create src/config.ts with the API key.', { args });
    expect(run.timedOut).toBe(false);
    const main = mainRequests(server.requests);
    expect(main.length).toBeGreaterThanOrEqual(2);
    const next = newInput(main[1]);
    expect(next).toContain('PostToolUse:Write hook blocking error');
    expect(next).toContain('no-hardcoded-keys');
    expect(next).toContain('src/config.ts:1');
  } finally {
    await server.close();
  }
}

describe('the avp plugin in the real Claude Code CLI', () => {
  test('the marketplace and the plugin pass `claude plugin validate`, at the package version', () => {
    const env = { PATH: process.env.PATH!, HOME: mkdtempSync(join(tmpdir(), 'avp-plugin-validate-')) };
    made.push(env.HOME);
    for (const dir of [REPO, PLUGIN]) {
      const r = Bun.spawnSync([CLAUDE_BIN, 'plugin', 'validate', dir], { env, stdout: 'pipe', stderr: 'pipe' });
      expect({ dir, code: r.exitCode, out: r.stdout.toString().includes('Validation passed') }).toEqual({
        dir,
        code: 0,
        out: true,
      });
    }
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version;
    expect(JSON.parse(readFileSync(join(PLUGIN, '.claude-plugin', 'plugin.json'), 'utf8')).version).toBe(version);
  });

  test('--plugin-dir: with no `avp init`, the plugin hook blocks a hardcoded key', async () => {
    const project = pluginProject();
    await expectKeyBlocked(project, ['--plugin-dir', PLUGIN]);
    expect(callsOf(project, 'PostToolUse')).toBe(1);
  }, 150_000);

  test('installed from the marketplace in this repository, the plugin blocks a hardcoded key', async () => {
    const project = pluginProject();
    for (const cmd of [
      ['plugin', 'marketplace', 'add', REPO],
      ['plugin', 'install', 'avp@avp'],
    ]) {
      const r = Bun.spawnSync([CLAUDE_BIN, ...cmd], {
        cwd: project.root,
        env: project.env,
        stdout: 'pipe',
        stderr: 'pipe',
      });
      expect({ cmd, code: r.exitCode, err: r.exitCode ? `${r.stdout}${r.stderr}` : '' }).toEqual({
        cmd,
        code: 0,
        err: '',
      });
    }
    await expectKeyBlocked(project, []);
  }, 150_000);

  test('with `avp init` as well, avp answers once per event (the duplicate call from the other hook passes)', async () => {
    const project = pluginProject({ init: true });
    await expectKeyBlocked(project, ['--plugin-dir', PLUGIN]);
    expect(callsOf(project, 'PostToolUse')).toBe(1);
  }, 150_000);
});
