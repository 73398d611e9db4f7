/**
 * The project's `.avp/` layout that `avp init` creates: `validators/` (committed) and a `.gitignore` that keeps the
 * per-machine parts (logs, caches, install staging) out of git. Session state is not in the project at all: it lives
 * under `$AVP_HOME/sessions/` (session/store.ts), where the agent's shell cannot wipe it with the project's files; an
 * old `.avp/state/` left by an earlier avp is ignored (it carries its own `.gitignore`).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectAvpDir, projectValidatorsDir } from '../paths.ts';

export const AVP_GITIGNORE_LINES = ['logs/', 'cache/', '.staging/'];

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
        `# avp: per-machine logs and caches and install staging (validators/ and avp-lock.json are meant to be committed)\n${AVP_GITIGNORE_LINES.join('\n')}\n`,
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
