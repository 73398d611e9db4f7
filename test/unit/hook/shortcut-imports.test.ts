/**
 * The hook shortcut (src/hook/shortcut/answer.ts) loads nothing but itself, also when it counts a call: no node:
 * built-in among its static imports or theirs (node:fs alone costs more CPU than the shortcut's whole check,
 * bench/hook-cost.ts), and, as avp is compiled, one module that imports nothing, not even lazily.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { shortcutModule } from '../../../scripts/build-options.ts';
import { importsOf } from '../../support/import-graph.ts';

const SRC = resolve(import.meta.dir, '../../../src');

/** Static `import … from 'node:…'` (or `export … from`) that loads a module, in one source text. */
function nodeImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;'"]*?\s*from\s*['"](node:[^'"]+)['"]/gm)) {
    if (!m[1]) found.push(m[2]!);
  }
  for (const m of text.matchAll(/^\s*import\s*['"](node:[^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

/** Every file the shortcut loads statically, from answer.ts down (type-only imports load nothing). */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8').replace(/\bimport\(\s*['"][^'"]+['"]\s*\)/g, 'lazy');
    for (const { spec, typeOnly } of importsOf(text)) if (!typeOnly) walk(join(dirname(file), spec));
  };
  walk(entry);
  return [...seen];
}

describe('the hook shortcut stays light', () => {
  test('no node: built-in in what it loads', () => {
    const files = staticClosure(join(SRC, 'hook/shortcut/answer.ts'));
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((f) => nodeImports(readFileSync(f, 'utf8')).map((n) => `${f}: ${n}`))).toEqual([]);
  });

  test('the checker sees a static node: import and ignores a type-only one', () => {
    expect(nodeImports("import { statSync } from 'node:fs';\nimport type { Stats } from 'node:fs';")).toEqual([
      'node:fs',
    ]);
  });

  test('compiled as one module: no static import, no lazy one', async () => {
    const code = await shortcutModule();
    expect(code).not.toMatch(/^\s*import\s.*from\s/m);
    expect(code).not.toMatch(/\bimport\(/);
    expect(code).not.toMatch(/\brequire\(/);
  });
});
