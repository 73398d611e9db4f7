/** Checks shared by the loaders: files named in the prompt, the `script` path, and the content hash. */
import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { readRegularFile } from '../os/read-regular.ts';
import type { Collector } from './load.ts';
import { findMentions } from './references.ts';

function isFile(p: string): boolean | undefined {
  try {
    return statSync(p).isFile();
  } catch {
    return undefined; // missing
  }
}

/**
 * Every file the prompt in `path` names must exist: `references/x` against the validator root `root`, links against
 * the file's own folder (then `root`, so a rule may link `references/x.md` either way). Missing ones are load errors
 * at the naming line. Returns the absolute paths of the named files that exist (the judge gets them too).
 */
export function checkMentions(path: string, body: string, bodyLine: number, root: string, c: Collector): string[] {
  const found: string[] = [];
  for (const m of findMentions(body, bodyLine)) {
    const candidates =
      m.kind === 'references' ? [resolve(root, m.target)] : [resolve(dirname(path), m.target), resolve(root, m.target)];
    const hit = candidates.find((p) => isFile(p) !== undefined);
    c.result.deps.push(...candidates);
    if (hit === undefined) {
      // A single-file validator sits among other validators: a file created beside it would load as a validator.
      const single = basename(path) !== 'VALIDATOR.md' && root === dirname(path);
      const home = join(root, basename(path, '.md'));
      c.add(path, {
        line: m.line,
        column: m.column,
        level: 'error',
        message: `${m.target} is named in the prompt but does not exist`,
        fix: single
          ? `a single-file validator has no folder of its own: make it a directory validator (move ${path} to ${join(home, 'VALIDATOR.md')}) and create ${resolve(home, m.target)}; or remove the mention`
          : `create ${candidates[0]}, or remove the mention`,
      });
    } else if (isFile(hit)) {
      found.push(hit);
    }
  }
  return found;
}

/** `script` must be a relative path inside the validator's `scripts/` folder, naming an existing file. */
export function checkScript(
  dir: string,
  script: string,
  at: { line: number; column: number },
  path: string,
  c: Collector,
): void {
  const rel = normalize(script).split(sep).join('/');
  if (isAbsolute(script) || rel.startsWith('../') || !rel.startsWith('scripts/')) {
    c.add(path, {
      ...at,
      level: 'error',
      message: `\`script\` ${script} is not inside the validator's scripts/ folder`,
      fix: 'put the script under scripts/ and write `script: scripts/<file>`',
    });
    return;
  }
  const abs = join(dir, rel);
  c.result.deps.push(abs);
  if (!isFile(abs)) {
    c.add(path, {
      ...at,
      level: 'error',
      message: `\`script\` ${script} does not exist`,
      fix: `create ${abs} or fix the path`,
    });
  }
}

/** sha256 (hex) over the files' paths (relative to `root`) and bytes, in sorted order: any edit changes it. */
export function hashFiles(root: string, files: string[]): string {
  const h = new Bun.CryptoHasher('sha256');
  for (const f of [...new Set(files)].sort()) {
    h.update(relative(root, f).split(sep).join('/'));
    h.update('\0');
    try {
      h.update(readRegularFile(f));
    } catch {
      h.update('\u0001missing');
    }
    h.update('\0');
  }
  return h.digest('hex');
}
