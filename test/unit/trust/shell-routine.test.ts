/**
 * The guard's false alarms: everyday developer commands (test/fixtures/guard/routine-commands.ts), run in a project
 * holding avp's control files and with an `avp` on PATH, must all pass. Beside each fixed false alarm, its close
 * variant that does reach a control path is still refused.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlTable, folding } from '../../../src/trust/control-paths.ts';
import { shellWriteDenial } from '../../../src/trust/shell-writes.ts';
import { ROUTINE_COMMANDS } from '../../fixtures/guard/routine-commands.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'avp-routine-')));
const root = join(base, 'project');
const home = join(base, 'home');
const bin = join(base, 'bin');
for (const d of ['.claude', '.avp/validators', '.avp/state', 'src/lib', 'scripts', 'node_modules/x', 'dist', 'vendor'])
  mkdirSync(join(root, d), { recursive: true });
for (const d of [join(home, '.claude'), join(home, '.avp', 'trust'), bin]) mkdirSync(d, { recursive: true });
writeFileSync(join(root, '.claude', 'settings.json'), '{"hooks":{}}\n');
writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks":{}}\n');
writeFileSync(join(bin, 'avp'), '#!/bin/sh\n');
for (const f of ['src/a.ts', 'scripts/x.sh', 'package.json', 'README.md']) writeFileSync(join(root, f), 'x\n');
writeFileSync(join(root, '.env.example'), 'DATABASE_URL=postgres://localhost/app\nAPI_KEY=\n');
// Folders copied into the project: a template (no control file), and three that would land on one.
for (const [dir, file] of [
  [join(home, 'templates'), 'src/index.ts'],
  [join(base, 'template'), '.claude/commands/review.md'],
  [join(base, 'evil'), '.claude/settings.json'],
  [join(base, 'evil-file'), '.claude'],
  [join(base, 'evil-state'), '.avp/state/x'],
]) {
  mkdirSync(join(dir!, file!, '..'), { recursive: true });
  writeFileSync(join(dir!, file!), '{}\n');
}
// No TMPDIR: unset, as on most Linux machines (the shell expands it to nothing).
const env = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: `${bin}:/usr/bin:/bin`, USER: 'dev' };

function denial(command: string, extra: Record<string, string> = {}): string | undefined {
  const e = { ...env, ...extra };
  return shellWriteDenial(command, root, e, controlTable(root, e), folding());
}

describe(`${ROUTINE_COMMANDS.length} everyday commands pass the guard`, () => {
  for (const c of ROUTINE_COMMANDS) test(c.replaceAll('\n', '⏎'), () => expect(denial(c)).toBeUndefined());
});

describe('the close variants that reach a control path are still refused', () => {
  const cases: Array<[string, string, Record<string, string>?]> = [
    // An unset variable is empty in the shell: `$TMPDIR/avp` is `/avp`, avp's binary when avp is installed there.
    ['rm -rf "$TMPDIR/avp" with / on PATH', 'rm -rf "$TMPDIR/avp"', { PATH: `/:${bin}` }],
    ['an unset variable before an avp on PATH', `rm -f "$NOPE${bin}/avp"`],
    ['${X:-word} falling back to a folder on PATH', `rm -f "\${NOPE:-${bin}}/avp"`],
    ['${X:-word} falling back to the home folder', 'rm -rf "${NOPE:-$HOME}/.claude"'],
    ['an unset prefix before a glob: every folder of /', 'rm -rf "$NOPE"/*'],
    // A folder's contents copied in: judged by what it holds.
    ['cp -r of a folder holding .claude/settings.json', `cp -r ${base}/evil/. .`],
    ['rsync of a folder holding .claude/settings.json', 'rsync -a ../evil/ ./'],
    ['cp -r of a folder holding a file named .claude', `cp -r ${base}/evil-file/. .`],
    ['rsync of a folder holding .avp/state', 'rsync -a ../evil-state/ ./'],
    ['rsync --delete into the project (removes what the source lacks)', 'rsync -a --delete ../template/ ./'],
    ['cp -r of a folder that does not exist yet (its contents are unknown)', 'cp -r ../nowhere/. .'],
    ['an unresolvable word naming a settings folder', 'rm -rf "$TMPDIR/.claude"'],
    ['a variable set by eval', `eval "D=${bin}"; rm -f "$D/avp"`],
    ['a variable set by printf -v', `printf -v D %s ${bin}; rm -f "$D/avp"`],
    ['a for-loop variable', `for d in ${bin} /usr/bin; do rm -f "$d/avp"; done`],
    ['a for-loop over a glob of a folder on PATH', `for f in ${bin}/*; do rm -f "$f"; done`],
    ['a for-loop over the settings folder', 'for f in .claude/*; do : > "$f"; done'],
    ['a copy into an unset folder that is avp on PATH', 'cp /tmp/x "$TMPDIR/avp"', { PATH: `/:${bin}` }],
    // find: only a branch that writes counts, and it must be limited by a name no control path has.
    ['find: a pruned branch, then a writing branch with no name', 'find . -path ./node_modules -prune -o -delete'],
    ['find: the writing branch named settings.json', "find . -path ./x -prune -o -name 'settings.json' -delete"],
    ['find: a negated name', "find . ! -name '*.tmp' -delete"],
    ['find: -not -name', "find . -not -name '*.bak' -delete"],
    ['find: a name, or else delete', "find . -name '*.tmp' -o -delete"],
    ['find: a name, then (comma) delete', "find . -name '*.tmp' , -delete"],
    ['find: a group that is not only names', "find . \\( -name '*.tmp' -o -path '*claude*' \\) -delete"],
    ['find: -empty in another branch', 'find . -empty -o -delete'],
    ['find: a ( among -exec arguments', "find . -name x -exec echo '(' \\; -o -delete"],
    ['find: -name among -exec arguments', "find . -exec rm -rf {} -name '*.tmp' \\;"],
    ['find: a value that reads as an operator', "find . -name '(' -o -delete"],
    ['chown to another user, through a command substitution', 'chown -R "$(echo nobody)" .'],
  ];
  for (const [what, c, extra] of cases) test(what, () => expect(denial(c, extra)).toBeString());
});
