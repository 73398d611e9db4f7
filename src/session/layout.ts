/**
 * The project's `.avp/` layout that `avp init` creates: `validators/` (committed) and a `.gitignore` that keeps the
 * per-machine parts (session state, logs, caches) out of git. Hook calls also drop a self-ignoring `.gitignore`
 * into `.avp/state/`, so a project that never ran `avp init` (avp installed in user settings) stays clean too.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectAvpDir, projectValidatorsDir } from '../paths.ts';

export const AVP_GITIGNORE_LINES = ['state/', 'logs/', 'cache/', '.staging/'];

/** Creates `.avp/validators/` and `.avp/.gitignore` (adding missing lines to an existing one). Returns what it made. */
export function ensureProjectLayout(projectRoot: string, dryRun = false): string[] {
  const made: string[] = [];
  const validators = projectValidatorsDir(projectRoot);
  if (!existsSync(validators)) {
    if (!dryRun) mkdirSync(validators, { recursive: true });
    made.push(validators);
  }
  const ignore = join(projectAvpDir(projectRoot), '.gitignore');
  if (!existsSync(ignore)) {
    if (!dryRun) {
      mkdirSync(projectAvpDir(projectRoot), { recursive: true });
      writeFileSync(
        ignore,
        `# avp: per-machine session state, logs and caches and install staging (validators/ and avp-lock.json are meant to be committed)\n${AVP_GITIGNORE_LINES.join('\n')}\n`,
      );
    }
    made.push(ignore);
  } else {
    const have = new Set(
      readFileSync(ignore, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim()),
    );
    const missing = AVP_GITIGNORE_LINES.filter((l) => !have.has(l) && !have.has(`/${l}`));
    if (missing.length) {
      if (!dryRun)
        appendFileSync(ignore, `${readFileSync(ignore, 'utf8').endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
      made.push(`${ignore} (+${missing.join(' ')})`);
    }
  }
  return made;
}

/** `.avp/state/.gitignore` = `*`: git ignores the state directory, this file included. */
export function ensureStateIgnored(stateRoot: string): void {
  const path = join(stateRoot, '.gitignore');
  if (existsSync(path)) return;
  try {
    writeFileSync(path, '*\n', { flag: 'wx' });
  } catch {
    /* a concurrent hook wrote it */
  }
}
