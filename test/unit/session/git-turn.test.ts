/**
 * The turn's baseline and git-aware comparison, through prepareEvent: what counts as a change of the turn when the
 * index and HEAD move, in a sub-folder project, on an unborn branch, bounded, and only when a Stop validator exists.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareEvent } from '../../../src/session/session.ts';
import { sessionDir } from '../../../src/session/store.ts';
import type { Validator } from '../../../src/validator/types.ts';
import { config, ev, gitRepo, sh, tempProject } from './helpers.ts';

const bash = (root: string, event: string, id: string) =>
  ev(root, event, { tool: 'Bash', toolInput: { command: '…' }, raw: { tool_use_id: id } });

async function around(root: string, command: string, id: string, cfg = config()) {
  await prepareEvent(bash(root, 'PreToolUse', id), cfg);
  sh(root, command);
  const post = await prepareEvent(bash(root, 'PostToolUse', id), cfg);
  return Object.fromEntries(post.files.map((f) => [f.relPath, f]));
}

async function turnFiles(root: string, during: () => void | Promise<void>, cfg = config(), extra = {}) {
  await prepareEvent(ev(root, 'UserPromptSubmit'), cfg);
  await during();
  const stop = await prepareEvent(ev(root, 'Stop', extra), cfg);
  return Object.fromEntries(stop.files.map((f) => [f.relPath, f]));
}

function committed(root: string, files: Record<string, string>): void {
  gitRepo(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  sh(root, 'git add . && git commit -qm init');
}

describe('the turn baseline in git', () => {
  test('staged before the turn and committed in it is no change; staged then edited has the staged text as before', async () => {
    const root = tempProject();
    committed(root, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    sh(root, 'echo a2 > a.txt && echo b2 > b.txt && git add a.txt b.txt');
    const files = await turnFiles(root, () => sh(root, 'git commit -qm staged-before && echo b3 > b.txt'));
    expect(Object.keys(files)).toEqual(['b.txt']);
    expect(files['b.txt']).toMatchObject({ before: 'b2\n', after: 'b3\n' });
  });

  test('a Bash command that only commits earlier edits changed nothing; reverting one to HEAD did', async () => {
    const root = tempProject();
    committed(root, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    sh(root, 'echo a2 > a.txt && echo b2 > b.txt');
    expect(await around(root, 'git commit -qam edits', 't1')).toEqual({});
    const files = await around(root, 'echo b3 > b.txt && git commit -qam b3 && git reset -q --hard HEAD~2', 't2');
    // Back to the first commit: a.txt a2 → a1, b.txt b2 → b1 (b3 came and went within the command).
    expect(files['a.txt']).toMatchObject({ before: 'a2\n', after: 'a1\n' });
    expect(files['b.txt']).toMatchObject({ before: 'b2\n', after: 'b1\n' });
  });

  test('a project in a sub-folder: project-relative paths, changes elsewhere in the repository left out', async () => {
    const top = tempProject();
    committed(top, { 'app/src/x.ts': 'x1\n', 'other/y.ts': 'y1\n' });
    const root = join(top, 'app');
    const files = await turnFiles(root, () =>
      sh(top, 'echo x2 > app/src/x.ts && echo y2 > other/y.ts && git commit -qam both'),
    );
    expect(Object.keys(files)).toEqual(['src/x.ts']);
    expect(files['src/x.ts']).toMatchObject({ before: 'x1\n', after: 'x2\n' });
  });

  test('the first commit of an unborn branch is seen', async () => {
    const root = tempProject();
    gitRepo(root);
    const files = await around(root, 'echo one > first.txt && git add . && git commit -qm first', 't1');
    expect(files['first.txt']).toMatchObject({ kind: 'create', before: null, after: 'one\n' });
  });

  test('a branch switch is bounded by trackMaxFiles', async () => {
    const root = tempProject();
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `${i}\n`]));
    committed(root, many);
    sh(root, 'git checkout -qb other && for i in $(seq 0 29); do echo x >> f$i.txt; done && git commit -qam x');
    sh(root, 'git checkout -q -');
    const cfg = config({ trackMaxFiles: 10 });
    const files = await turnFiles(root, () => sh(root, 'git checkout -q other'), cfg);
    expect(Object.keys(files).length).toBe(10);
  });

  test('a SubagentStop sees only its sub-agent`s hook-reported changes, not the baseline`s', async () => {
    const root = tempProject();
    committed(root, { 'a.txt': 'a1\n' });
    const files = await turnFiles(root, () => writeFileSync(join(root, 'a.txt'), 'a2\n'), config(), {
      event: 'SubagentStop',
      raw: { agent_id: 'sub-1' },
    });
    expect(files).toEqual({});
  });
});

describe('the turn baseline costs nothing without a Stop validator', () => {
  const v = (trigger: string) => ({ id: trigger, name: trigger, spec: { trigger, match: {} } }) as unknown as Validator;

  test('UserPromptSubmit snapshots only when a Stop validator is installed', async () => {
    for (const [validators, taken] of [
      [[v('PostToolUse')], false],
      [[v('SubagentStop')], false],
      [[v('Stop')], true],
    ] as Array<[Validator[], boolean]>) {
      const root = tempProject();
      committed(root, { 'a.txt': 'a\n' });
      await prepareEvent(ev(root, 'UserPromptSubmit'), config(), { validators });
      expect([validators[0]!.spec.trigger, existsSync(join(sessionDir(root, 's1'), 'turn', 'baseline.json'))]).toEqual([
        validators[0]!.spec.trigger,
        taken,
      ]);
    }
  });
});

describe('ignore rules of the earlier snapshot', () => {
  test('a new entry in a tracked .gitignore hides nothing; what the old rules ignored stays out', async () => {
    const root = tempProject();
    committed(root, { '.gitignore': '*.log\nnode_modules/\n', 'sub/.gitignore': 'local.txt\n', 'a.txt': 'a\n' });
    sh(root, 'mkdir -p node_modules/pkg && echo old > node_modules/pkg/index.js');
    const files = await around(
      root,
      'printf "secret.txt\\nout/\\nnode_modules/\\n" >> .gitignore && echo "*" > sub/.gitignore' +
        ' && echo k1 > secret.txt && mkdir out && echo k2 > out/a.txt && echo k3 > sub/b.txt' +
        ' && echo noise > debug.log && echo local > sub/local.txt && echo new > node_modules/pkg/new.js',
      't1',
    );
    expect(Object.keys(files).sort()).toEqual(['.gitignore', 'out/a.txt', 'secret.txt', 'sub/.gitignore', 'sub/b.txt']);
    expect(files['secret.txt']).toMatchObject({ kind: 'create', before: null, after: 'k1\n' });
    expect(files['.gitignore']!.before).toBe('*.log\nnode_modules/\n');
  });
});
