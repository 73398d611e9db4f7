/**
 * The first hour with judges, through the compiled binary: `avp add` refuses an LLM validator no judge can evaluate
 * (before installing anything; `--force` installs it anyway; script validators are never refused), `avp doctor`
 * finds every judge that cannot work (a command not on PATH or not executable, routing, AVP_CLAUDE_BIN, keys), and
 * `avp check` honours the kill switch like hook mode.
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, sh } from './hook-support.ts';

interface Scratch {
  root: string;
  home: string;
  run(args: string[], env?: Record<string, string>): ReturnType<typeof runAvp>;
  installed(name: string): boolean;
  write(rel: string, text: string, mode?: number): string;
}

/** A project (with `.git`) and a home of its own; PATH holds no claude. */
function scratch(): Scratch {
  const root = tempDir('avp-first-hour-');
  const home = tempDir('avp-first-hour-home-');
  mkdirSync(join(root, '.git'));
  return {
    root,
    home,
    run: (args, env = {}) =>
      runAvp(args, {
        bin: BIN,
        cwd: root,
        env: { HOME: home, AVP_HOME: join(home, '.avp'), PATH: '/usr/bin:/bin', ...env },
      }),
    installed: (name) => existsSync(join(home, '.avp/validators', name)),
    write(rel, text, mode) {
      const p = join(root, rel);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, text);
      if (mode !== undefined) chmodSync(p, mode);
      return p;
    },
  };
}

/** Claude Code settings calling avp (doctor's "no hook installed" is a problem of its own). */
const AVP_HOOK = { hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'avp hook' }] }] } };

const FRONT = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Checks ${name}.\nseverity: error\ntrigger: PostToolUse\n${extra}---\n`;

/** A local RuleSet with two rules; `script` makes every rule a script validator. */
function ruleSet(s: Scratch, name: string, script: boolean): string {
  const dir = join(s.root, 'pkgs', name);
  const extra = `metadata:\n  version: "1.0.0"\n${script ? 'script: scripts/check.sh\n' : ''}`;
  s.write(`pkgs/${name}/VALIDATOR.md`, `${FRONT(name, extra)}Team rules.\n`);
  s.write(`pkgs/${name}/rules/one.md`, 'Rule one.\n');
  s.write(`pkgs/${name}/rules/two.md`, 'Rule two.\n');
  if (script) s.write(`pkgs/${name}/scripts/check.sh`, sh('cat >/dev/null; echo \'{"passed":true}\''), 0o755);
  return dir;
}

describe('avp add: an LLM validator never locks the user out by surprise', () => {
  test('no judge: refused before anything is installed, with every way to configure one and --force', async () => {
    const s = scratch();
    const r = await s.run(['add', 'sql-injection', '--offline']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sql-injection is an LLM validator, and no judge can evaluate it');
    for (const way of ['claude', 'ANTHROPIC_API_KEY', 'OPENAI_BASE_URL', 'judge.command', 'avp doctor'])
      expect(r.stderr).toContain(way);
    expect(r.stderr).toContain('`avp add sql-injection --force` installs it anyway');
    expect(s.installed('sql-injection')).toBe(false);
    expect(existsSync(join(s.home, '.avp/avp-lock.json'))).toBe(false);
  });

  test('several specs: one refused LLM validator installs none of them', async () => {
    const s = scratch();
    const r = await s.run(['add', 'no-secrets', 'sql-injection', '--offline']);
    expect(r.code).toBe(1);
    expect(s.installed('no-secrets')).toBe(false);
    expect(s.installed('sql-injection')).toBe(false);
  });

  test('--force installs it anyway, and warns that it blocks until a judge works', async () => {
    const s = scratch();
    const r = await s.run(['add', 'sql-injection', '--offline', '--force']);
    expect(r.code).toBe(0);
    expect(s.installed('sql-injection')).toBe(true);
    expect(r.stderr).toContain('no judge can evaluate sql-injection');
  });

  test('script validators, and RuleSets whose rules are all scripts, need no judge: never refused', async () => {
    const s = scratch();
    expect((await s.run(['add', 'no-secrets', '--offline'])).code).toBe(0);
    expect(s.installed('no-secrets')).toBe(true);
    const scripts = await s.run(['add', ruleSet(s, 'script-rules', true)]);
    expect(scripts.code).toBe(0);
    expect(s.installed('script-rules')).toBe(true);
    // The same RuleSet with prompt rules is refused, naming its rules.
    const llm = await s.run(['add', ruleSet(s, 'prompt-rules', false)]);
    expect(llm.code).toBe(1);
    expect(llm.stderr).toContain('prompt-rules (prompt-rules/one, prompt-rules/two) is an LLM validator');
    expect(s.installed('prompt-rules')).toBe(false);
  });

  test('a judge that can work: installed, offline, without sending anything', async () => {
    const s = scratch();
    // A refused port: the static check must not try to reach the backend.
    const r = await s.run(['add', 'sql-injection', '--offline'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(0);
    expect(s.installed('sql-injection')).toBe(true);
  });

  test('a judge command that is not on PATH is no judge; one that exists is', async () => {
    const s = scratch();
    const missing = await s.run(['add', 'sql-injection', '--offline'], { AVP_JUDGE_COMMAND: 'no-such-judge -p' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('`no-such-judge` is not on PATH (AVP_JUDGE_COMMAND: `no-such-judge -p`)');
    expect(s.installed('sql-injection')).toBe(false);
    const present = await s.run(['add', 'sql-injection', '--offline'], { AVP_JUDGE_COMMAND: 'cat' });
    expect(present.code).toBe(0);
  });

  test('per-validator routing to a judge that cannot work is refused even when the default works', async () => {
    const s = scratch();
    s.write('avp.config.json', JSON.stringify({ judge: { validators: { 'sql-injection': 'claude' } } }));
    const r = await s.run(['add', 'sql-injection', '--offline'], { ANTHROPIC_API_KEY: 'k' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('judge.validators routes "sql-injection" to claude');
    expect(r.stderr).toContain('the claude CLI is not on PATH');
  });
});

describe('avp doctor: every configured judge is checked', () => {
  test('judge.command whose program is not on PATH: broken, with the fix, exit 1 even with no validator', async () => {
    const s = scratch();
    s.write('avp.config.json', JSON.stringify({ judge: { command: 'codex exec -' } }));
    const r = await s.run(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("BROKEN: the judge command's program `codex` is not on PATH");
    expect(r.stdout).toContain('fix: install codex or add its folder to PATH');
    expect(r.stdout).toContain('problem: the configured judge cannot work');
    expect(r.stdout).not.toContain('nothing is broken');
  });

  test('a judge script that is not executable, then fixed; AVP_JUDGE_COMMAND is checked the same way', async () => {
    const s = scratch();
    s.write('.avp/validators/llm-check.md', `${FRONT('llm-check')}Check it.\n`);
    const judge = s.write('judge.sh', sh('cat >/dev/null; echo ALLOW'), 0o644);
    s.write('avp.config.json', JSON.stringify({ judge: { command: './judge.sh' } }));
    const r = await s.run(['doctor', '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.judges[0].problem.message).toContain('./judge.sh is not an executable file');
    expect(j.judges[0].problem.fix).toBe(`chmod +x ${judge}`);
    expect(j.problems.join('\n')).toContain('1 LLM validator(s) have no judge that works (llm-check)');
    chmodSync(judge, 0o755);
    // With nothing else broken but no hook installed, doctor still fails: install one, as `avp init` would.
    s.write('.claude/settings.json', JSON.stringify(AVP_HOOK));
    const fixed = await s.run(['doctor']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('exists; not run');
    const env = await s.run(['doctor'], { AVP_JUDGE_COMMAND: '/nowhere/judge --json' });
    expect(env.code).toBe(1);
    expect(env.stdout).toContain(
      "BROKEN: the judge command's program /nowhere/judge does not exist (AVP_JUDGE_COMMAND",
    );
  });

  test('a routed judge that cannot work is a problem while the default one works', async () => {
    const s = scratch();
    s.write('.avp/validators/llm-a.md', `${FRONT('llm-a')}Check a.\n`);
    s.write('.avp/validators/llm-b.md', `${FRONT('llm-b')}Check b.\n`);
    s.write('avp.config.json', JSON.stringify({ judge: { command: 'cat', validators: { 'llm-b': 'openai' } } }));
    const r = await s.run(['doctor', '--no-probe']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('for llm-b: openai');
    expect(r.stdout).toContain('BROKEN: the openai judge goes to api.openai.com but OPENAI_API_KEY is not set');
    expect(r.stdout).toContain('problem: 1 LLM validator(s) have no judge that works (llm-b)');
  });

  test('AVP_CLAUDE_BIN that is not an executable is said, not silently passed over', async () => {
    const s = scratch();
    s.write('.avp/validators/llm-a.md', `${FRONT('llm-a')}Check a.\n`);
    const r = await s.run(['doctor', '--no-probe'], { AVP_CLAUDE_BIN: '/opt/nowhere/claude', ANTHROPIC_API_KEY: 'k' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('AVP_CLAUDE_BIN=/opt/nowhere/claude is not an executable file');
  });
});

describe('avp check and the kill switch', () => {
  function failing(): Scratch {
    const s = scratch();
    s.write('.avp/validators/always-fails/VALIDATOR.md', `${FRONT('always-fails', 'script: scripts/no.sh\n')}No.\n`);
    s.write(
      '.avp/validators/always-fails/scripts/no.sh',
      sh(`cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"no","message":"never"}],"summary":"no"}'`),
      0o755,
    );
    s.write('notes.txt', 'hello\n');
    return s;
  }

  test('AVP_DISABLE=1: exit 0, nothing runs, said on stderr; --json says it too', async () => {
    const s = failing();
    expect((await s.run(['check', 'notes.txt'])).code).toBe(1);
    const r = await s.run(['check', 'notes.txt'], { AVP_DISABLE: '1' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('avp is disabled (AVP_DISABLE=1): no validator ran');
    expect(r.stderr).toContain('unset AVP_DISABLE to check');
    expect(r.stdout).toBe('');
    const j = JSON.parse((await s.run(['check', 'notes.txt', '--json'], { AVP_DISABLE: '1' })).stdout);
    expect(j).toMatchObject({ outcome: 'PASSED', disabled: 'AVP_DISABLE=1', validators: [] });
    expect(j.summary).toContain('avp is disabled');
  });

  test('"disabled": true in the config: the same, naming the file', async () => {
    const s = failing();
    s.write('avp.config.json', JSON.stringify({ disabled: true }));
    const r = await s.run(['check', 'notes.txt']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`avp is disabled ("disabled": true in ${join(s.root, 'avp.config.json')})`);
    expect(r.stderr).toContain('remove "disabled": true to check');
  });
});
