import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Language } from './types.ts';

/** Extension → language, for `changed_files`. */
const EXTENSIONS: Record<string, Language> = {
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.rb': 'ruby',
  '.rake': 'ruby',
  '.java': 'java',
  '.kt': 'java',
};

/** Manifests at the project root, in tie-break order. */
const MANIFESTS: Array<[Language, string[]]> = [
  ['typescript', ['tsconfig.json']],
  ['javascript', ['package.json']],
  ['python', ['pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', 'Pipfile']],
  ['go', ['go.mod']],
  ['rust', ['Cargo.toml']],
  ['ruby', ['Gemfile', '.rubocop.yml']],
  ['java', ['pom.xml', 'build.gradle', 'build.gradle.kts']],
];

/** JavaScript and TypeScript share a toolchain (package.json scripts); a tsconfig makes the project TypeScript. */
function family(lang: Language): string {
  return lang === 'typescript' ? 'javascript' : lang;
}

export interface Detection {
  language: Language | undefined;
  /** Why: shown in notes and docs ("3 changed .py files; pyproject.toml"). */
  reason: string;
}

/**
 * Picks the project's language. Rule for mixed repositories: among languages with a manifest at the root, the one
 * with the most changed files wins (ties: manifest order above); with no changed file of a manifest's language, the
 * most-changed language wins; with no recognizable changed file, the first manifest found. JS vs TS: a tsconfig.json
 * or a changed `.ts` file makes a package.json project TypeScript.
 */
export function detectLanguage(workingDirectory: string, changedFiles: string[]): Detection {
  const counts = new Map<string, number>();
  let tsFiles = 0;
  for (const f of changedFiles) {
    const lang = EXTENSIONS[extname(f).toLowerCase()];
    if (!lang) continue;
    if (lang === 'typescript') tsFiles++;
    counts.set(family(lang), (counts.get(family(lang)) ?? 0) + 1);
  }
  const present: Language[] = [];
  for (const [lang, files] of MANIFESTS) {
    if (files.some((f) => existsSync(join(workingDirectory, f)))) present.push(lang);
  }
  const hasTsconfig = present.includes('typescript');
  const resolveJs = (): Language => (hasTsconfig || tsFiles > 0 ? 'typescript' : 'javascript');
  const canonical = (fam: string): Language => (fam === 'javascript' ? resolveJs() : (fam as Language));

  const withManifest = [...new Set(present.map(family))];
  const ranked = withManifest
    .map((fam, order) => ({ fam, n: counts.get(fam) ?? 0, order }))
    .sort((a, b) => b.n - a.n || a.order - b.order);
  if (ranked[0] && ranked[0].n > 0) {
    return {
      language: canonical(ranked[0].fam),
      reason: `${ranked[0].n} changed file(s) and a manifest for ${canonical(ranked[0].fam)}`,
    };
  }
  const byCount = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (byCount[0])
    return { language: canonical(byCount[0][0]), reason: `${byCount[0][1]} changed file(s), no manifest` };
  if (ranked[0]) return { language: canonical(ranked[0].fam), reason: 'project manifest' };
  return { language: undefined, reason: 'no recognizable changed file and no project manifest' };
}
