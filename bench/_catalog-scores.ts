/**
 * The catalog's labelled corpus scored per validator and per category, in-process (each script's `validate`) and
 * through the compiled binary (`avp hook` fed the Claude Code input each case stands for), and the summary table:
 * validator | recall overall | recall on claimed formats | FP rate. Used by bench/catalog.ts (the `_` keeps
 * bench/run.ts from running it alone).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CATALOG, type CategoryScore, type LabelledEvent, PROJECT, score } from '../test/catalog/corpus.ts';
import { PROVIDERS } from '../validators/no-secrets/scripts/providers.ts';
import { runLines, validatorName } from './_run-log.ts';

const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)} %` : '—');
const pad = (s: string, n: number) => s.padEnd(n);

/**
 * The formats a validator's VALIDATOR.md claims: for no-secrets every provider rule and private keys (the generic
 * heuristics — secret-like names, URLs, headers — are best effort and not claimed); for the others every positive.
 */
const CLAIMED: Record<string, (c: LabelledEvent) => boolean> = {
  'no-secrets': (c) => c.rule === 'private-key' || PROVIDERS.some((r) => r.id === c.rule),
};
const claimed = (validator: string, c: LabelledEvent) => (CLAIMED[validator] ?? (() => true))(c);

export interface Outcome {
  c: LabelledEvent;
  flagged: boolean;
}
export interface Summary {
  validator: string;
  positives: number;
  found: number;
  claimedPositives: number;
  claimedFound: number;
  negatives: number;
  falsePositives: number;
}

export function summarize(validator: string, outcomes: Outcome[]): Summary {
  const pos = outcomes.filter((o) => o.c.expect === 'flag');
  const cl = pos.filter((o) => claimed(validator, o.c));
  const neg = outcomes.filter((o) => o.c.expect === 'pass');
  return {
    validator,
    positives: pos.length,
    found: pos.filter((o) => o.flagged).length,
    claimedPositives: cl.length,
    claimedFound: cl.filter((o) => o.flagged).length,
    negatives: neg.length,
    falsePositives: neg.filter((o) => o.flagged).length,
  };
}

export function printSummary(title: string, rows: Summary[]): void {
  console.log(`\n${title}\n`);
  console.log('| validator | recall overall | recall on claimed formats | FP rate |');
  console.log('|---|---|---|---|');
  for (const s of rows)
    console.log(
      `| ${s.validator} | ${pct(s.found, s.positives)} (${s.found}/${s.positives}) | ${pct(s.claimedFound, s.claimedPositives)} (${s.claimedFound}/${s.claimedPositives}) | ${pct(s.falsePositives, s.negatives)} (${s.falsePositives}/${s.negatives}) |`,
    );
}

function printCategories(categories: Record<string, CategoryScore>): void {
  console.log(`    ${pad('category', 22)} ${pad('cases', 6)} ${pad('recall', 16)} false positives`);
  for (const [name, c] of Object.entries(categories).sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `    ${pad(name, 22)} ${pad(String(c.positives + c.negatives), 6)} ${pad(c.positives ? `${c.truePositives}/${c.positives}` : '—', 16)} ${c.negatives ? `${c.falsePositives}/${c.negatives}` : '—'}`,
    );
}

/** In-process scores: per validator (and its held-out set), per category; returns the outcomes for the summary. */
export async function inProcess(labelled: Record<string, LabelledEvent[]>): Promise<Map<string, Outcome[]>> {
  const all = new Map<string, Outcome[]>();
  for (const [name, events] of Object.entries(labelled)) {
    const s = await score(name, events);
    const missed = new Set(s.missed.map((m) => m.split(' ')[0]));
    const alarms = new Set(s.falseAlarms.map((f) => f.split(':')[0]));
    all.set(
      name,
      events.map((c) => ({ c, flagged: c.expect === 'flag' ? !missed.has(c.id) : alarms.has(c.id) })),
    );
    console.log(
      `\n${name}: ${events.length} cases, recall ${pct(s.truePositives, s.positives)}, false positives ${s.falsePositives}/${s.negatives}, validate() ${s.meanMicros.toFixed(0)} µs per case`,
    );
    const held = events.filter((c) => c.heldOut);
    if (held.length) {
      const h = summarize(
        name,
        all.get(name)!.filter((o) => o.c.heldOut),
      );
      console.log(
        `  held-out set: ${held.length} cases, recall ${pct(h.found, h.positives)}, false positives ${h.falsePositives}/${h.negatives}`,
      );
    }
    for (const m of s.missed) console.log(`    missed: ${m}`);
    for (const f of s.falseAlarms) console.log(`    FALSE POSITIVE: ${f}`);
    for (const w of s.wrongRule) console.log(`    under another rule: ${w}`);
    printCategories(s.categories);
  }
  return all;
}

/** The Claude Code hook input a labelled event stands for, inside `root` (files written first, as the tool did). */
function hookInput(c: LabelledEvent, root: string, home: string, i: number): Record<string, unknown> {
  const at = (p: string) =>
    p.startsWith(`${PROJECT}/`) ? join(root, 'cases', String(i), p.slice(PROJECT.length + 1)) : p;
  const base = {
    session_id: `bench-${i}`,
    transcript_path: join(home, 't.jsonl'),
    cwd: root,
    hook_event_name: c.event.event,
    tool_use_id: `toolu_bench_${i}`,
  };
  const input = c.event.toolInput ?? {};
  if (c.event.tool === 'Bash')
    return { ...base, tool_name: 'Bash', tool_input: { command: String(input.command).replaceAll(PROJECT, root) } };
  const f = c.event.files[0]!;
  const path = at(f.path);
  if (c.event.event === 'PreToolUse') {
    // A path the tool is about to write: anchored at the project root (or the home directory), as the case says.
    const named = f.path.startsWith(`${PROJECT}/`)
      ? join(root, f.path.slice(PROJECT.length + 1))
      : f.path.startsWith(`${homedir()}/`)
        ? join(home, f.path.slice(homedir().length + 1))
        : f.path;
    const key = c.event.tool === 'NotebookEdit' ? 'notebook_path' : 'file_path';
    return { ...base, tool_name: c.event.tool, tool_input: { [key]: named, content: 'x\n' } };
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, f.after ?? '');
  return {
    ...base,
    tool_name: 'Write',
    tool_input: { file_path: path, content: f.after },
    tool_response: {
      type: f.before == null ? 'create' : 'update',
      filePath: path,
      content: f.after,
      structuredPatch: [],
      originalFile: f.before ?? null,
      userModified: false,
    },
  };
}

/** The corpora whose cases avp's guard may refuse first (commands and paths that touch avp's own files). */
const GUARDED_CORPORA = new Set(['dangerous-commands', 'protected-files']);

/** Every case through `bin hook` with the validators (copied from `source`) in a throwaway project (two at a time). */
export async function throughBinary(
  labelled: Record<string, LabelledEvent[]>,
  bin: string,
  source = CATALOG,
): Promise<Map<string, Outcome[]>> {
  const work = mkdtempSync(join(tmpdir(), 'avp-bench-scores-'));
  const root = join(work, 'project');
  const home = join(work, 'home');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const v of Object.keys(labelled)) cpSync(join(source, v), join(root, '.avp/validators', v), { recursive: true });
  const jobs = Object.entries(labelled).flatMap(([v, cs]) => cs.map((c) => ({ v, c })));
  const out = new Map<string, Outcome[]>(Object.keys(labelled).map((v) => [v, []]));
  const byGuard = new Map<string, number>();
  const guarded = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const { v, c } = jobs[i]!;
      const p = Bun.spawn([bin, 'hook'], {
        cwd: root,
        stdin: new TextEncoder().encode(`${JSON.stringify(hookInput(c, root, home, i))}\n`),
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          AVP_HOME: join(home, '.avp'),
          CLAUDE_PROJECT_DIR: root,
        },
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [text, err, code] = await Promise.all([
        new Response(p.stdout).text(),
        new Response(p.stderr).text(),
        p.exited,
      ]);
      // A call that failed answers nothing: counted, it would pass every near miss and miss every positive.
      if (code !== 0) throw new Error(`${v} case ${c.id}: avp hook exited ${code}: ${err}`);
      const json = text.trim() ? JSON.parse(text) : {};
      // avp's own guard refuses a command or write that would delete its state or switch its hooks off (`rm -rf ~`,
      // `.claude/settings.json`) before any validator runs: on the command and path corpora that is the call refused,
      // counted as flagged as test/integration/catalog-corpus.test.ts counts it, and said apart below.
      const guard =
        GUARDED_CORPORA.has(v) &&
        String(json.hookSpecificOutput?.permissionDecisionReason ?? '').startsWith('avp refuses this');
      if (guard) {
        byGuard.set(v, (byGuard.get(v) ?? 0) + 1);
        guarded.add(i);
      }
      const flagged = guard || (json.violations ?? []).some((x: { validator?: string }) => x.validator === v);
      out.get(v)!.push({ c, flagged });
    }
  };
  await Promise.all([worker(), worker()]);
  // What each case's validator did, from the run log (one session per case): a validator error would count as a pass
  // on a near miss, so it stops the bench; a case its validator never judged (outside its match) is said below.
  const judged = new Set<string>();
  const failed: string[] = [];
  for (const run of runLines(root)) {
    const key = `${run.session}\0${validatorName(run)}`;
    if (run.status === 'passed' || run.status === 'failed') judged.add(key);
    else failed.push(`${key.replace('\0', ' ')}: ${run.status}`);
  }
  rmSync(work, { recursive: true, force: true });
  if (failed.length) throw new Error(`${failed.length} validator run(s) without a verdict: ${failed.slice(0, 5)}`);
  const unjudged = new Map<string, number>();
  for (const [i, { v }] of jobs.entries())
    if (!guarded.has(i) && !judged.has(`bench-${i}\0${v}`)) unjudged.set(v, (unjudged.get(v) ?? 0) + 1);
  for (const [v, os] of out) {
    const s = summarize(v, os);
    const wrong = os.filter((o) => o.flagged !== (o.c.expect === 'flag')).map((o) => o.c.id);
    console.log(
      `${pad(v, 20)} recall ${pad(pct(s.found, s.positives), 9)} FP ${s.falsePositives}/${s.negatives}` +
        (byGuard.get(v) ? `  (${byGuard.get(v)} refused by avp's guard before the validator ran)` : '') +
        (unjudged.get(v) ? `  (${unjudged.get(v)} outside the validator's match: not run)` : '') +
        (wrong.length ? `  differs on: ${wrong.slice(0, 8).join(', ')}` : ''),
    );
  }
  return out;
}
