/**
 * The README from a fresh clone, as a stranger follows it: `npm run setup` puts avp on PATH (into a throwaway npm
 * prefix), `npm run example` blocks the captured key write, the test command is the one CI runs, and the Quickstart
 * runs verbatim with the avp that setup installed. The clone is of this repository's committed HEAD.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { consoleBlock, runSteps } from '../support/readme-blocks.ts';
import { tempDir } from '../support/run-avp.ts';

const REPO = resolve(import.meta.dir, '../..');
const TEN_MINUTES = 600_000;

function sh(command: string, cwd: string, env: Record<string, string>) {
  const p = Bun.spawnSync(['sh', '-c', command], { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  return { code: p.exitCode, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

/** The README's first ```sh block after `heading`, as its command lines (comments dropped). */
function shBlock(heading: string): string[] {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const open = text.indexOf('```sh\n', text.indexOf(`\n${heading}\n`));
  const body = text.slice(open + 6, text.indexOf('\n```', open));
  return body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
}

describe('the README from a fresh clone', () => {
  test(
    'npm run setup → avp on PATH; npm run example blocks the key; .ci/run is the test command; the Quickstart passes',
    async () => {
      const base = realpathSync(tempDir('avp-readme-clone-'));
      const clone = join(base, 'avp');
      const home = join(base, 'home');
      const prefix = join(base, 'prefix');
      mkdirSync(home);
      expect(
        sh(`git clone -q ${JSON.stringify(REPO)} ${JSON.stringify(clone)}`, base, { PATH: process.env.PATH! }).code,
      ).toBe(0);
      expect(existsSync(join(clone, 'node_modules'))).toBe(false);
      // npm's download cache stays where it is (a user's would be warm too); everything else is this test's.
      const env = {
        PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
        HOME: home,
        npm_config_prefix: prefix,
        npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? '/root', '.npm'),
        NO_COLOR: '1',
      };

      // Install: the README's one command.
      expect(shBlock('## Install')).toEqual(['npm run setup']);
      const setup = sh('npm run setup', clone, env);
      expect(`${setup.code}\n${setup.out}`).toContain(`0\n`);
      expect(setup.out).toContain(`is on PATH (${join(prefix, 'bin', 'avp')} → ${join(clone, 'dist', 'avp')})`);
      const version = sh('avp --version', base, env);
      expect(version.out.trim()).toBe(JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).version);

      // The two commands: the main job runs here; the test command is the one CI runs (not run inside itself).
      const two = shBlock('## The two commands');
      expect(two).toEqual(['npm ci && npm run example', 'npm ci && npm test']);
      const example = sh('npm run example', clone, env);
      expect(example.code).toBe(0);
      expect(example.out).toContain('"decision": "block"');
      expect(example.out).toContain('[no-secrets] src/config.ts:1');
      expect(readFileSync(join(clone, '.ci/run'), 'utf8')).toContain('npm ci --no-audit --no-fund && npm test');

      // The Quickstart, verbatim, with the avp setup installed (offline, no judge, a git identity).
      mkdirSync(join(base, 'your-project'));
      const qsEnv = {
        ...env,
        AVP_HOME: join(home, '.avp'),
        AVP_REGISTRY_URL: 'http://127.0.0.1:9',
        GIT_AUTHOR_NAME: 'you',
        GIT_AUTHOR_EMAIL: 'you@example.com',
        GIT_COMMITTER_NAME: 'you',
        GIT_COMMITTER_EMAIL: 'you@example.com',
        PATH: `${join(prefix, 'bin')}:/usr/local/bin:/usr/bin:/bin`,
      };
      expect(sh('git init -q', join(base, 'your-project'), qsEnv).code).toBe(0);
      await runSteps(consoleBlock('## Quickstart', join(clone, 'README.md')), base, qsEnv);
    },
    TEN_MINUTES,
  );
});
