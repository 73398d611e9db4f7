/**
 * Paths through the compiled binary, as an attacker would bend them: symlinks into protected folders, a `cwd` that is
 * `/`, missing or absurdly deep, files outside the project, and an Edit whose `replace_all` chain doubles the text.
 * Each case failed on the string-comparing, eagerly rebuilding code this replaced.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, project, type Project } from './hook-support.ts';

const CATALOG = join(import.meta.dir, '../../validators');

/** A script judge that always blocks and says which files it saw (so a test knows it ran, and on what). */
const REPORTS = `const e = JSON.parse(await Bun.stdin.text());
const seen = e.files.map((f) => f.relPath).join(',');
console.log(JSON.stringify({ passed: false, violations: [{ rule: 'seen', message: 'saw ' + seen }], summary: 'saw ' + seen }));
`;

const denied = (json: any) => json?.hookSpecificOutput?.permissionDecision === 'deny';
const blocked = (json: any) => json?.decision === 'block';

function withProtectedFiles(): Project {
  const p = project();
  cpSync(join(CATALOG, 'protected-files'), join(p.root, '.avp/validators/protected-files'), { recursive: true });
  mkdirSync(join(p.root, '.claude'));
  writeFileSync(join(p.root, '.claude/settings.json'), '{}\n');
  return p;
}

const event = (p: Project, name: string, tool: string, input: Record<string, unknown>, extra = {}) => ({
  session_id: 'paths-test',
  transcript_path: join(p.home, 't.jsonl'),
  cwd: p.root,
  hook_event_name: name,
  tool_name: tool,
  tool_input: input,
  ...extra,
});

/** Runs `avp hook` from `/` with no CLAUDE_PROJECT_DIR: only the input says where things are. */
async function hookNoProjectDir(p: Project, input: unknown, env: Record<string, string> = {}) {
  const r = await runAvp(['hook'], {
    bin: BIN,
    cwd: '/',
    stdin: `${JSON.stringify(input)}\n`,
    env: { HOME: p.home, AVP_HOME: join(p.home, '.avp'), ...env },
    timeoutMs: 60_000,
  });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { ...r, json };
}

describe('symlinks: a change is matched by what it really touches', () => {
  test('protected-files denies a Write to cc/settings.json through `cc -> .claude`', async () => {
    const p = withProtectedFiles();
    symlinkSync('.claude', join(p.root, 'cc'));
    const r = await p.hook(
      event(p, 'PreToolUse', 'Write', { file_path: join(p.root, 'cc/settings.json'), content: '{}' }),
    );
    expect(denied(r.json)).toBe(true);
    expect(r.stdout).toContain('.claude/settings.json');
  });

  test('protected-files denies a Write through a dangling symlink whose target is protected', async () => {
    const p = withProtectedFiles();
    // settings.local.json does not exist yet: writing `notes.json` creates it.
    symlinkSync('.claude/settings.local.json', join(p.root, 'notes.json'));
    const r = await p.hook(event(p, 'PreToolUse', 'Write', { file_path: join(p.root, 'notes.json'), content: '{}' }));
    expect(denied(r.json)).toBe(true);
  });

  test('a `match.files: [.claude/**]` validator runs for a Write through the symlink, on the real path', async () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'));
    symlinkSync('.claude', join(p.root, 'cc'));
    p.validator('guard-claude', { match: { files: ['.claude/**'] } }, REPORTS, 'check.ts');
    const input = { file_path: join(p.root, 'cc/settings.json'), content: '{"hooks":{}}' };
    const r = await p.hook(event(p, 'PostToolUse', 'Write', input, { tool_response: { type: 'create' } }));
    expect(blocked(r.json)).toBe(true);
    expect(r.stdout).toContain('saw .claude/settings.json');
  });

  test('a file outside the project reached through a symlink inside it is outside (`src/**` does not match)', async () => {
    const p = project();
    const outside = tempDir('avp-outside-');
    symlinkSync(outside, join(p.root, 'src'));
    p.validator('src-only', { match: { files: ['src/**'] } }, REPORTS, 'check.ts');
    p.validator('any-file', { match: { files: ['**/*'] } }, REPORTS, 'check.ts');
    const input = { file_path: join(p.root, 'src/a.ts'), content: 'x\n' };
    const r = await p.hook(event(p, 'PostToolUse', 'Write', input, { tool_response: { type: 'create' } }));
    expect(r.json.errors ?? []).toEqual([]);
    const ran = JSON.stringify(r.json);
    expect(ran).toContain(`saw ${join(outside, 'a.ts')}`);
    expect(ran).not.toContain('[src-only]');
  });
});

describe('the project root when cwd says nothing useful', () => {
  for (const [label, cwd] of [
    ['cwd /', '/'],
    ['a nonexistent cwd', '/nonexistent-avp-cwd/deeper'],
  ] as const) {
    test(`${label}, no CLAUDE_PROJECT_DIR: the project's validator runs for a file inside the project`, async () => {
      const p = project();
      p.validator('project-check', {}, REPORTS, 'check.ts');
      const input = { file_path: join(p.root, 'src/app.ts'), content: 'x\n' };
      const r = await hookNoProjectDir(p, {
        ...event(p, 'PostToolUse', 'Write', input, { tool_response: { type: 'create' } }),
        cwd,
      });
      expect(r.code).toBe(0);
      expect(blocked(r.json)).toBe(true);
      expect(r.stdout).toContain('saw src/app.ts');
      // State lands in the project found, never under the cwd that is not one.
      expect(existsSync(join(p.root, '.avp/logs'))).toBe(true);
      expect(existsSync('/nonexistent-avp-cwd')).toBe(false);
      expect(existsSync('/.avp')).toBe(false);
    });
  }

  test('a cwd that is no project, a file in no project: user validators run, no .avp/ is created anywhere', async () => {
    const p = project();
    const loose = tempDir('avp-loose-');
    const userDir = join(p.home, '.avp/validators/everywhere');
    mkdirSync(join(userDir, 'scripts'), { recursive: true });
    writeFileSync(
      join(userDir, 'VALIDATOR.md'),
      '---\nname: everywhere\ndescription: Sees every file.\nseverity: error\ntrigger: PostToolUse\n' +
        'match:\n  files: ["**/*"]\nscript: scripts/check.ts\n---\nBody.\n',
    );
    writeFileSync(join(userDir, 'scripts/check.ts'), REPORTS);
    const input = { file_path: join(loose, 'notes.txt'), content: 'x\n' };
    const r = await hookNoProjectDir(p, {
      ...event(p, 'PostToolUse', 'Write', input, { tool_response: { type: 'create' } }),
      cwd: loose,
    });
    expect(blocked(r.json)).toBe(true);
    // The fallback root is the cwd itself: the file is inside it, and nothing is written there.
    expect(r.stdout).toContain('saw notes.txt');
    expect(existsSync(join(loose, '.avp'))).toBe(false);
  });

  test('a Write outside the project is matched by `*` and `**/*`, not by `src/**`', async () => {
    const p = project();
    const outside = tempDir('avp-outside-');
    p.validator('star', { match: { files: ['*'] } }, REPORTS, 'check.ts');
    p.validator('globstar', { match: { files: ['**/*'] } }, REPORTS, 'check.ts');
    p.validator('src-only', { match: { files: ['src/**'] } }, REPORTS, 'check.ts');
    const input = { file_path: join(outside, 'deep/dir/out.txt'), content: 'x\n' };
    const r = await p.hook(event(p, 'PostToolUse', 'Write', input, { tool_response: { type: 'create' } }));
    expect(r.json.reason).toContain('[star]');
    expect(r.json.reason).toContain('[globstar]');
    expect(r.json.reason).not.toContain('[src-only]');
  });
});

describe('hostile inputs cannot stall the hook', () => {
  /** MultiEdit edits doubling the text with replace_all: 40 of them would make 2^40 times the original. */
  const bomb = (p: Project, name: string) =>
    event(
      p,
      name,
      'MultiEdit',
      {
        file_path: join(p.root, 'src/bomb.txt'),
        edits: Array.from({ length: 40 }, () => ({ old_string: 'a', new_string: 'aa', replace_all: true })),
      },
      name === 'PostToolUse'
        ? { tool_response: { filePath: join(p.root, 'src/bomb.txt'), originalFile: 'a'.repeat(64) } }
        : {},
    );

  test('with no validator installed: `{}` at once', async () => {
    const p = project();
    const r = await p.hook(bomb(p, 'PostToolUse'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{}\n');
    expect(r.ms).toBeLessThan(15_000);
  });

  test('with a validator matching a different file: `{}` (no reconstruction without a match)', async () => {
    const p = project();
    p.validator('docs-only', { match: { files: ['docs/**'] } }, REPORTS, 'check.ts');
    const r = await p.hook(bomb(p, 'PostToolUse'));
    expect(r.stdout).toBe('{}\n');
    expect(r.ms).toBeLessThan(15_000);
  });

  for (const name of ['PostToolUse', 'PreToolUse'] as const) {
    test(`${name} with a validator on the file: an honest validator error, fast`, async () => {
      const p = project();
      p.write('src/bomb.txt', 'a'.repeat(64));
      p.validator('sees-it', { trigger: name }, REPORTS, 'check.ts');
      const r = await p.hook(bomb(p, name));
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(15_000);
      const errors = r.json.errors ?? r.json.hookSpecificOutput?.errors;
      const text = JSON.stringify(r.json);
      expect(blocked(r.json) || denied(r.json)).toBe(true);
      expect(text).toContain('cannot show src/bomb.txt after the change');
      expect(text).not.toContain('saw src/bomb.txt');
      if (errors) expect(errors.map((e: any) => e.validator)).toContain('sees-it');
    });
  }

  test('a cwd 10,000 directories deep is refused at once with a clear error', async () => {
    const p = project();
    const r = await p.hook(event(p, 'PostToolUse', 'Bash', { command: 'true' }, { cwd: '/a'.repeat(10_000) }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cwd.*bytes long|cwd.*directories deep/);
    expect(r.ms).toBeLessThan(15_000);
  });

  test('a 1 MB cwd and a 300-level cwd are refused the same way; a real deep cwd is not', async () => {
    const p = project();
    const huge = await p.hook(event(p, 'PostToolUse', 'Bash', { command: 'true' }, { cwd: `/${'x'.repeat(1 << 20)}` }));
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('bytes long');
    const deep = await p.hook(event(p, 'PostToolUse', 'Bash', { command: 'true' }, { cwd: '/b'.repeat(600) }));
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain('directories deep');
    const fine = await p.hook(event(p, 'PostToolUse', 'Bash', { command: 'true' }, { cwd: join(p.root, 'a/b/c/d') }));
    expect(fine.code).toBe(0);
  });

  /** A Bash call whose tool_input carries an array nested `levels` deep (written as text: stringify would recurse). */
  const nested = (p: Project, levels: number) => {
    const head = JSON.stringify(event(p, 'PreToolUse', 'Bash', { command: 'ls' })).slice(0, -2);
    return `${head},"deep":${'['.repeat(levels)}${']'.repeat(levels)}}}\n`;
  };

  test('stdin nested a million levels deep is refused before any validator sees it', async () => {
    const p = project();
    cpSync(join(CATALOG, 'dangerous-commands'), join(p.root, '.avp/validators/dangerous-commands'), {
      recursive: true,
    });
    const r = await p.hook(nested(p, 1_000_000));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nests deeper than 512 levels');
    expect(r.stderr).not.toContain('call stack');
    expect(r.ms).toBeLessThan(15_000);
    // Just under the bound is an ordinary event: the validator runs and lets `ls` through.
    const fine = await p.hook(nested(p, 500));
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.json.summary).toBe('1 validator passed');
  });
});
