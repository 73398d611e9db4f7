/**
 * An edit seen after it was made, on an agent that cannot refuse there (Cursor's `afterFileEdit`): what it made is
 * read from disk (the event names only the file and its replacements); the PostToolUse validators that already judged
 * that very content at the edit's PreToolUse and let it through are not asked again; what still blocks is carried
 * (session/carried-findings.ts) to the next blocking point and the Stop, and a file that now passes is cleared.
 */
import type { Decision } from '../agents/types.ts';
import type { AvpConfig } from '../config/types.ts';
import { toolKindOf, type FileChange, type HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';
import { readCurrent } from '../file-changes/complete-files.ts';
import { applyEdits, toolEdits, type Edit } from '../file-changes/diff.ts';
import { runLevel } from '../runner/aggregate.ts';
import { updateCarried, type CarriedFinding } from '../session/carried-findings.ts';
import { contentDigest, judgedBefore, judgeKey, noteJudged } from '../session/judged-edits.ts';
import { ensureSessionDir, sessionDir } from '../session/store.ts';
import type { ValidatorRun } from '../runner/types.ts';

/** More replacements than this in one event: no `before` is rebuilt (the content after is still judged). */
const MAX_REVERSED_EDITS = 200;

const isFileTool = (event: HookEvent) => toolKindOf(event) === 'write' || toolKindOf(event) === 'edit';

/**
 * The content before the edits, undone from the content after: only where that is unambiguous (each new text occurs
 * exactly once, no `replace_all`, no deletion) and re-applying the edits gives the content after again.
 */
export function undoEdits(after: string, edits: Edit[]): string | undefined {
  if (!edits.length || edits.length > MAX_REVERSED_EDITS) return undefined;
  let text = after;
  for (const e of [...edits].reverse()) {
    if (e.replace_all || e.new_string === '') return undefined;
    const at = text.indexOf(e.new_string);
    if (at < 0 || text.indexOf(e.new_string, at + 1) >= 0) return undefined;
    text = text.slice(0, at) + e.old_string + text.slice(at + e.new_string.length);
  }
  return applyEdits(text, edits) === after ? text : undefined;
}

/** The change with what is on disk now as its result (and, where it can be undone exactly, what was there before). */
async function observedChange(event: HookEvent, change: FileChange): Promise<FileChange> {
  if (change.after !== undefined || change.patch !== undefined) return change;
  const now = readCurrent(change.path);
  if (now === undefined) return change;
  const next: FileChange = { ...change, after: now };
  if (now === null) next.kind = 'delete';
  else if (change.before === undefined) {
    const edits = event.tool === 'Write' ? undefined : toolEdits(event.tool, event.toolInput ?? {});
    const before = edits ? undoEdits(now, edits) : undefined;
    if (before !== undefined) next.before = before;
  }
  return next;
}

export interface Observed {
  event: HookEvent;
  /** Matched validators that already judged this content at the edit's PreToolUse and let it through. */
  judged: Validator[];
}

/** Prepares an observe-only PostToolUse of a file tool: its files' current contents, the validators already paid. */
export async function observeEdit(event: HookEvent, matched: Validator[]): Promise<Observed> {
  if (!isFileTool(event) || !event.files.length) return { event, judged: [] };
  const files = await Promise.all(event.files.map((f) => observedChange(event, f)));
  const observed = { ...event, files };
  if (files.some((f) => f.after === undefined || f.unavailable)) return { event: observed, judged: [] };
  const dir = sessionDir(event.projectRoot, event.sessionId!);
  const seen = files.map((f) => judgedBefore(dir, f.path, contentDigest(f.after!)));
  return { event: observed, judged: matched.filter((v) => seen.every((keys) => keys.has(judgeKey(v)))) };
}

/** The file of the event a violation is about (the only file, or the one it names; else the first). */
function fileOf(event: HookEvent, named: string | undefined): FileChange {
  const files = event.files;
  return (named && files.find((f) => f.relPath === named || f.path === named || f.namedPath === named)) || files[0]!;
}

/**
 * After an observe-only PostToolUse was judged: each of its files gets, per validator that judged it now (or at the
 * PreToolUse), the blocking result as carried findings, or none when it passed. Returns how many are carried now.
 */
export async function carryFindings(
  event: HookEvent,
  matched: Validator[],
  runs: ValidatorRun[],
  judged: Validator[],
  config: AvpConfig,
): Promise<number> {
  if (!event.files.length) return 0;
  const byId = new Map(matched.map((v) => [v.id, v]));
  const mine = runs.filter((r) => byId.has(r.id) && r.status !== 'skipped');
  const judges = new Set([...mine.map((r) => r.id), ...judged.map((v) => v.id)]);
  const ts = Date.now();
  const found: CarriedFinding[] = [];
  for (const r of mine) {
    if (runLevel(r, config) !== 'error') continue;
    const v = byId.get(r.id)!;
    const base = {
      validator: r.id,
      name: r.name,
      severity: r.severity,
      validatorPath: v.path,
      ...(event.agentEvent ? { via: event.agentEvent } : {}),
      ts,
    };
    const entry = (f: FileChange, rest: Pick<CarriedFinding, 'status' | 'summary' | 'violations' | 'error'>) =>
      found.push({ ...base, file: f.relPath, path: f.path, ...rest });
    if (r.status === 'error') {
      for (const f of event.files)
        entry(f, { status: 'error', summary: r.error?.cause ?? 'validator error', violations: [], error: r.error });
      continue;
    }
    const violations = r.verdict?.violations ?? [];
    const groups = new Map<FileChange, typeof violations>();
    for (const x of violations.length ? violations : [{ rule: r.name, message: r.verdict?.summary }]) {
      const f = fileOf(event, x.file);
      groups.set(f, [...(groups.get(f) ?? []), x]);
    }
    for (const [f, vs] of groups) entry(f, { status: 'failed', summary: r.verdict?.summary ?? '', violations: vs });
  }
  const paths = new Set(event.files.map((f) => f.path));
  const dir = ensureSessionDir(event.projectRoot, event.sessionId!);
  await updateCarried(dir, (entries) => {
    const kept = entries.filter((e) => !(paths.has(e.path) && judges.has(e.validator)));
    return kept.length === entries.length && !found.length ? entries : [...kept, ...found];
  });
  return found.length;
}

/**
 * After a file tool's PreToolUse was judged (with the PostToolUse validators, `alsoTrigger`) and let through: what
 * each file will hold and which PostToolUse validators passed it, so the after-event does not judge it again.
 */
export async function noteJudgedAtPre(event: HookEvent, matched: Validator[], runs: ValidatorRun[]): Promise<void> {
  const ran = new Set(runs.filter((r) => r.status === 'passed' || r.status === 'failed').map((r) => r.id));
  const keys = matched.filter((v) => v.spec.trigger === 'PostToolUse' && ran.has(v.id)).map(judgeKey);
  if (!keys.length) return;
  const dir = ensureSessionDir(event.projectRoot, event.sessionId!);
  for (const f of event.files)
    if ((typeof f.after === 'string' || f.after === null) && !f.unavailable)
      await noteJudged(dir, f.path, contentDigest(f.after), keys);
}

/**
 * The carried-findings bookkeeping of a judged call, best-effort like all session state: an observe-only after-event
 * (`judged` given) carries what blocks and clears what passes; a PreToolUse let through notes what it judged.
 */
export async function recordObserved(
  event: HookEvent,
  matched: Validator[],
  runs: ValidatorRun[],
  judged: Validator[] | undefined,
  config: AvpConfig,
  notes: string[],
): Promise<number> {
  try {
    if (judged) return await carryFindings(event, matched, runs, judged, config);
    await noteJudgedAtPre(event, matched, runs);
  } catch (e) {
    notes.push(`avp: could not record the carried findings: ${(e as Error).message}`);
  }
  return 0;
}

/** The user (and, where the event takes context, the model) learns where the findings will be raised. */
export function tellCarried(decision: Decision, event: HookEvent, count: number): void {
  const on = event.agentEvent ?? event.event;
  const note =
    `avp cannot refuse at ${on}: ${count === 1 ? 'this finding is' : `these ${count} findings are`} carried — ` +
    `the agent's next tool call is refused once with ${count === 1 ? 'it' : 'them'}, and its stop sends it back ` +
    'until the file is fixed.';
  decision.userMessage = [decision.userMessage, note].filter(Boolean).join('\n');
  if (decision.context !== undefined) decision.context = `${decision.context}\n${note}`;
}
