/**
 * The Codex plugin (`plugins/avp-codex`, listed by `.agents/plugins/marketplace.json`) in the real Codex CLI, offline
 * against the loopback Responses API server, with `dist/avp` on PATH as install.sh or npm would put it, in a project
 * that never ran `avp init` (no `.codex/hooks.json`): installed the documented way (`codex plugin marketplace add
 * <this repo>`, `codex plugin add avp@avp`), a hard-coded key the model writes is refused before it reaches the disk.
 * The control run is the same project with the marketplace added and the plugin not installed: the key is written,
 * so the block comes from the plugin and from nothing else. The structural checks hold the plugin to the Codex
 * adapter: only events avp maps, only `avp hook --agent codex`, only the keys Codex accepts in a hooks file.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import codex from '../../src/agents/codex/index.ts';
import { countedCalls } from '../support/counted-calls.ts';
import { startResponsesServer } from '../support/responses-server.ts';
import { AVP_BIN } from '../support/run-avp.ts';
import { type AgentProject, type AgentRun, runAgent } from './agents/agent-support.ts';
import { CODEX_BIN, codexModel, makeCodexProject, runCodex } from './agents/codex-support.ts';
import type { Step } from './agents/turn-support.ts';
import { slowPassValidator } from './slow-validator.ts';

const REPO = resolve(import.meta.dir, '../..');
const PLUGIN = join(REPO, 'plugins', 'avp-codex');
const MARKETPLACE = join(REPO, '.agents', 'plugins', 'marketplace.json');
const KEY_VALIDATOR = resolve(import.meta.dir, '../fixtures/session/no-hardcoded-keys');
const KEY_FILE = 'src/config.ts';
const KEY_TEXT = 'export const API_KEY = "sk-live-1234567890abcdef";\n';
const DONE = 'Understood, the key stays out.';

const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));

describe('the Codex plugin files', () => {
  const hooksFile = readJson(join(PLUGIN, 'hooks', 'hooks.json'));
  const manifest = readJson(join(PLUGIN, '.codex-plugin', 'plugin.json'));

  test('hooks.json has only the keys Codex accepts at its root (it refuses the file for any other)', () => {
    expect(Object.keys(hooksFile).sort()).toEqual(['description', 'hooks']);
  });

  test('it names exactly the Codex events avp maps, the same set `avp init --agent codex` writes', () => {
    const events = Object.keys(hooksFile.hooks);
    for (const e of events) expect(Object.keys(codex.events)).toContain(e);
    expect(events.sort()).toEqual([...codex.install!.events].sort());
  });

  test('every handler runs `avp hook --agent codex`, with a timeout in seconds', () => {
    for (const groups of Object.values<any[]>(hooksFile.hooks)) {
      expect(groups.length).toBe(1);
      for (const group of groups) {
        expect(group.matcher).toBeUndefined();
        for (const h of group.hooks) {
          expect(h).toEqual({ type: 'command', command: 'avp hook --agent codex', timeout: 120 });
        }
      }
    }
  });

  test('the marketplace entry points at the plugin, under the manifest name', () => {
    const market = readJson(MARKETPLACE);
    const entry = market.plugins.find((p: any) => p.name === manifest.name);
    expect(entry).toBeDefined();
    expect(resolve(REPO, entry.source.path)).toBe(PLUGIN);
    expect(manifest.name).toBe('avp');
    expect(existsSync(resolve(PLUGIN, manifest.hooks))).toBe(true);
  });
});

/** Scripted model: one write of the key (Codex's shell `apply_patch`), then a closing answer. */
function keyStep(root: string, toolResults: number): Step {
  if (toolResults === 0) return { kind: 'write', path: join(root, KEY_FILE), content: KEY_TEXT };
  return { kind: 'done', text: DONE };
}

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  /** The model's request after the write's tool result. */
  afterWrite: any;
}

const projects: AgentProject[] = [];
afterAll(() => {
  for (const p of projects) p.cleanup();
});

/** A project with no Codex hooks of its own, avp on PATH, the key validator accepted, the marketplace added. */
async function runWithPlugin(installPlugin: boolean, trustHooks = true, init = false): Promise<Outcome> {
  let root = '';
  const server = await startResponsesServer((req) => codexModel(root, keyStep)(req));
  try {
    // `avpInit: true`: the driver writes no `.codex/hooks.json`, and nobody runs `avp init` here either.
    const project = makeCodexProject(server.url, { avpInit: true });
    projects.push(project);
    root = project.root;
    const bin = join(project.root, '..', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(AVP_BIN, join(bin, 'avp'));
    project.env.PATH = `${bin}:${project.env.PATH}`;
    project.env.AVP_HOME = join(project.home, '.avp');
    const sh = (argv: string[]) => {
      const r = Bun.spawnSync(argv, { cwd: project.root, env: project.env, stdout: 'pipe', stderr: 'pipe' });
      if (r.exitCode !== 0) throw new Error(`${argv.join(' ')} failed (${r.exitCode}): ${r.stderr}${r.stdout}`);
      return r.stdout.toString();
    };
    cpSync(KEY_VALIDATOR, join(project.root, '.avp', 'validators', 'no-hardcoded-keys'), { recursive: true });
    if (init) sh(['avp', 'init', '--agent', 'codex', '--no-validators']);
    // The twin test: the claiming call outlives its twin's start (test/e2e/slow-validator.ts).
    if (init) slowPassValidator(project.root, 'PreToolUse');
    sh(['avp', 'accept']);
    sh([CODEX_BIN, 'plugin', 'marketplace', 'add', REPO]);
    if (installPlugin) sh([CODEX_BIN, 'plugin', 'add', 'avp@avp']);
    expect(existsSync(join(project.root, '.codex', 'hooks.json'))).toBe(init);
    const prompt = `Create ${KEY_FILE} with the API key.`;
    // Without the bypass, Codex runs a hook only after the user trusted it in `/hooks` (a TUI step).
    const run = trustHooks
      ? await runCodex(project, prompt)
      : await runAgent(
          [
            CODEX_BIN,
            'exec',
            '--dangerously-bypass-approvals-and-sandbox',
            '--skip-git-repo-check',
            '-C',
            root,
            prompt,
          ],
          { cwd: root, env: project.env },
        );
    const afterWrite = server.requests
      .map((r) => r.body)
      .find((b) => JSON.stringify(b).includes('function_call_output'));
    return { project, run, afterWrite };
  } finally {
    await server.close();
  }
}

const said = (o: Outcome) => `codex exit ${o.run.code}${o.run.timedOut ? ' (timed out)' : ''}\n${o.run.stderr}`;

/** avp's hook calls in the project, from its call counter (pending ones included). */
const avpCalls = (project: AgentProject) => countedCalls(project.root);

describe.skipIf(!existsSync(CODEX_BIN))('the Codex plugin in the real Codex CLI', () => {
  test('installed from this repository, it blocks a hard-coded key before the write, with no avp init', async () => {
    const o = await runWithPlugin(true);
    const installed = join(o.project.home, '.codex', 'plugins', 'cache', 'avp', 'avp');
    expect(existsSync(installed), 'codex plugin add copied the plugin into its cache').toBe(true);
    expect(o.afterWrite, said(o)).toBeDefined();
    const text = JSON.stringify(o.afterWrite);
    expect(text, said(o)).toContain('PreToolUse hook');
    expect(text, said(o)).toContain('no-hardcoded-keys');
    expect(existsSync(join(o.project.root, KEY_FILE)), 'the key reached the disk').toBe(false);
    const events = avpCalls(o.project).map((c) => c.event);
    expect(events).toContain('PreToolUse');
  }, 200_000);

  test('control: the marketplace added but the plugin not installed, the same turn writes the key', async () => {
    const o = await runWithPlugin(false);
    expect(o.afterWrite, said(o)).toBeDefined();
    expect(JSON.stringify(o.afterWrite)).not.toContain('no-hardcoded-keys');
    expect(existsSync(join(o.project.root, KEY_FILE)), said(o)).toBe(true);
    expect(avpCalls(o.project)).toEqual([]);
  }, 200_000);

  test("not yet trusted in Codex's /hooks, the plugin's hooks are skipped (what docs/install.md tells the user to do)", async () => {
    const o = await runWithPlugin(true, false);
    expect(o.afterWrite, said(o)).toBeDefined();
    expect(existsSync(join(o.project.root, KEY_FILE)), said(o)).toBe(true);
    expect(avpCalls(o.project)).toEqual([]);
  }, 200_000);

  test('in a project that also ran `avp init --agent codex`, avp judges each event once and still blocks', async () => {
    const o = await runWithPlugin(true, true, true);
    expect(o.afterWrite, said(o)).toBeDefined();
    expect(JSON.stringify(o.afterWrite), said(o)).toContain('no-hardcoded-keys');
    expect(existsSync(join(o.project.root, KEY_FILE)), 'the key reached the disk').toBe(false);
    const pre = avpCalls(o.project).filter((c) => c.event === 'PreToolUse');
    expect(pre.length, JSON.stringify(avpCalls(o.project))).toBe(1);
  }, 200_000);
});
