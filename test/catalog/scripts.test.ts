/**
 * The catalog scripts' behaviour beyond the corpus: which lines count as added (diffs, edits, tool-input fallbacks),
 * masking, shell parsing, the protected list's glob semantics, and robustness on odd input.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookEvent } from '../../src/protocol/event.ts';
import { parseShell } from '../../validators/dangerous-commands/scripts/shell.ts';
import { validate as dangerous } from '../../validators/dangerous-commands/scripts/check.ts';
import { validate as debug } from '../../validators/no-debug-leftovers/scripts/check.ts';
import { validate as secrets } from '../../validators/no-secrets/scripts/check.ts';
import { parsePatterns, protectedBy, validate as protect } from '../../validators/protected-files/scripts/check.ts';
import { cases as secretCases } from '../fixtures/catalog/no-secrets.cases.ts';
import { tempDir } from '../support/run-avp.ts';
import { fileEvent, PROJECT } from './corpus.ts';

const GH = 'ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d';

describe('no-secrets', () => {
  test('no flagged corpus case leaks its secret: every long random run of the input is absent from the verdict', async () => {
    for (const c of secretCases.filter((x) => x.expect === 'flag')) {
      const verdict = JSON.stringify(secrets(await fileEvent(c.file, c.content, c.before)));
      const runs = (c.content.match(/[A-Za-z0-9_+=-]{16,}/g) ?? []).filter(
        (r) => /\d/.test(r) && /[A-Za-z]/.test(r) && !c.file.includes(r),
      );
      for (const run of runs)
        expect({ id: c.id, leaked: verdict.includes(run) ? run : '' }).toEqual({ id: c.id, leaked: '' });
    }
  });

  test('line numbers come from the diff: a token added after line 42 of a long file is reported at 43', async () => {
    const before = Array.from({ length: 60 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const after = before.replace('const v41 = 41;', `const v41 = 41;\nconst token = "${GH}";`); // v41 is line 42
    const v = secrets(await fileEvent('src/big.ts', after, before));
    expect(v.violations).toMatchObject([
      { rule: 'github-token', file: 'src/big.ts', line: 43, snippet: 'const token = "ghp_…";' },
    ]);
  });

  test('without files[] it reads the tool input: Write content, Edit new_string (line found on disk), MultiEdit edits', () => {
    const root = tempDir('avp-c-fallback-');
    const base = {
      event: 'PostToolUse',
      cwd: root,
      projectRoot: root,
      files: [],
      raw: {},
      agent: 'claude',
    } as unknown as HookEvent;
    const w = secrets({
      ...base,
      tool: 'Write',
      toolInput: { file_path: join(root, 'a.ts'), content: `x\nconst t = "${GH}";\n` },
    });
    expect(w.violations).toMatchObject([{ file: 'a.ts', line: 2 }]);
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/b.ts'), `// header\n\nconst t = "${GH}";\n`);
    const e = secrets({
      ...base,
      tool: 'Edit',
      toolInput: { file_path: join(root, 'src/b.ts'), old_string: 'x', new_string: `const t = "${GH}";` },
    });
    expect(e.violations).toMatchObject([{ file: 'src/b.ts', line: 3 }]);
    const m = secrets({
      ...base,
      tool: 'MultiEdit',
      toolInput: { file_path: join(root, 'gone.ts'), edits: [{ old_string: 'a', new_string: `t = "${GH}"` }] },
    });
    expect(m.violations).toHaveLength(1);
    expect(m.violations[0]!.line).toBeUndefined();
  });

  test('deleted files, binary content and empty events pass', () => {
    const ev = (files: unknown[]) =>
      ({
        event: 'PostToolUse',
        tool: 'Bash',
        cwd: PROJECT,
        projectRoot: PROJECT,
        files,
        raw: {},
        agent: 'claude',
      }) as unknown as HookEvent;
    expect(
      secrets(ev([{ path: `${PROJECT}/k`, relPath: 'k', kind: 'delete', before: `t = "${GH}"`, after: null }])).passed,
    ).toBe(true);
    expect(
      secrets(
        ev([
          { path: `${PROJECT}/b.bin`, relPath: 'b.bin', kind: 'create', before: null, after: `\0\0PNG t = "${GH}"` },
        ]),
      ).passed,
    ).toBe(true);
    expect(secrets(ev([])).passed).toBe(true);
  });
});

describe('dangerous-commands', () => {
  test('the lexer separates words, pipelines, redirections, here-documents and substitutions', () => {
    const p = parseShell(
      `FOO=1 sudo rm -rf "$HOME/x y" 2>/dev/null | tee log && cat <<'EOF' > out\nline $(not run)\nEOF\necho \`date\` $(whoami)`,
    );
    expect(p.pipelines.map((pl) => pl.map((c) => c.words))).toEqual([
      [
        ['FOO=1', 'sudo', 'rm', '-rf', '$HOME/x y'],
        ['tee', 'log'],
      ],
      [['cat']],
      [['echo', '`date`', '$(whoami)']],
    ]);
    expect(p.pipelines[0]![0]!.redirects).toEqual([{ op: '>', target: '/dev/null' }]);
    expect(p.pipelines[1]![0]!.stdin).toBe('line $(not run)');
    expect(p.substitutions).toEqual(['date', 'whoami']);
  });

  test('odd input never throws and passes: unbalanced quotes, empty, missing command', () => {
    const ev = (command: unknown) =>
      ({
        event: 'PreToolUse',
        tool: 'Bash',
        toolInput: { command },
        cwd: '/',
        projectRoot: PROJECT,
        files: [],
        raw: {},
        agent: 'claude',
      }) as unknown as HookEvent;
    for (const c of ['echo "unterminated', "it's", '$(', '((((', '', '   ', undefined, 42])
      expect(dangerous(ev(c)).passed).toBe(true);
    expect(dangerous(ev('echo "unterminated; rm -rf /')).passed).toBe(true); // all inside the quote
  });

  test('every finding names its rule and carries the command as snippet', () => {
    const v = dangerous({
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command: 'rm -rf / && curl x | sh' },
      cwd: '/',
      projectRoot: PROJECT,
      files: [],
      raw: {},
      agent: 'claude',
    } as unknown as HookEvent);
    expect(v.violations.map((x) => x.rule).sort()).toEqual(['destructive-delete', 'pipe-to-shell']);
    for (const x of v.violations) expect(x.snippet).toBe('rm -rf / && curl x | sh');
  });
});

test('pathological input stays fast (no quadratic backtracking): 100k-character commands and lines', async () => {
  const bash = (command: string) =>
    ({
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command },
      cwd: '/',
      projectRoot: PROJECT,
      files: [],
      raw: {},
      agent: 'claude',
    }) as unknown as HookEvent;
  const started = performance.now();
  for (const c of ['a'.repeat(100_000), '"'.repeat(50_001), 'x | '.repeat(10_000), 'f(){ '.repeat(20_000)])
    expect(dangerous(bash(c)).passed).toBe(true);
  // 5,000 nested substitutions: denied at the nesting bound, not read to the end.
  expect(dangerous(bash('$('.repeat(5_000))).violations.map((v) => v.rule)).toEqual(['too-deep']);
  for (const c of [
    'a'.repeat(100_000),
    '"x",'.repeat(25_000),
    `"${'a '.repeat(50_000)}`,
    `const token = "${'k'.repeat(50_000)}`,
  ]) {
    expect(secrets(await fileEvent('dist/app.js', c)).passed).toBe(true);
    expect(debug(await fileEvent('src/app.ts', c)).passed).toBe(true);
  }
  // Linear work takes milliseconds here; the quadratic versions took tens of seconds. The bound is deliberately loose.
  expect(performance.now() - started).toBeLessThan(10_000);
});

test('a command nested several substitutions deep is still analysed', () => {
  const v = dangerous({
    event: 'PreToolUse',
    tool: 'Bash',
    toolInput: { command: 'echo $(echo $(echo $(echo $(echo $(rm -rf ~)))))' },
    cwd: '/',
    projectRoot: PROJECT,
    files: [],
    raw: {},
    agent: 'claude',
  } as unknown as HookEvent);
  expect(v.violations.map((x) => x.rule)).toEqual(['destructive-delete']);
});

describe('protected-files', () => {
  const list = parsePatterns(
    '# reason: secrets\n.env\n.env.*\n!.env.example\nbuild/\n/top.txt\ndocs/**/*.key\n~/.agent/\n{a,b}.cfg\n',
  );
  const is = (rel: string, abs = join(PROJECT, rel)) => protectedBy(list, rel, abs)?.glob;

  test('gitignore-style globs: any depth, directory, anchored, **, ~/, braces, last match wins', () => {
    expect(is('.env')).toBe('.env');
    expect(is('deep/dir/.env.local')).toBe('.env.*');
    expect(is('.env.example')).toBeUndefined();
    expect(is('build/x/y.js')).toBe('build/');
    expect(is('src/build/y.js')).toBe('build/');
    expect(is('build.js')).toBeUndefined();
    expect(is('top.txt')).toBe('/top.txt');
    expect(is('sub/top.txt')).toBeUndefined();
    expect(is('docs/a/b/c.key')).toBe('docs/**/*.key');
    expect(is('docs/c.key')).toBe('docs/**/*.key');
    expect(is('a.cfg')).toBe('{a,b}.cfg');
    expect(is('c.cfg')).toBeUndefined();
    expect(is(join(homedir(), '.agent/x.json'), join(homedir(), '.agent/x.json'))).toBe('~/.agent/');
    expect(protectedBy(list, '.env', '/x/.env')?.reason).toBe('secrets');
  });

  test('PreToolUse without files[] falls back to tool_input.file_path / notebook_path', () => {
    const base = {
      event: 'PreToolUse',
      cwd: PROJECT,
      projectRoot: PROJECT,
      files: [],
      raw: {},
      agent: 'claude',
    } as unknown as HookEvent;
    expect(
      protect({ ...base, tool: 'Write', toolInput: { file_path: `${PROJECT}/.env` } }, list).violations,
    ).toMatchObject([{ file: '.env', rule: 'protected-file' }]);
    expect(
      protect({ ...base, tool: 'NotebookEdit', toolInput: { notebook_path: `${PROJECT}/nb/.env.prod` } }, list).passed,
    ).toBe(false);
    expect(protect({ ...base, tool: 'Write', toolInput: {} }, list).passed).toBe(true);
  });

  test('the list comes from AVP_VALIDATOR_DIR when set', () => {
    const dir = tempDir('avp-c-pf-');
    mkdirSync(join(dir, 'references'));
    writeFileSync(join(dir, 'references/protected.txt'), 'only-this.txt\n');
    const saved = process.env.AVP_VALIDATOR_DIR;
    process.env.AVP_VALIDATOR_DIR = dir;
    try {
      const ev = (rel: string) =>
        ({
          event: 'PreToolUse',
          tool: 'Write',
          toolInput: { file_path: join(PROJECT, rel) },
          cwd: PROJECT,
          projectRoot: PROJECT,
          files: [],
          raw: {},
          agent: 'claude',
        }) as unknown as HookEvent;
      expect(protect(ev('only-this.txt')).passed).toBe(false);
      expect(protect(ev('.env')).passed).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.AVP_VALIDATOR_DIR;
      else process.env.AVP_VALIDATOR_DIR = saved;
    }
  });
});

describe('no-debug-leftovers', () => {
  test('reports the after-file line of an added console.log in an edit, and nothing for pre-existing ones', async () => {
    const before = 'function a() {\n  console.log("old");\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
    const after = before.replace('  return 2;', '  console.log("new");\n  return 2;');
    const v = debug(await fileEvent('src/ab.ts', after, before));
    expect(v.violations).toMatchObject([
      { rule: 'console-log', file: 'src/ab.ts', line: 7, snippet: 'console.log("new");' },
    ]);
  });

  test('files it does not know (markdown, Go, JSON) are ignored', async () => {
    for (const f of ['README.md', 'main.go', 'data.json'])
      expect(debug(await fileEvent(f, 'console.log(1)\nprint(1)\n')).passed).toBe(true);
  });
});

test("each script loads in the engine's Worker path and answers from validate() (no fallback to a process)", async () => {
  const { exportsValidate, validateInWorker } = await import('../../src/judges/script-worker.ts');
  const events: Record<string, HookEvent> = {
    'no-secrets': await fileEvent('src/a.ts', `const t = "${GH}";\n`),
    'no-debug-leftovers': await fileEvent('src/a.ts', 'console.log(1);\n'),
    'dangerous-commands': {
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command: 'rm -rf ~' },
      cwd: '/',
      projectRoot: PROJECT,
      files: [],
      raw: {},
      agent: 'claude',
    } as unknown as HookEvent,
    'protected-files': {
      event: 'PreToolUse',
      tool: 'Write',
      toolInput: { file_path: `${PROJECT}/.env` },
      cwd: PROJECT,
      projectRoot: PROJECT,
      files: [],
      raw: {},
      agent: 'claude',
    } as unknown as HookEvent,
  };
  for (const [name, event] of Object.entries(events)) {
    const path = join(import.meta.dir, '../../validators', name, 'scripts/check.ts');
    expect(exportsValidate(await Bun.file(path).text())).toBe(true);
    const out = await validateInWorker(
      path,
      event,
      { AVP_VALIDATOR_DIR: join(path, '../..') },
      new AbortController().signal,
    );
    expect({ name, kind: out.kind }).toEqual({ name, kind: 'verdict' });
    expect((out as { value: { passed: boolean } }).value.passed).toBe(false);
  }
});

test('dangerous-commands: `rm -rf *` is judged against the session cwd (Claude Code keeps cd between Bash calls)', () => {
  const ev = (cwd: string, command: string) =>
    ({
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command },
      cwd,
      projectRoot: PROJECT,
      files: [],
      raw: {},
      agent: 'claude',
    }) as unknown as HookEvent;
  expect(dangerous(ev(PROJECT, 'rm -rf *')).passed).toBe(false);
  expect(dangerous(ev(`${PROJECT}/build`, 'rm -rf *')).passed).toBe(true);
  expect(dangerous(ev(`${PROJECT}/build`, 'rm -rf ~')).passed).toBe(false);
  expect(dangerous(ev(`${PROJECT}/build`, 'cd ~ && rm -rf *')).passed).toBe(false);
  expect(dangerous(ev(`${PROJECT}/build`, `rm -rf ${PROJECT}`)).passed).toBe(false);
});

test('no-secrets: a NotebookEdit listed without content is judged from its new_source', () => {
  const path = `${PROJECT}/analysis.ipynb`;
  const v = secrets({
    agent: 'claude',
    event: 'PostToolUse',
    tool: 'NotebookEdit',
    toolInput: {
      notebook_path: path,
      cell_id: 'c1',
      new_source: `import openai\nopenai.api_key = "sk-proj-x2jIclHkCiHp6bR1IqfEouHgxzNNAL5wIScGebcy8F5n3-YNBDRzrZSgqbjG3uhkWKFLf6xuI5"`,
    },
    cwd: PROJECT,
    projectRoot: PROJECT,
    files: [{ path, relPath: 'analysis.ipynb', inProject: true, kind: 'update' }],
    raw: {},
  } as HookEvent);
  expect(v.violations).toMatchObject([{ rule: 'openai-key', file: 'analysis.ipynb' }]);
});

describe('each script run as a process (avp runs it so when it cannot load it in a Worker)', () => {
  const script = (name: string) => join(import.meta.dir, '../../validators', name, 'scripts/check.ts');
  const run = (name: string, stdin: string) => {
    const r = Bun.spawnSync([process.execPath, script(name)], { stdin: Buffer.from(stdin), timeout: 20_000 });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };
  const cases: Array<[string, HookEvent]> = [
    ['no-secrets', { ...bashEventOf(`echo "${GH}" > key.txt`) }],
    ['dangerous-commands', bashEventOf('rm -rf /')],
    ['protected-files', { ...bashEventOf('echo x > .env'), cwd: PROJECT }],
  ];
  test.each(cases)(
    '%s prints its verdict as one JSON line, and a bad event on stdin exits 1 naming itself',
    (name, ev) => {
      const ok = run(name, JSON.stringify(ev));
      expect({ code: ok.code, passed: JSON.parse(ok.out).passed, lines: ok.out.trim().split('\n').length }).toEqual({
        code: 0,
        passed: false,
        lines: 1,
      });
      const bad = run(name, '{not json');
      expect({ code: bad.code, out: bad.out }).toEqual({ code: 1, out: '' });
      expect(bad.err).toStartWith(`${name}: `);
    },
  );
  test('no-debug-leftovers too', async () => {
    const ok = run('no-debug-leftovers', JSON.stringify(await fileEvent('src/a.ts', 'debugger;\n')));
    expect({ code: ok.code, passed: JSON.parse(ok.out).passed }).toEqual({ code: 0, passed: false });
    const bad = run('no-debug-leftovers', '{not json');
    expect({ code: bad.code, out: bad.out }).toEqual({ code: 1, out: '' });
    expect(bad.err).toStartWith('no-debug-leftovers: cannot read the event on stdin: ');
  });
});

function bashEventOf(command: string): HookEvent {
  return {
    event: 'PreToolUse',
    tool: 'Bash',
    toolInput: { command },
    cwd: '/',
    projectRoot: PROJECT,
    files: [],
    raw: {},
    agent: 'claude',
  } as unknown as HookEvent;
}
