/**
 * Catalog script judges run from avp's own bundle when the installed scripts/ folder is the catalog's, byte for byte
 * (src/judges/builtin-script.ts) — and from disk, as a process, as soon as anything in it differs.
 */
import { describe, expect, test } from 'bun:test';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';

function project() {
  const root = tempDir('avp-builtin-');
  const home = tempDir('avp-builtin-home-');
  const env = { HOME: home, AVP_HOME: join(home, '.avp'), CLAUDE_PROJECT_DIR: root };
  return {
    root,
    env,
    add: (name: string) => runAvp(['add', name, '--project', '--offline', '--quiet'], { cwd: root, env }),
    /** The user accepts an edit (hook mode runs on the accepted state). */
    accept: async () => expect((await runAvp(['accept'], { cwd: root, env })).code).toBe(0),
    hook: async (input: object, extra: Record<string, string> = {}) => {
      const r = await runAvp(['hook'], { cwd: root, stdin: JSON.stringify(input), env: { ...env, ...extra } });
      return { ...r, json: JSON.parse(r.stdout) };
    },
    /** The judges of the last run-log lines, newest last. */
    judges(): string[] {
      const dir = join(root, '.avp/logs');
      const file = readdirSync(dir)
        .filter((f) => f.startsWith('hook-'))
        .sort()
        .at(-1)!;
      return readFileSync(join(dir, file), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).judge);
    },
  };
}

/** The newest line of the project's newest run log. */
function lastRunLine(root: string) {
  const dir = join(root, '.avp/logs');
  const file = readdirSync(dir)
    .filter((f) => f.startsWith('hook-'))
    .sort()
    .at(-1)!;
  return JSON.parse(readFileSync(join(dir, file), 'utf8').trim().split('\n').at(-1)!);
}

const writeEvent = (root: string, content: string) => ({
  session_id: 's1',
  cwd: root,
  hook_event_name: 'PostToolUse',
  tool_name: 'Write',
  tool_input: { file_path: join(root, 'src/config.ts'), content },
  tool_response: {
    type: 'create',
    filePath: join(root, 'src/config.ts'),
    content,
    structuredPatch: [],
    originalFile: null,
  },
});

describe('built-in catalog scripts', () => {
  test('an unmodified no-secrets runs in-process and gives the same verdict as its process', async () => {
    const p = project();
    expect((await p.add('no-secrets')).code).toBe(0);
    const leak = writeEvent(p.root, 'const API_KEY = "sk-live-1234567890abcdef";\n');
    const inProcess = await p.hook(leak);
    expect(inProcess.json.decision).toBe('block');
    expect(p.judges().at(-1)).toBe('builtin-script');
    const asProcess = await p.hook(leak, { AVP_SCRIPT_PROCESS: '1' });
    expect(p.judges().at(-1)).toBe('script');
    expect(asProcess.json.violations).toEqual(inProcess.json.violations);
    const clean = await p.hook(writeEvent(p.root, 'const API_KEY = process.env.API_KEY;\n'));
    expect(clean.json.passed).toBe(true);
    expect(p.judges().at(-1)).toBe('builtin-script');
  });

  test('an edited copy runs from disk, so a user change is never ignored', async () => {
    const p = project();
    expect((await p.add('no-secrets')).code).toBe(0);
    const check = join(p.root, '.avp/validators/no-secrets/scripts/check.ts');
    // The edit makes the script pass everything: if avp still ran its built-in copy, the leak would be blocked.
    const original = readFileSync(check, 'utf8');
    const edited = original.replace(
      /export function validate\(event: [^)]*\): Verdict \{/,
      '$&\n  if (event) return { passed: true, violations: [], summary: "edited copy" };',
    );
    expect(edited).not.toBe(original); // the edit must land, or this test proves nothing
    writeFileSync(check, edited);
    await p.accept();
    const r = await p.hook(writeEvent(p.root, 'const API_KEY = "sk-live-1234567890abcdef";\n'));
    expect(r.json).toMatchObject({ passed: true, summary: '1 validator passed' });
    expect(p.judges().at(-1)).toBe('script');
  });

  test('a built-in protected-files reads its own references/ (the validator dir is passed in-process)', async () => {
    const p = project();
    expect((await p.add('protected-files')).code).toBe(0);
    const pre = {
      session_id: 's1',
      cwd: p.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(p.root, '.env'), content: 'A=1\n' },
    };
    const denied = await p.hook(pre);
    expect(denied.json.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(p.judges().at(-1)).toBe('builtin-script');
    // references/ is outside scripts/: editing the list keeps the built-in path, and the new list applies.
    const list = join(p.root, '.avp/validators/protected-files/references/protected.txt');
    writeFileSync(
      list,
      readFileSync(list, 'utf8')
        .split('\n')
        .filter((l) => !l.includes('.env'))
        .join('\n'),
    );
    await p.accept();
    const allowed = await p.hook(pre);
    expect(allowed.json.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(p.judges().at(-1)).toBe('builtin-script');
  });

  test('a built-in script that throws is an error run that blocks, never a pass (it runs without a timer)', async () => {
    const p = project();
    expect((await p.add('protected-files')).code).toBe(0);
    // The list is outside scripts/: the script stays built-in, and its validate() throws when it cannot read it (a
    // folder in its place), which must fail closed.
    const list = join(p.root, '.avp/validators/protected-files/references/protected.txt');
    rmSync(list);
    mkdirSync(list);
    await p.accept();
    const r = await p.hook({
      session_id: 's1',
      cwd: p.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(p.root, 'src/a.ts'), content: 'export {};\n' },
    });
    expect(r.json.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(r.json.hookSpecificOutput?.permissionDecisionReason).toContain('validate() threw');
    const line = lastRunLine(p.root);
    expect(line.status).toBe('error');
    expect(line.error).toMatchObject({ code: 'judge-crash' });
    expect(line.error.fix).toContain('AVP_DISABLE');
  });

  test('an added file in scripts/ also turns the built-in path off', async () => {
    const p = project();
    expect((await p.add('no-secrets')).code).toBe(0);
    appendFileSync(join(p.root, '.avp/validators/no-secrets/scripts/extra.ts'), 'export {};\n');
    await p.accept();
    const r = await p.hook(writeEvent(p.root, 'const API_KEY = "sk-live-1234567890abcdef";\n'));
    expect(r.json.decision).toBe('block');
    expect(p.judges().at(-1)).toBe('script');
  });

  test("the scripts/ key kept in the caches: an edit keeping the file's size and mtime still runs from disk", async () => {
    // The key is taken when the validator is loaded and kept by the parse cache and the hook memo (past the racy
    // window, where both are written): an edit they missed would leave avp running its built-in copy.
    const p = project();
    expect((await p.add('no-secrets')).code).toBe(0);
    await Bun.sleep(2100);
    const leak = writeEvent(p.root, 'const API_KEY = "sk-live-1234567890abcdef";\n');
    for (let i = 0; i < 3; i++) expect((await p.hook(leak)).json.decision).toBe('block');
    expect(p.judges().slice(-3)).toEqual(['builtin-script', 'builtin-script', 'builtin-script']);
    expect(readdirSync(join(p.env.AVP_HOME, 'cache/hook')).length).toBeGreaterThan(0); // the memo was written
    const check = join(p.root, '.avp/validators/no-secrets/scripts/check.ts');
    const before = statSync(check);
    const text = readFileSync(check, 'utf8');
    // One letter of a comment made a capital: the same size, and a script that still works from disk.
    const changed = text.replace(/\/\/ ([a-z])/, (_, c: string) => `// ${c.toUpperCase()}`);
    expect(changed).not.toBe(text);
    expect(changed.length).toBe(text.length);
    writeFileSync(check, changed);
    utimesSync(check, before.atimeMs / 1000, before.mtimeMs / 1000);
    expect(statSync(check).mtimeMs).toBe(before.mtimeMs);
    await p.accept();
    const r = await p.hook(leak);
    expect(r.json.decision).toBe('block');
    expect(p.judges().at(-1)).toBe('script');
  });
});
