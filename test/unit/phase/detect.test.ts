import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectLanguage } from '../../../src/phase/detect.ts';

const root = mkdtempSync(join(tmpdir(), 'avp-phase-detect-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
let n = 0;
function repo(files: string[]): string {
  const dir = join(root, String(n++));
  mkdirSync(dir);
  for (const f of files) writeFileSync(join(dir, f), '');
  return dir;
}

describe('detectLanguage', () => {
  test('manifests alone', () => {
    expect(detectLanguage(repo(['package.json']), []).language).toBe('javascript');
    expect(detectLanguage(repo(['package.json', 'tsconfig.json']), []).language).toBe('typescript');
    expect(detectLanguage(repo(['pyproject.toml']), []).language).toBe('python');
    expect(detectLanguage(repo(['requirements.txt']), []).language).toBe('python');
    expect(detectLanguage(repo(['setup.cfg']), []).language).toBe('python');
    expect(detectLanguage(repo(['go.mod']), []).language).toBe('go');
    expect(detectLanguage(repo(['Cargo.toml']), []).language).toBe('rust');
    expect(detectLanguage(repo(['Gemfile']), []).language).toBe('ruby');
    expect(detectLanguage(repo(['pom.xml']), []).language).toBe('java');
    expect(detectLanguage(repo(['build.gradle.kts']), []).language).toBe('java');
  });

  test('changed files alone (no manifest)', () => {
    expect(detectLanguage(repo([]), ['a.py', 'b.py', 'c.go']).language).toBe('python');
    expect(detectLanguage(repo([]), ['main.rs']).language).toBe('rust');
    expect(detectLanguage(repo([]), ['README.md']).language).toBeUndefined();
  });

  test('a .ts changed file makes a package.json project TypeScript', () => {
    expect(detectLanguage(repo(['package.json']), ['src/api.ts', 'tests/api.test.ts']).language).toBe('typescript');
    expect(detectLanguage(repo(['package.json']), ['src/api.js']).language).toBe('javascript');
  });

  test('mixed repository: the manifest language with the most changed files wins', () => {
    const mixed = repo(['package.json', 'pyproject.toml']);
    expect(detectLanguage(mixed, ['web/app.js', 'api/main.py', 'api/db.py']).language).toBe('python');
    expect(detectLanguage(mixed, ['web/app.js', 'web/b.jsx', 'api/main.py']).language).toBe('javascript');
    // tie → manifest order (package.json before pyproject.toml)
    expect(detectLanguage(mixed, ['web/app.js', 'api/main.py']).language).toBe('javascript');
    // changed files of a language with no manifest do not beat a manifest language that has changes
    expect(detectLanguage(repo(['go.mod']), ['x.py', 'y.py', 'main.go']).language).toBe('go');
    // only docs changed → the manifest decides
    expect(detectLanguage(repo(['Cargo.toml']), ['README.md']).language).toBe('rust');
  });
});
