/**
 * Codex and Copilot CLI ignore a project's hook file in a folder the user has not trusted, so avp would silently do
 * nothing there: `avp init` says the folder must be trusted and how, and `avp doctor` reports it as a problem until
 * the agent's own config trusts it. Before, init said nothing of it and doctor found nothing broken.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, project, type Project } from './hook-support.ts';

function env(p: Project) {
  return { HOME: p.home, AVP_HOME: join(p.home, '.avp'), PATH: '/usr/bin:/bin' };
}

const run = (p: Project, args: string[]) => runAvp(args, { bin: BIN, cwd: p.root, env: env(p), timeoutMs: 60_000 });

function write(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('Codex: an untrusted project ignores .codex/hooks.json', () => {
  test('init says how to trust it; doctor reports it until config.toml trusts the project', async () => {
    const p = project();
    const init = await run(p, ['init', '--agent', 'codex', '--no-validators']);
    expect(init.code).toBe(0);
    const said = init.stdout + init.stderr;
    expect(said).toContain('Codex does not trust this project');
    expect(said).toContain(`[projects.${JSON.stringify(p.root)}]`);
    expect(said).toContain('trust_level = "trusted"');

    const before = await run(p, ['doctor']);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('problem: Codex does not trust this project');

    const config = join(p.home, '.codex/config.toml');
    write(config, `model = "x"\n\n[projects.${JSON.stringify(p.root)}]\ntrust_level = "untrusted"\n`);
    expect((await run(p, ['doctor'])).stdout).toContain('problem: Codex marks this project untrusted');

    write(config, `model = "x"\n\n[projects.${JSON.stringify(p.root)}]\ntrust_level = "trusted"\n`);
    const after = await run(p, ['doctor']);
    expect(after.stdout).not.toContain('Codex does not trust');
    expect(after.stdout).not.toContain('untrusted');
  });
});

describe("Copilot CLI: a folder it does not trust ignores the repository's hooks", () => {
  test('init says so; doctor reports it until trustedFolders (in its own commented config.json) covers it', async () => {
    const p = project();
    const init = await run(p, ['init', '--agent', 'copilot', '--no-validators']);
    expect(init.code).toBe(0);
    expect(init.stdout + init.stderr).toContain('Copilot CLI does not trust this folder');

    const before = await run(p, ['doctor']);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('problem: Copilot CLI does not trust this folder');

    // As Copilot CLI 1.0.102 writes it: comment lines, then the list; a folder above the project trusts it too.
    write(
      join(p.home, '.copilot/config.json'),
      `// User settings belong in settings.json.\n// This file is managed automatically.\n${JSON.stringify(
        { trustedFolders: [dirname(p.root)] },
        null,
        2,
      )}\n`,
    );
    expect((await run(p, ['doctor'])).stdout).not.toContain('Copilot CLI does not trust');
  });

  test('user-scope hooks run in every folder: no trust problem for `init --user`', async () => {
    const p = project();
    expect((await run(p, ['init', '--agent', 'copilot', '--user', '--no-validators'])).code).toBe(0);
    expect((await run(p, ['doctor'])).stdout).not.toContain('does not trust');
  });
});
