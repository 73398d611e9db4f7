/**
 * avp's import rules (ARCHITECTURE.md, "Import rules"), checked on the import graph of src/ read from the sources
 * themselves — no dependency: every static `import`/`export … from` and every `import('…')` with a literal path.
 * The checker works on any graph, so a test can show it failing on a tiny graph that breaks a rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';

/** One import: the importing and imported files (paths relative to src/, `/`-separated), and whether only types. */
export interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/**
 * A folder of src/: its first path segment (`hook/stages/run.ts` → `hook`). A top-level file is a node of its own
 * (`errors.ts` sits below everything, `cli.ts` above everything).
 */
export function folderOf(file: string): string {
  const at = file.indexOf('/');
  return at < 0 ? file : file.slice(0, at);
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const BARE = /^\s*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative imports of one source text, with whether each is type-only. Comment lines are skipped. */
export function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const code = text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
    .join('\n');
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const m of code.matchAll(STATIC)) {
    // `import type {…}` and `import { type A, type B }` load nothing; `import { type A, b }` does.
    const names = m[3] ?? '';
    const allTypes = /^\{[^}]*\}$/.test(names.trim()) && names.split(',').every((n) => /^\s*\{?\s*type\s/.test(n));
    found.push({ spec: m[4]!, typeOnly: !!m[2] || (names.trim() !== '' && names.trim() !== '{}' && allTypes) });
  }
  for (const m of code.matchAll(BARE)) found.push({ spec: m[1]!, typeOnly: false });
  for (const m of code.matchAll(DYNAMIC)) found.push({ spec: m[1]!, typeOnly: false });
  return found.filter((f) => f.spec.startsWith('.'));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every import between files of `srcDir` (imports leaving it, e.g. into registry/, are not edges). */
export function readGraph(srcDir: string): Edge[] {
  const edges: Edge[] = [];
  for (const file of sources(srcDir)) {
    const from = relative(srcDir, file).split(sep).join('/');
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      const to = posix.normalize(posix.join(posix.dirname(from), spec));
      if (!to.startsWith('..')) edges.push({ from, to, typeOnly });
    }
  }
  return edges;
}

/** Folder → the folders it imports (itself excluded). */
export function folderGraph(edges: Edge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (!graph.has(a)) graph.set(a, new Set());
    if (a !== b) graph.get(a)!.add(b);
  }
  return graph;
}

/** The folder cycles, one per strongly connected component of more than one folder (Tarjan), members sorted. */
export function folderCycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** A rule on single imports: the edges (as `from → to`) that break it. */
export interface EdgeRule {
  name: string;
  breaks(edge: Edge): boolean;
}

export const EDGE_RULES: EdgeRule[] = [
  {
    // The adapters are tables and two pure functions (normalize, render): they never run validators.
    name: 'adapters (agents/) never import the runner or the hook path',
    breaks: (e) => folderOf(e.from) === 'agents' && ['runner', 'hook', 'judges'].includes(folderOf(e.to)),
  },
  {
    // Commands are the outermost layer: only the entry point and other commands load them.
    name: 'nothing below the commands imports commands/',
    breaks: (e) => folderOf(e.to) === 'commands' && folderOf(e.from) !== 'commands' && e.from !== 'cli.ts',
  },
  {
    // Installing into agents is never on the hook path.
    name: 'the hook path (hook/, runner/, session/, agents/) never imports agent-setup/',
    breaks: (e) =>
      ['hook', 'runner', 'session', 'agents'].includes(folderOf(e.from)) && folderOf(e.to) === 'agent-setup',
  },
];

/** Every broken rule, as readable lines (empty: all rules hold). */
export function brokenRules(edges: Edge[]): string[] {
  const broken = folderCycles(folderGraph(edges)).map((c) => `folder cycle: ${c.join(' ↔ ')}`);
  for (const rule of EDGE_RULES)
    for (const e of edges) if (rule.breaks(e)) broken.push(`${rule.name}: ${e.from} → ${e.to}`);
  return broken;
}

export const SRC = join(dirname(new URL(import.meta.url).pathname), '../../src');
