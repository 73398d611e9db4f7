/**
 * The check result flattened for the CI formats: one entry per validator run on an event, with the aggregated
 * report's view of it (what the agent would have been shown) next to the run (its path and duration). Every format
 * reads this, so SARIF, GitHub annotations and JUnit always say the same thing as the text and JSON reports.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { Report, ValidatorRun } from '../../runner/types.ts';
import type { Violation } from '../../judges/types.ts';
import type { CheckedEvent, CheckResult } from '../run.ts';

export type Level = 'error' | 'warning' | 'note';

export interface Finding {
  event: CheckedEvent;
  run: ValidatorRun;
  entry: Report['validators'][number];
  /** How this run counts: a failing `error` validator or any validator error blocks, a failing `warn` warns. */
  level: Level;
}

/** Where the formats are written from: paths in them are relative to `base` (the repository top when in git). */
export interface FormatContext {
  projectRoot: string;
  /** The project root relative to the git repository top ('' when they are the same or outside git). */
  repoPrefix: string;
  /** The avp version, for tool metadata. */
  version: string;
}

const LEVEL: Record<string, Level> = { error: 'error', warn: 'warning', info: 'note' };

/** The report's level of a validator's severity. */
export function severityLevel(severity: string): Level {
  return LEVEL[severity] ?? 'error';
}

/** Every run of every event, in the order they ran, paired with its aggregated report entry. */
export function findings(r: CheckResult): Finding[] {
  const out: Finding[] = [];
  let k = 0;
  for (const event of r.events) {
    event.report.validators.forEach((entry, i) => {
      const run = r.runs[k + i]!;
      // A validator error is reported once however many events it concerns (the aggregated report's rule).
      const level: Level = run.error ? 'error' : severityLevel(entry.severity);
      out.push({ event, run, entry, level });
    });
    k += event.validators.length;
  }
  return out;
}

/** Failing runs (violations shown by the report) and erroring runs, each validator error once. */
export function problems(r: CheckResult): { failed: Finding[]; errored: Finding[] } {
  const failed: Finding[] = [];
  const errored: Finding[] = [];
  const seen = new Set<string>();
  for (const f of findings(r)) {
    if (f.entry.error) {
      const key = `${f.run.id}\0${f.entry.error.cause}`;
      if (!seen.has(key)) errored.push(f);
      seen.add(key);
    } else if (!f.entry.passed) failed.push(f);
  }
  return { failed, errored };
}

/** A path as the CI system knows it: relative to the repository top, with forward slashes. */
export function repoPath(ctx: FormatContext, p: string): string {
  let rel = isAbsolute(p) ? relative(ctx.projectRoot, p) : p;
  if (isAbsolute(rel) || rel.startsWith('..')) return p.split(sep).join('/');
  if (ctx.repoPrefix) rel = `${ctx.repoPrefix}/${rel}`;
  return rel.split(sep).join('/');
}

/**
 * The file a violation is about: the one it names, else the event's only file, else the validator's own file (a CI
 * system places every result somewhere; code scanning rejects results without a location).
 */
export function violationFile(ctx: FormatContext, f: Finding, v: Violation): { path: string; line?: number } {
  const line = typeof v.line === 'number' && Number.isInteger(v.line) && v.line >= 1 ? v.line : undefined;
  if (v.file) return { path: repoPath(ctx, v.file), ...(line ? { line } : {}) };
  if (f.event.files.length === 1) return { path: repoPath(ctx, f.event.files[0]!), ...(line ? { line } : {}) };
  return { path: repoPath(ctx, f.run.path) };
}

/** The one-line text of a violation: what is wrong, then the fix when the judge gave one. */
export function violationText(v: Violation): string {
  const what = v.message ?? v.rule;
  return `${what}${v.suggestion ? ` — fix: ${v.suggestion}` : ''}`;
}

/** Where an event happened, for people ("Edit app.ts", "Stop"). */
export function eventLabel(e: CheckedEvent): string {
  return e.event === 'Stop' ? 'Stop' : `${e.tool ?? e.event} ${e.files[0] ?? ''}`.trim();
}

/** The rule id of the notice that a change edits avp's own rules (no validator name can hold a colon). */
export const RULES_CHANGED = 'avp:rules-changed';

/**
 * The control files the change edits, as repository paths (where the rules notice is placed), the ones the head
 * still has first: an annotation on a deleted file has no line of the diff to sit on.
 */
export function changedRules(ctx: FormatContext, r: CheckResult): string[] {
  if (!r.rules.notice) return [];
  const deleted = new Set(r.files.filter((f) => f.kind === 'delete').map((f) => f.relPath));
  const kept = r.rules.changed.filter((p) => !deleted.has(p));
  return [...kept, ...r.rules.changed.filter((p) => deleted.has(p))].map((p) => repoPath(ctx, p));
}
