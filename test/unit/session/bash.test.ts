import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareEvent } from '../../../src/session/session.ts';
import { sessionDir } from '../../../src/session/store.ts';
import { config, ev, gitRepo, sh, tempProject } from './helpers.ts';

const bash = (root: string, event: string, id = 't1') =>
  ev(root, event, { tool: 'Bash', toolInput: { command: '…' }, raw: { tool_use_id: id } });

/** PreToolUse, the command, PostToolUse (or PostToolUseFailure) — as Claude Code runs them. */
async function around(
  root: string,
  command: string,
  opts: { post?: string; id?: string; cfg?: ReturnType<typeof config> } = {},
) {
  const cfg = opts.cfg ?? config();
  await prepareEvent(bash(root, 'PreToolUse', opts.id), cfg);
  Bun.spawnSync(['bash', '-c', command], { cwd: root });
  const post = await prepareEvent(bash(root, opts.post ?? 'PostToolUse', opts.id), cfg);
  return Object.fromEntries(post.files.map((f) => [f.relPath, f]));
}

describe('Bash change tracking in a git repository', () => {
  test('sed -i, > redirects, rm, and new files are seen with before, after and diff', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(
      root,
      'printf "one\\ntwo\\n" > a.txt && echo keep > b.txt && echo old > dirty.txt && git add . && git commit -qm init',
    );
    sh(root, 'echo "edited before the session" >> dirty.txt && echo untracked > u.txt');
    const files = await around(
      root,
      "sed -i 's/two/TWO/' a.txt && rm b.txt && echo 'KEY=1' > new.env && echo more >> dirty.txt && echo changed > u.txt",
    );
    expect(Object.keys(files).sort()).toEqual(['a.txt', 'b.txt', 'dirty.txt', 'new.env', 'u.txt']);
    expect(files['a.txt']).toMatchObject({
      kind: 'update',
      before: 'one\ntwo\n',
      after: 'one\nTWO\n',
      inProject: true,
      path: join(root, 'a.txt'),
    });
    expect(files['a.txt']!.diff).toContain('-two\n+TWO');
    expect(files['b.txt']).toMatchObject({ kind: 'delete', before: 'keep\n', after: null });
    expect(files['new.env']).toMatchObject({ kind: 'create', before: null, after: 'KEY=1\n' });
    // Dirty and untracked files: their pre-command content was stored at PreToolUse (the index does not hold it).
    expect(files['dirty.txt']).toMatchObject({ kind: 'update', before: 'old\nedited before the session\n' });
    expect(files['dirty.txt']!.diff).toContain('+more');
    expect(files['u.txt']).toMatchObject({ kind: 'update', before: 'untracked\n', after: 'changed\n' });
  });

  test('git checkout (a file leaves the dirty set) and a failing command (PostToolUseFailure)', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'echo committed > c.txt && git add . && git commit -qm init && echo local-edit > c.txt');
    let files = await around(root, 'git checkout -- c.txt');
    expect(files['c.txt']).toMatchObject({ kind: 'update', before: 'local-edit\n', after: 'committed\n' });
    files = await around(root, 'echo partial > p.txt; exit 3', { post: 'PostToolUseFailure', id: 't2' });
    expect(files['p.txt']).toMatchObject({ kind: 'create', after: 'partial\n' });
  });

  test('a command that changes nothing (or only touches a file) yields no files; avp state is never a change', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'echo x > x.txt && git add . && git commit -qm init');
    expect(await around(root, 'ls && touch x.txt && cat x.txt')).toEqual({});
  });

  test('the changes are part of the turn: Stop sees them', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'echo v1 > f.txt && git add . && git commit -qm init');
    const cfg = config();
    await prepareEvent(ev(root, 'UserPromptSubmit'), cfg);
    await around(root, 'echo v2 > f.txt', { cfg });
    await around(root, 'echo v3 > f.txt', { cfg, id: 't2' });
    const stop = await prepareEvent(ev(root, 'Stop'), cfg);
    expect(stop.files).toHaveLength(1);
    expect(stop.files[0]).toMatchObject({ relPath: 'f.txt', before: 'v1\n', after: 'v3\n' });
  });

  test('without a PreToolUse snapshot, the SessionStart baseline is used', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'echo a > a.txt && git add . && git commit -qm init');
    const cfg = config();
    await prepareEvent(ev(root, 'SessionStart', { raw: { source: 'startup' } }), cfg);
    sh(root, 'echo b > a.txt');
    const post = await prepareEvent(bash(root, 'PostToolUse', 'no-pre'), cfg);
    expect(post.files.map((f) => [f.relPath, f.before, f.after])).toEqual([['a.txt', 'a\n', 'b\n']]);
    expect(existsSync(join(sessionDir(root, 's1'), 'bash', 'pre-no-pre.json'))).toBe(false);
  });
});

describe('Bash change tracking outside git', () => {
  test('a bounded walk sees creates, updates (with the before avp saw) and deletes, skipping node_modules', async () => {
    const root = tempProject();
    sh(
      root,
      'mkdir -p src node_modules/dep && echo 1 > src/a.js && echo 2 > gone.js && echo dep > node_modules/dep/i.js',
    );
    const cfg = config();
    // avp saw src/a.js's content through a Write earlier in the session.
    writeFileSync(join(root, 'src/a.js'), 'seen\n');
    await prepareEvent(
      ev(root, 'PostToolUse', {
        tool: 'Write',
        files: [
          {
            path: join(root, 'src/a.js'),
            relPath: 'src/a.js',
            inProject: true,
            kind: 'update',
            before: '1\n',
            after: 'seen\n',
          },
        ],
      }),
      cfg,
    );
    const files = await around(
      root,
      'echo new >> src/a.js && rm gone.js && echo n > n.js && echo x > node_modules/dep/i.js',
      { cfg },
    );
    expect(Object.keys(files).sort()).toEqual(['gone.js', 'n.js', 'src/a.js']);
    expect(files['src/a.js']).toMatchObject({ kind: 'update', before: 'seen\n', after: 'seen\nnew\n' });
    expect(files['gone.js']).toMatchObject({ kind: 'delete', after: null });
    // Outside git, PreToolUse keeps the content of (up to 200, newest first) small files, so a delete shows what went.
    expect(files['gone.js']!.before).toBe('2\n');
  });

  test('a file avp never read has no before (unknown, not guessed)', async () => {
    const root = tempProject();
    sh(
      root,
      'for i in $(seq 1 205); do echo $i > f$i.txt; done && touch -d "2 days ago" f*.txt && echo big > last.txt && touch -d "3 days ago" last.txt',
    );
    const files = await around(root, 'echo changed > last.txt');
    expect(files['last.txt']).toMatchObject({ kind: 'update', after: 'changed\n' });
    expect(files['last.txt']!.before).toBeUndefined();
    expect(files['last.txt']!.diff).toBeUndefined();
  });

  test('trackMaxFiles bounds the walk and says so in .avp/logs/tracking.jsonl', async () => {
    const root = tempProject();
    sh(root, 'for i in $(seq 1 30); do echo $i > f$i.txt; done');
    await around(root, 'true', { cfg: config({ trackMaxFiles: 10 }) });
    const log = readFileSync(join(root, '.avp', 'logs', 'tracking.jsonl'), 'utf8');
    expect(JSON.parse(log.trim().split('\n')[0]!)).toMatchObject({ what: 'bash-tracking-truncated', limit: 10 });
  });
});

describe('Bash tracking only when a validator can use it', () => {
  const v = (trigger: string, tools?: string[]) =>
    ({
      id: trigger,
      name: trigger,
      source: 'project',
      form: 'file',
      path: '/x.md',
      spec: {
        name: trigger,
        description: 'd',
        severity: 'error',
        trigger,
        match: tools ? { tools } : {},
        tags: [],
        once: false,
        timeout: 60,
      },
      body: '',
      references: [],
      hash: '',
    }) as any;

  test('skipped for Write-only PostToolUse validators; done for Bash, regex, untargeted and Stop validators', async () => {
    const root = tempProject();
    gitRepo(root);
    sh(root, 'echo a > a.txt && git add . && git commit -qm init');
    const cases: Array<[any[], boolean]> = [
      [[v('PostToolUse', ['Write', 'Edit'])], false],
      [[v('PreToolUse')], false],
      [[v('PostToolUse', ['Bash'])], true],
      [[v('PostToolUse', ['Ba.*'])], true],
      [[v('PostToolUseFailure')], true],
      [[v('Stop')], true],
    ];
    let i = 0;
    for (const [validators, tracked] of cases) {
      const id = `c${i++}`;
      await prepareEvent(bash(root, 'PreToolUse', id), config(), { validators });
      sh(root, `echo ${id} > a.txt`);
      const post = await prepareEvent(bash(root, 'PostToolUse', id), config(), { validators });
      expect({
        validators: validators[0].spec.trigger + (validators[0].spec.match.tools ?? ''),
        seen: post.files.length > 0,
      }).toEqual({
        validators: validators[0].spec.trigger + (validators[0].spec.match.tools ?? ''),
        seen: tracked,
      });
    }
  });
});

describe('Bash tracking in a project that is a sub-folder of the repository', () => {
  test('paths are project-relative and befores come from the index', async () => {
    const top = tempProject();
    gitRepo(top);
    sh(top, 'mkdir -p pkg && echo v1 > pkg/a.txt && echo other > top.txt && git add . && git commit -qm init');
    const root = join(top, 'pkg');
    const files = await around(root, 'echo v2 > a.txt && echo changed > ../top.txt');
    expect(Object.keys(files)).toEqual(['a.txt']);
    expect(files['a.txt']).toMatchObject({ before: 'v1\n', after: 'v2\n', path: join(root, 'a.txt') });
  });
});
