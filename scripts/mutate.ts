/**
 * Mutation testing of the modules that carry avp's guarantees (`npm run mutate`, never part of `npm test`).
 *   bun scripts/mutate.ts                 every target in scripts/mutate/config.ts
 *   bun scripts/mutate.ts guard lockfile  the targets whose name contains one of the words
 *   bun scripts/mutate.ts --list          the mutant count per target, nothing run
 *   --file=<word>    only the target files whose path contains the word (a long target split over several runs)
 *   --rerun          only the mutants that survived in the target's last result file; the others keep their result
 *                    (after tests were added for the survivors)
 *   --in-process     the in-process tests alone, no build: a first pass over a large target, whose survivors are not
 *                    yet final — a `--rerun` afterwards meets them with the binary's tests too
 *   --help           this text
 * Each mutant (scripts/mutate/mutants.ts) is applied alone to a copy of the repository, where the target's tests run
 * and stop at the first failure; a mutant they miss then meets the binary's tests, after a build. A mutant is killed
 * when a test fails, a timeout when the tests exceed three times the unmutated run, survived when they pass.
 * Survivors listed in scripts/mutate/equivalent.txt (with the reason no test can tell them apart) are reported apart
 * and left out of the score. Results: one JSON per target in $AVP_MUTATE_OUT (default: <tmp>/avp-mutate).
 *
 * Our own runner rather than Stryker: with Bun, Stryker can only use its command runner, which runs one fixed
 * command for every mutant (no test files per module, no cheap in-process tier before the binary's tests), and it
 * would add a large dependency tree to the project for that; the TypeScript compiler API is already a dev dependency.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TARGETS, type MutationTarget } from './mutate/config.ts';
import { type Mutant, mutantsOf } from './mutate/mutants.ts';

const ROOT = resolve(import.meta.dir, '..');
const BUN = join(ROOT, 'node_modules/.bin/bun');
const OUT = process.env.AVP_MUTATE_OUT || join(tmpdir(), 'avp-mutate');

interface Outcome extends Mutant {
  file: string;
  /** The survivor's key in equivalent.txt. */
  key: string;
  status: 'killed' | 'survived' | 'timeout' | 'equivalent' | 'error';
  ms: number;
}

/**
 * The key a survivor is listed under in equivalent.txt — file | mutator | the source line | original => replacement —
 * so an entry follows its line when lines above it move, and names one mutant, not every alike one in the file.
 */
export function survivorKey(file: string, m: Mutant, source: string): string {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 80);
  const line = source.split('\n')[m.line - 1] ?? '';
  return `${file} | ${m.mutator} | ${squash(line)} | ${squash(m.original)} => ${squash(m.replacement)}`;
}

function equivalents(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'scripts/mutate/equivalent.txt'), 'utf8');
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' | ');
    out.set(line.slice(0, cut), line.slice(cut + 3));
  }
  return out;
}

/**
 * Runs a command in its own process group, killed whole at the deadline. Each run gets a TMPDIR of its own, removed
 * afterwards: the tests leave their temporary folders behind, and thousands of runs filled the disk once.
 */
function run(cmd: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; timedOut: boolean }> {
  const scratch = mkdtempSync(join(tmpdir(), 'avp-mutate-tmp-'));
  return new Promise<{ code: number | null; timedOut: boolean }>((done) => {
    const env = { ...process.env, TMPDIR: scratch };
    const child = spawn('nice', ['-n', '15', ...cmd], { cwd, stdio: 'ignore', detached: true, env });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, timedOut });
    });
  }).finally(() => rmSync(scratch, { recursive: true, force: true }));
}

/** A copy of the repository to mutate (node_modules linked, never copied). */
function sandbox(): string {
  const dir = mkdtempSync(join(tmpdir(), 'avp-mutate-'));
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (src) => !/\/(node_modules|\.git|dist)$/.test(src) || src === ROOT,
  });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

async function testOnce(dir: string, t: MutationTarget, timeoutMs: number, inProcess = false) {
  const started = performance.now();
  const tier = async (tests: string[]) => {
    const r = await run([BUN, 'test', '--bail', '--timeout', '120000', ...tests], dir, timeoutMs);
    // 126/127: bun could not be started (node_modules being reinstalled): no test ran, so nothing was killed.
    if (r.code === 126 || r.code === 127) return 'error' as const;
    return r.timedOut ? ('timeout' as const) : r.code === 0 ? ('pass' as const) : ('fail' as const);
  };
  let result: 'pass' | 'fail' | 'timeout' | 'error' = await tier(t.tests);
  if (result === 'pass' && t.binaryTests && !inProcess) {
    const b = await run([BUN, 'run', 'build.ts'], dir, 120_000);
    result = b.code !== 0 ? 'error' : await tier(t.binaryTests);
  }
  return { result, ms: performance.now() - started };
}

/** The last result file of a target, for --rerun. */
function resultPath(t: MutationTarget): string {
  return join(OUT, `${t.name.replace(/\W+/g, '-')}.json`);
}

async function mutateTarget(t: MutationTarget, known: Map<string, string>, previous?: Outcome[]): Promise<Outcome[]> {
  const dir = sandbox();
  try {
    const baseline = await testOnce(dir, t, 900_000, IN_PROCESS);
    if (baseline.result !== 'pass') throw new Error(`${t.name}: the unmutated tests do not pass (${baseline.result})`);
    const timeoutMs = Math.max(3 * baseline.ms, baseline.ms + 20_000);
    const outcomes: Outcome[] = [];
    for (const file of t.files) {
      const original = readFileSync(join(dir, file), 'utf8');
      const mutants = mutantsOf(file, original);
      const seenKeys = new Map<string, number>();
      for (const [i, m] of mutants.entries()) {
        // --rerun: a mutant killed last time keeps its result (found by its key, which follows its line, and by its
        // place among the mutants sharing that key: two alike literals on alike lines are two mutants); a survivor and
        // a mutant not seen before (the module changed) are run.
        const key = survivorKey(file, m, original);
        const nth = seenKeys.get(key) ?? 0;
        seenKeys.set(key, nth + 1);
        const before = previous?.filter((o) => o.file === file && o.key === key)[nth];
        if (before && before.status !== 'survived') {
          outcomes.push(before);
          continue;
        }
        writeFileSync(join(dir, file), original.slice(0, m.start) + m.replacement + original.slice(m.end));
        const r = await testOnce(dir, t, timeoutMs, IN_PROCESS);
        const status =
          r.result === 'fail'
            ? 'killed'
            : r.result === 'timeout'
              ? 'timeout'
              : r.result === 'error'
                ? 'error'
                : known.has(survivorKey(file, m, original))
                  ? 'equivalent'
                  : 'survived';
        outcomes.push({ ...m, file, key: survivorKey(file, m, original), status, ms: Math.round(r.ms) });
        process.stderr.write(`${t.name} ${file} ${i + 1}/${mutants.length} ${status}\n`);
      }
      writeFileSync(join(dir, file), original);
    }
    return outcomes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summary(name: string, outcomes: Outcome[]): string {
  const count = (s: Outcome['status']) => outcomes.filter((o) => o.status === s).length;
  const scored = outcomes.length - count('equivalent') - count('error');
  const score = scored ? (100 * (count('killed') + count('timeout'))) / scored : 100;
  const lines = [
    `${name}: ${score.toFixed(1)} % killed — ${count('killed')} killed, ${count('timeout')} timeouts, ` +
      `${count('survived')} survived, ${count('equivalent')} equivalent, ${count('error')} build errors ` +
      `(${outcomes.length} mutants)`,
  ];
  for (const o of outcomes.filter((x) => x.status === 'survived'))
    lines.push(`  survived ${o.file}:${o.line}  ${o.key}`);
  return lines.join('\n');
}

const args = process.argv.slice(2);
const words = args.filter((a) => !a.startsWith('--'));
const IN_PROCESS = args.includes('--in-process');
const fileWord = args.find((a) => a.startsWith('--file='))?.slice('--file='.length);
const chosen = TARGETS.filter((t) => !words.length || words.some((w) => t.name.includes(w)))
  .map((t) => (fileWord ? { ...t, files: t.files.filter((f) => f.includes(fileWord)) } : t))
  .filter((t) => t.files.length);
if (args.includes('--help')) {
  console.log(
    readFileSync(import.meta.path, 'utf8')
      .split('*/')[0]!
      .replace(/^\/\*\*\n| \* ?/gm, ''),
  );
} else if (args.includes('--list')) {
  for (const t of chosen) {
    const n = t.files.reduce((sum, f) => sum + mutantsOf(f, readFileSync(join(ROOT, f), 'utf8')).length, 0);
    console.log(`${t.name}: ${n} mutants`);
  }
} else {
  mkdirSync(OUT, { recursive: true });
  const known = equivalents();
  for (const t of chosen) {
    // A run of one file (--file) keeps its own result file, so split runs of one target do not overwrite each other.
    const out = fileWord ? resultPath(t).replace(/\.json$/, `.${fileWord.replace(/\W+/g, '-')}.json`) : resultPath(t);
    const previous = args.includes('--rerun') ? (JSON.parse(readFileSync(out, 'utf8')) as Outcome[]) : undefined;
    const outcomes = await mutateTarget(t, known, previous);
    writeFileSync(out, JSON.stringify(outcomes, null, 1));
    console.log(summary(t.name, outcomes));
  }
}
