/**
 * The import rules of ARCHITECTURE.md hold for src/, and the checker catches each kind of break (shown on tiny graphs,
 * so a checker that found nothing could not pass).
 */
import { describe, expect, test } from 'bun:test';
import {
  brokenRules,
  folderCycles,
  folderGraph,
  importsOf,
  readGraph,
  SRC,
  type Edge,
} from '../support/import-graph.ts';

const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });

describe('import rules', () => {
  const edges = readGraph(SRC);

  test('src/ is read: hundreds of imports, including lazy ones and type-only ones', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(edge('commands/hook.ts', 'hook/hook.ts'));
    expect(edges.some((e) => e.typeOnly)).toBe(true);
  });

  test('every rule holds in src/ (no folder cycle; adapters, the hook path and commands in their place)', () => {
    expect(brokenRules(edges)).toEqual([]);
  });
});

describe('the checker', () => {
  test('reads static, re-exported, bare and dynamic imports; type-only ones marked; comments skipped', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "import { type C, type D } from './cd.ts';",
      "import { type E, f } from './ef.ts';",
      "export { g } from './g.ts';",
      "export type { H } from './h.ts';",
      "import './side-effect.ts';",
      "import {\n  i,\n  j,\n} from './ij.ts';",
      "const k = await import('./k.ts');",
      "import { readFileSync } from 'node:fs';",
      " * see import('./in-a-comment.ts')",
      "// import { x } from './commented.ts';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { spec: './a.ts', typeOnly: false },
      { spec: '../b.ts', typeOnly: true },
      { spec: './cd.ts', typeOnly: true },
      { spec: './ef.ts', typeOnly: false },
      { spec: './g.ts', typeOnly: false },
      { spec: './h.ts', typeOnly: true },
      { spec: './ij.ts', typeOnly: false },
      { spec: './side-effect.ts', typeOnly: false },
      { spec: './k.ts', typeOnly: false },
    ]);
  });

  test('a folder cycle is found, also through a type-only import and over three folders', () => {
    const graph = [edge('a/x.ts', 'b/y.ts'), edge('b/y.ts', 'c/z.ts'), edge('c/z.ts', 'a/w.ts', true)];
    expect(folderCycles(folderGraph(graph))).toEqual([['a', 'b', 'c']]);
    expect(brokenRules(graph)).toEqual(['folder cycle: a ↔ b ↔ c']);
  });

  test('imports inside one folder, and a top-level file used by all, make no cycle', () => {
    const graph = [
      edge('a/x.ts', 'a/y.ts'),
      edge('a/y.ts', 'a/x.ts'),
      edge('a/x.ts', 'errors.ts'),
      edge('b/z.ts', 'a/x.ts'),
    ];
    expect(folderCycles(folderGraph(graph))).toEqual([]);
    expect(brokenRules(graph)).toEqual([]);
  });

  test('an adapter importing the runner or the hook path breaks a rule', () => {
    expect(brokenRules([edge('agents/codex/index.ts', 'runner/run.ts')])).toEqual([
      'adapters (agents/) never import the runner or the hook path: agents/codex/index.ts → runner/run.ts',
    ]);
    expect(brokenRules([edge('agents/claude/index.ts', 'hook/decision.ts', true)])).toHaveLength(1);
  });

  test('anything but the entry point and the commands importing commands/ breaks a rule', () => {
    expect(brokenRules([edge('hook/stages/run.ts', 'commands/hook.ts')])).toEqual([
      'nothing below the commands imports commands/: hook/stages/run.ts → commands/hook.ts',
    ]);
    expect(brokenRules([edge('cli.ts', 'commands/index.ts'), edge('commands/a.ts', 'commands/b.ts')])).toEqual([]);
  });

  test('the hook path importing agent-setup/ breaks a rule', () => {
    expect(brokenRules([edge('session/session.ts', 'agent-setup/init.ts')])).toEqual([
      'the hook path (hook/, runner/, session/, agents/) never imports agent-setup/: session/session.ts → agent-setup/init.ts',
    ]);
  });
});
