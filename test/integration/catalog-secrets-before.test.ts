/**
 * A secret never reaches the disk: the catalog's no-secrets + no-secrets-before through the compiled binary, fed the
 * captured hook inputs of Claude Code, Gemini CLI and Qwen Code (their PreToolUse shapes). A Write/Edit whose result
 * adds a key is refused before it runs; a shell command that writes a literal key is refused before it runs; a
 * `git commit` of a staged key is refused; a file a command produces on its own is still caught after it ran.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { project as hookProject, type Project } from './hook-support.ts';

const CATALOG = join(import.meta.dir, '../../validators');
const HOOK_FIXTURES = join(import.meta.dir, '../fixtures/hook');
const KEY = 'sk_live_51Hq8LmX3vT9bR2wN7pY4cK6dF1gJ0sAzQe';
const GH = 'ghp_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR';

function project(agent?: string): Project & { git(...args: string[]): string } {
  const p = hookProject(agent ? { agent } : {});
  // As `avp add` installs them: without the validators' own test cases (tests/ holds keys written to be flagged).
  for (const v of ['no-secrets', 'no-secrets-before'])
    cpSync(join(CATALOG, v), join(p.root, '.avp/validators', v), {
      recursive: true,
      filter: (src) => !src.startsWith(join(CATALOG, v, 'tests')),
    });
  return Object.assign(p, {
    git(...args: string[]) {
      const r = Bun.spawnSync(['git', ...args], {
        cwd: p.root,
        env: {
          ...process.env,
          HOME: p.home,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
      if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
      return r.stdout.toString();
    },
  });
}

/** A captured fixture of `agent`, its paths moved into the project. */
function captured(p: Project, agent: string, name: string): Record<string, any> {
  const text = readFileSync(join(HOOK_FIXTURES, agent, name), 'utf8');
  return JSON.parse(text.replaceAll('/home/dev/project', p.root).replaceAll('/home/dev', p.home));
}

/** Claude Code's PreToolUse: the captured PostToolUse shape without the tool's response. */
function claudePre(p: Project, tool: string, input: Record<string, unknown>) {
  const base = p.fixture('hook-input-PostToolUse-Write.json');
  delete base.tool_response;
  delete base.duration_ms;
  return { ...base, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input };
}

const denied = (json: any) => json?.hookSpecificOutput?.permissionDecision === 'deny';
const reasonOf = (json: any) => String(json?.hookSpecificOutput?.permissionDecisionReason ?? '');
const clean = (r: { code: number; json: any }) =>
  r.code === 0 && !denied(r.json) && r.json?.decision !== 'block' && r.json?.decision !== 'deny';

describe('file tools are refused before they write a secret', () => {
  test('Claude Code: a Write of a key is denied at PreToolUse with file:line, masked; the file is never written', async () => {
    const p = project();
    const r = await p.hook(
      claudePre(p, 'Write', {
        file_path: join(p.root, 'src/pay.ts'),
        content: `const stripe = new Stripe("${KEY}");\n`,
      }),
    );
    expect(denied(r.json)).toBe(true);
    expect(reasonOf(r.json)).toContain('[no-secrets-before] src/pay.ts:1');
    expect(r.stdout).not.toContain(KEY.slice(8));
    expect(existsSync(join(p.root, 'src/pay.ts'))).toBe(false);
    // Before the change, no-secrets had PostToolUse only: nothing refused the Write, and the key reached the disk.
  });

  test('Claude Code: an Edit is judged on the rebuilt file (line in the result); a key already in the file is not', async () => {
    const p = project();
    const before = `// legacy\nconst OLD = "${GH}";\n\nexport function client() {\n  return new Octokit({ auth: process.env.GH_TOKEN });\n}\n`;
    p.write('src/gh.ts', before);
    const path = join(p.root, 'src/gh.ts');
    const adds = await p.hook(
      claudePre(p, 'Edit', {
        file_path: path,
        old_string: 'auth: process.env.GH_TOKEN',
        new_string: 'auth: "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"',
      }),
    );
    expect(denied(adds.json)).toBe(true);
    expect(adds.json.violations).toMatchObject([
      { rule: 'github-token', file: 'src/gh.ts', line: 5, validator: 'no-secrets-before' },
    ]);
    const unrelated = await p.hook(
      claudePre(p, 'Edit', { file_path: path, old_string: '// legacy', new_string: '// legacy, rotated' }),
    );
    expect(clean(unrelated)).toBe(true);
  });

  test('Gemini CLI: the captured BeforeTool write_file of a key is denied', async () => {
    const p = project('gemini');
    const r = await p.hook(captured(p, 'gemini-cli', 'hook-input-BeforeTool-write_file.json'));
    expect(r.json?.decision).toBe('deny');
    expect(String(r.json?.reason)).toContain('src/config.ts:1');
    expect(existsSync(join(p.root, 'src/config.ts'))).toBe(false);
  });

  test('Qwen Code: a PreToolUse write_file of a key is denied; the captured harmless one passes', async () => {
    const p = project('qwen');
    const input = captured(p, 'qwen-code', 'hook-input-PreToolUse-write_file.json');
    expect(clean(await p.hook(input))).toBe(true);
    const r = await p.hook({
      ...input,
      tool_input: { file_path: join(p.root, '.env'), content: `STRIPE_SECRET_KEY=${KEY}\n` },
    });
    expect(denied(r.json) || r.json?.decision === 'deny' || r.json?.decision === 'block').toBe(true);
    expect(r.stdout).toContain('.env:1');
  });
  test('Codex: the captured apply_patch that adds a key is denied before it applies, reported once', async () => {
    const p = project('codex');
    const r = await p.hook(captured(p, 'codex', 'hook-input-PreToolUse-Bash-apply_patch.json'));
    expect(denied(r.json)).toBe(true);
    // Codex's answer carries only the fields it reads: the reason names the finding, once.
    expect(reasonOf(r.json).split('src/pay.ts:1').length - 1).toBe(1);
    expect(reasonOf(r.json)).toContain('stripe-key');
    expect(existsSync(join(p.root, 'src/pay.ts'))).toBe(false);
  });
});

describe('shell commands', () => {
  test('a command that writes a literal key (echo >, printf >>, tee, heredoc) is denied before it runs', async () => {
    const p = project();
    for (const command of [
      `echo 'STRIPE_KEY = "${KEY}"' > src/pay.py`,
      `printf 'token: %s\\n' "${GH}" >> config/ci.yml`,
      `echo "${GH}" | tee .github-token`,
      `cat > .env <<'EOF'\nAPP=web\nGITHUB_TOKEN=${GH}\nEOF`,
    ]) {
      const r = await p.hook(claudePre(p, 'Bash', { command, description: 'write' }));
      expect({ command, denied: denied(r.json) }).toEqual({ command, denied: true });
      expect(reasonOf(r.json)).toContain('no-secrets-before');
    }
  });

  test('commands that write no literal secret pass', async () => {
    const p = project();
    for (const command of [
      'echo "API_KEY=$API_KEY" > .env',
      'npm test > test.log 2>&1',
      `cat > notes.md <<'EOF'\nSet GITHUB_TOKEN to a token like ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nEOF`,
      `curl -s https://api.acme.io -o out.json`,
    ]) {
      const r = await p.hook(claudePre(p, 'Bash', { command, description: 'run' }));
      expect({ command, clean: clean(r) }).toEqual({ command, clean: true });
    }
  });

  test('a file the command produced on its own is still caught after it ran (PostToolUse, no-secrets)', async () => {
    const p = project();
    p.git('init', '-q', '-b', 'main');
    const command = 'node scripts/gen-config.js';
    expect(clean(await p.hook(claudePre(p, 'Bash', { command, description: 'gen' })))).toBe(true);
    p.write('config/generated.json', `{ "stripe": "${KEY}" }\n`);
    const post = {
      ...claudePre(p, 'Bash', { command, description: 'gen' }),
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: '', stderr: '', interrupted: false },
    };
    const r = await p.hook(post);
    expect(r.json?.decision).toBe('block');
    expect(r.json.violations).toMatchObject([
      { rule: 'stripe-key', file: 'config/generated.json', validator: 'no-secrets' },
    ]);
  });
});

describe('git commit is judged by what it would commit', () => {
  test('a staged key is refused; -am refuses a key in a tracked file; a clean commit passes', async () => {
    const p = project();
    p.git('init', '-q', '-b', 'main');
    p.write('src/app.ts', 'export const x = 1;\n');
    p.git('add', 'src/app.ts');
    p.git('commit', '-q', '-m', 'init');
    // A key flagged earlier and left in place, then staged.
    p.write('src/pay.ts', `export const stripe = "${KEY}";\n`);
    p.git('add', 'src/pay.ts');
    const staged = await p.hook(
      claudePre(p, 'Bash', { command: 'git commit -m "add payments"', description: 'commit' }),
    );
    expect(denied(staged.json)).toBe(true);
    expect(staged.json.violations).toMatchObject([{ rule: 'stripe-key', file: 'src/pay.ts', line: 1 }]);
    expect(reasonOf(staged.json)).toContain('git commit would commit it');
    p.git('rm', '-q', '--cached', 'src/pay.ts');
    expect(
      clean(await p.hook(claudePre(p, 'Bash', { command: 'git commit -m "nothing staged"', description: 'c' }))),
    ).toBe(true);
    // -am commits the working tree's change to a tracked file.
    p.write('src/app.ts', `export const x = 1;\nexport const token = "${GH}";\n`);
    expect(clean(await p.hook(claudePre(p, 'Bash', { command: 'git commit -m wip', description: 'c' })))).toBe(true);
    const all = await p.hook(claudePre(p, 'Bash', { command: 'git commit -am wip', description: 'c' }));
    expect(denied(all.json)).toBe(true);
    expect(all.json.violations).toMatchObject([{ rule: 'github-token', file: 'src/app.ts', line: 2 }]);
    // `git add . && git commit` in one command: the untracked key file is judged too.
    const chained = await p.hook(claudePre(p, 'Bash', { command: 'git add . && git commit -m all', description: 'c' }));
    expect(denied(chained.json)).toBe(true);
    expect(chained.json.violations.map((v: { file: string }) => v.file).sort()).toEqual(['src/app.ts', 'src/pay.ts']);
  });
});

describe('.gitleaks.toml through the binary', () => {
  test('its rules refuse a Write before it runs; a broken file is a validator error naming file and line', async () => {
    const p = project();
    p.write(
      '.gitleaks.toml',
      "[[rules]]\nid = \"acme-token\"\nregex = '''acme_[a-z0-9]{32}'''\nkeywords = [\"acme_\"]\n",
    );
    await p.accept();
    const content = 'const t = "acme_k2j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8";\n';
    const r = await p.hook(claudePre(p, 'Write', { file_path: join(p.root, 'src/a.ts'), content }));
    expect(denied(r.json)).toBe(true);
    expect(r.json.violations).toMatchObject([{ rule: 'gitleaks:acme-token', file: 'src/a.ts', line: 1 }]);
    p.write('.gitleaks.toml', 'title = "x"\n[[rules]\n');
    const bad = await p.hook(claudePre(p, 'Write', { file_path: join(p.root, 'src/b.ts'), content: 'export {};\n' }));
    expect(denied(bad.json)).toBe(true);
    expect(bad.stdout).toContain('.gitleaks.toml:2: not valid TOML');
  });
});
