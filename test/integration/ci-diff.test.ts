/**
 * The promise of `avp check --diff origin/main...HEAD` in CI: the same change gets the same verdicts the agent got.
 * The change is made once through `avp hook` (Claude Code's PostToolUse Edit and Write, as captured) and once as
 * commits on a branch; both runs must report exactly the same violations — including a validator that reads the
 * diff rather than the file, and one that only looks at Write (a created file) — and so must `--staged`.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { structuredPatch } from 'diff';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { gitRepo, lineFinder, scriptValidator, sh } from './ci-support.ts';

/** Flags added lines holding a key, with the new line number read from the diff's hunk headers. */
const DIFF_READER = `export {};
const event = JSON.parse(await new Response(Bun.stdin.stream()).text());
const violations = [];
for (const f of event.files ?? []) {
  let line = 0;
  for (const l of String(f.diff ?? '').split('\\n')) {
    const h = /^@@ -\\d+(?:,\\d+)? \\+(\\d+)/.exec(l);
    if (h) { line = Number(h[1]); continue; }
    if (l.startsWith('+++') || l.startsWith('---')) continue;
    if (l.startsWith('+')) { if (l.includes('sk-live-')) violations.push({ rule: 'added-key', file: f.relPath, line, snippet: l.slice(1).trim(), message: 'a key was added' }); line++; }
    else if (l.startsWith(' ')) line++;
  }
}
console.log(JSON.stringify({ passed: violations.length === 0, violations, summary: violations.length + ' added key(s)' }));
`;

const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\nconst e = 5;\nconst f = 6;\n';
const EDITED =
  'const a = 1;\nconst b = "sk-live-edit111";\nconst b2 = "sk-live-edit222";\nconst c = 3;\nconst d = 4;\nconst e = 5;\nconst f = 6;\n';
const CREATED = '// new file\nexport const x = 1;\nexport const KEY = "sk-live-new333";\n';

type V = { rule: string; file?: string; line?: number; snippet?: string; message?: string };
const key = (v: V) => JSON.stringify([v.rule, v.file, v.line, v.snippet, v.message]);

function setup(): string {
  const root = gitRepo({ 'src/config.ts': ORIGINAL });
  scriptValidator(root, 'file-keys', { tools: ['Write', 'Edit'] }, lineFinder('sk-live-'));
  scriptValidator(root, 'diff-keys', { tools: ['Write', 'Edit'] }, DIFF_READER);
  scriptValidator(root, 'new-files-only', { tools: ['Write'], severity: 'warn' }, lineFinder('KEY'));
  sh(root, 'git add -A && git commit -qm validators');
  return root;
}

async function viaHook(root: string, home: string): Promise<V[]> {
  const env = { HOME: home, AVP_HOME: join(home, '.avp'), CLAUDE_PROJECT_DIR: root };
  expect((await runAvp(['accept'], { cwd: root, env })).code).toBe(0);
  const base = {
    session_id: 'ci-diff-1',
    transcript_path: join(home, 't.jsonl'),
    cwd: root,
    permission_mode: 'default',
  };
  const file = join(root, 'src/config.ts');
  writeFileSync(file, EDITED); // PostToolUse: the edit is on disk already
  const patch = structuredPatch('src/config.ts', 'src/config.ts', ORIGINAL, EDITED);
  const edit = {
    ...base,
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'const b = 2;', new_string: EDITED.split('\n').slice(1, 3).join('\n') },
    tool_response: {
      filePath: file,
      originalFile: ORIGINAL,
      structuredPatch: patch.hunks,
      userModified: false,
      replaceAll: false,
    },
    tool_use_id: 'toolu_1',
  };
  const created = join(root, 'src/new.ts');
  writeFileSync(created, CREATED);
  const write = {
    ...base,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: created, content: CREATED },
    tool_response: { type: 'create', filePath: created, content: CREATED, structuredPatch: [] },
    tool_use_id: 'toolu_2',
  };
  const out: V[] = [];
  for (const input of [edit, write]) {
    const r = await runAvp(['hook'], { cwd: root, env, stdin: JSON.stringify(input) });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.errors).toBeUndefined();
    out.push(...(json.violations ?? []));
  }
  return out;
}

function reportViolations(stdout: string): V[] {
  return JSON.parse(stdout).validators.flatMap((v: { violations: V[] }) => v.violations);
}

describe('the same change through avp hook and avp check', () => {
  test('--diff main...HEAD reports exactly what the agent was told; so does --staged', async () => {
    const root = setup();
    const home = tempDir('avp-ci-home-');
    const agent = await viaHook(root, home);
    expect(agent.length).toBe(7); // the edit's 2 keys by file and by diff, the new file's key by all three
    expect(agent.map(key)).toContain(
      key({
        rule: 'added-key',
        file: 'src/config.ts',
        line: 3,
        snippet: 'const b2 = "sk-live-edit222";',
        message: 'a key was added',
      }),
    );

    sh(root, 'git checkout -q -b feature && git add -A && git commit -qm "the agent\'s change"');
    const ci = await runAvp(['check', '--diff', 'main...HEAD', '--format', 'json', '--no-cache'], { cwd: root });
    expect(ci.code).toBe(1);
    expect(reportViolations(ci.stdout).map(key).sort()).toEqual(agent.map(key).sort());
    const events = JSON.parse(ci.stdout).events.map((e: { tool: string; files: string[] }) => `${e.tool} ${e.files}`);
    expect(events).toEqual(['Edit src/config.ts', 'Write src/new.ts']);

    // pre-commit: the same change staged on top of main.
    sh(root, 'git checkout -q main && git checkout -q feature -- src && git status --short');
    expect(readFileSync(join(root, 'src/config.ts'), 'utf8')).toBe(EDITED);
    const staged = await runAvp(['check', '--staged', '--json', '--no-cache'], { cwd: root });
    expect(staged.code).toBe(1);
    expect(reportViolations(staged.stdout).map(key).sort()).toEqual(agent.map(key).sort());
  });

  test('from a subfolder project in a monorepo, paths in the report stay project-relative and match', async () => {
    const root = gitRepo({});
    const pkg = join(root, 'packages/app');
    mkdirSync(join(pkg, '.avp/validators'), { recursive: true });
    scriptValidator(pkg, 'file-keys', {}, lineFinder('sk-live-'));
    writeFileSync(join(pkg, 'a.ts'), 'x\n');
    sh(root, 'git add -A && git commit -qm base && git checkout -q -b feature');
    writeFileSync(join(pkg, 'a.ts'), 'x\nconst k = "sk-live-mono1";\n');
    sh(root, 'git commit -qam leak');
    const r = await runAvp(['check', '--diff', 'main...HEAD', '--format', 'sarif'], { cwd: pkg });
    expect(r.code).toBe(1);
    const loc = JSON.parse(r.stdout).runs[0].results[0].locations[0].physicalLocation;
    // Code scanning places results by repository path.
    expect(loc.artifactLocation.uri).toBe('packages/app/a.ts');
    expect(loc.region.startLine).toBe(2);
  });
});
