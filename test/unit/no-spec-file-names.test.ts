/**
 * Users have no specification files: code, help and docs name the rule ("the aggregated report", "the AVP validator
 * response"), never the file it comes from ("seed 002"). Scans what ships and what users read.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dir, '../..');
const SHIPPED = ['src', 'registry', 'validators', 'docs', 'README.md', 'ARCHITECTURE.md', 'plugins'];

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((n) => (n === 'node_modules' ? [] : files(join(path, n))));
}

describe('no spec file names where users read', () => {
  test('no "seed 00N" in src/, registry/, validators/, docs/, README.md, ARCHITECTURE.md, plugins/', () => {
    const hits: string[] = [];
    for (const top of SHIPPED) {
      for (const file of files(join(ROOT, top))) {
        if (!/\.(ts|js|md|json|ya?ml|txt)$/.test(file)) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\bseeds?\s*0\d\d\b/i.test(line)) hits.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(hits).toEqual([]);
  });
});
