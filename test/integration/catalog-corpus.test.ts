/**
 * The whole labelled corpus through the compiled binary: each case becomes the Claude Code hook input it stands for
 * (PostToolUse Write of a new or existing file, PreToolUse Bash, PreToolUse Write/Edit of a path), `dist/avp hook`
 * judges it with the four script validators installed in a throwaway project, and the answer must name the case's
 * validator (under the labelled rule) exactly when the case is labelled `flag`. Same target as the in-process test:
 * every case as labelled except the known misses (test/fixtures/catalog/known-misses.ts), which must still be missed.
 * Runs a few hook processes at a time to keep the suite fast.
 */
import { expect, test } from 'bun:test';
import { copyFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cases as commandCases } from '../fixtures/catalog/dangerous-commands.cases.ts';
import { cases as debugCases } from '../fixtures/catalog/no-debug-leftovers.cases.ts';
import { cases as secretCases } from '../fixtures/catalog/no-secrets.cases.ts';
import { cases as pathCases } from '../fixtures/catalog/protected-files.cases.ts';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';
import { mismatches, type Outcome } from '../catalog/exact.ts';

const CATALOG = join(import.meta.dir, '../../validators');
const VALIDATORS = ['no-secrets', 'no-debug-leftovers', 'dangerous-commands', 'protected-files'];

interface BinaryCase {
  validator: string;
  id: string;
  expect: 'flag' | 'pass';
  rule?: string;
  /** Builds the hook input inside the project (writing the file first, as the tool would have). */
  build: (root: string, home: string, i: number) => Record<string, unknown>;
}

const base = (root: string, home: string, event: string, i: number) => ({
  session_id: `corpus-${i}`,
  transcript_path: join(home, 't.jsonl'),
  cwd: root,
  hook_event_name: event,
  tool_use_id: `toolu_corpus_${i}`,
});

function writeInput(file: string, content: string, before: string | undefined) {
  return (root: string, home: string, i: number) => {
    const path = join(root, 'cases', String(i), file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return {
      ...base(root, home, 'PostToolUse', i),
      tool_name: 'Write',
      tool_input: { file_path: path, content },
      tool_response: {
        type: before === undefined ? 'create' : 'update',
        filePath: path,
        content,
        structuredPatch: [],
        originalFile: before ?? null,
        userModified: false,
      },
    };
  };
}

const all: BinaryCase[] = [
  ...secretCases.map((c) => ({
    validator: 'no-secrets',
    id: c.id,
    expect: c.expect,
    rule: c.rule,
    build: writeInput(c.file, c.content, c.before),
  })),
  ...debugCases.map((c) => ({
    validator: 'no-debug-leftovers',
    id: c.id,
    expect: c.expect,
    rule: c.rule,
    build: writeInput(c.file, c.content, c.before),
  })),
  ...commandCases.map((c) => ({
    validator: 'dangerous-commands',
    id: c.id,
    expect: c.expect,
    rule: c.rule,
    // The corpus's project path (`/work/project`) stands for the project root: substitute the real one.
    build: (root: string, home: string, i: number) => ({
      ...base(root, home, 'PreToolUse', i),
      tool_name: 'Bash',
      tool_input: { command: c.command.replaceAll('/work/project', root), description: c.id },
    }),
  })),
  ...pathCases.map((c) => ({
    validator: 'protected-files',
    id: c.id,
    expect: c.expect,
    build: (root: string, home: string, i: number) => {
      if (c.command)
        return { ...base(root, home, 'PreToolUse', i), tool_name: 'Bash', tool_input: { command: c.command } };
      const path = c.path.startsWith('~/') ? join(home, c.path.slice(2)) : join(root, c.path);
      const input =
        c.tool === 'NotebookEdit'
          ? { notebook_path: path, new_source: 'x' }
          : c.tool === 'Edit'
            ? { file_path: path, old_string: 'a', new_string: 'b' }
            : { file_path: path, content: 'x\n' };
      return { ...base(root, home, 'PreToolUse', i), tool_name: c.tool ?? 'Write', tool_input: input };
    },
  })),
];

/**
 * Harmless commands of the corpus that avp's built-in guard (not a catalog validator) refuses today, with the reason:
 * false alarms of the guard, kept visible. Each must still be refused by the guard; once one is not, this test fails
 * until its line is removed.
 */
// None today: `rm -rf "$TMPDIR/avp"` (TMPDIR unset is `/avp`, not avp's binary) and `find . -path ./node_modules
// -prune -o -name '*.tmp' -delete` (only the `-name` branch deletes) pass since the guard judges them as sh and find
// do (test/unit/trust/shell-routine.test.ts).
const GUARD_REFUSES: Record<string, string> = {};

test(`all ${all.length} corpus cases through dist/avp hook: each as labelled, except the known misses`, async () => {
  // A private copy of the binary: this test runs for tens of seconds and must not see a concurrent rebuild of dist/avp.
  const bin = join(tempDir('avp-c-corpus-bin-'), 'avp');
  copyFileSync(AVP_BIN, bin);
  const root = tempDir('avp-c-corpus-');
  const home = tempDir('avp-c-corpus-home-');
  mkdirSync(join(root, '.git'));
  for (const v of VALIDATORS) cpSync(join(CATALOG, v), join(root, '.avp/validators', v), { recursive: true });
  const outcome: Array<{ c: (typeof all)[number]; flagged: boolean; rules: string[]; errors: string }> = [];
  const guardRefused = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const i = next++;
      const c = all[i]!;
      const r = await runAvp(['hook'], {
        bin,
        cwd: root,
        stdin: `${JSON.stringify(c.build(root, home, i))}\n`,
        env: { HOME: home, AVP_HOME: join(home, '.avp'), CLAUDE_PROJECT_DIR: root },
        timeoutMs: 60_000,
      });
      const json = r.stdout.trim() ? JSON.parse(r.stdout) : {};
      // avp's own guard refuses a command that would delete its state or the hook settings (`rm -rf ~`), and an Edit
      // of an agent's settings it cannot rebuild, before any validator runs: for the command and path corpora that
      // counts as flagged (standing in for the labelled rule), and on a harmless case as a false positive.
      const guard =
        ['dangerous-commands', 'protected-files'].includes(c.validator) &&
        String(json.hookSpecificOutput?.permissionDecisionReason ?? '').startsWith('avp refuses this');
      const mine = ((json.violations ?? []) as Array<{ validator?: string; rule?: string }>).filter(
        (v) => v.validator === c.validator,
      );
      if (guard && c.expect === 'pass' && GUARD_REFUSES[c.id]) guardRefused.add(c.id);
      outcome.push({
        c,
        flagged: (guard && !GUARD_REFUSES[c.id]) || mine.length > 0,
        rules: [...mine.map((v) => v.rule ?? ''), ...(guard && c.rule ? [c.rule] : [])],
        errors: `${r.code === 0 ? '' : `exit ${r.code} `}${JSON.stringify(json.errors ?? [])}`,
      });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  expect([...guardRefused].sort()).toEqual(Object.keys(GUARD_REFUSES).sort());
  // No validator may fail to run on any case (that would be an error, not a verdict).
  expect(outcome.filter((o) => o.errors !== '[]').map((o) => `${o.c.validator}/${o.c.id}: ${o.errors}`)).toEqual([]);
  for (const v of VALIDATORS) {
    const mine: Outcome[] = outcome
      .filter((o) => o.c.validator === v)
      .map((o) => ({ id: o.c.id, expect: o.c.expect, rule: o.c.rule, flagged: o.flagged, rules: o.rules }));
    expect({ v, ...mismatches(v, mine) }).toEqual({ v, unexpected: [], nowCorrect: [], unknownIds: [] });
  }
}, 1_200_000);
