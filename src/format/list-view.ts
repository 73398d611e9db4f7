/** What `avp list` shows: a JSON view of a Discovery and its plain-text table. Pure (no I/O). */
import type { Discovery, Validator } from './types.ts';

/** One row of `avp list --json`. */
export interface ListedValidator {
  id: string;
  name: string;
  rule?: string;
  source: Validator['source'];
  form: Validator['form'];
  path: string;
  description: string;
  trigger: string;
  severity: string;
  tools?: string[];
  files?: string[];
  triggerMatcher?: string;
  once: boolean;
  timeout: number;
  tags: string[];
  judge: 'script' | 'llm';
}

/** The `--json` document of `avp list`. */
export function listJson(d: Discovery) {
  const validators: ListedValidator[] = d.validators.map((v) => ({
    id: v.id,
    name: v.name,
    ...(v.rule ? { rule: v.rule } : {}),
    source: v.source,
    form: v.form,
    path: v.path,
    description: v.spec.description,
    trigger: v.spec.trigger,
    severity: v.spec.severity,
    ...(v.spec.match.tools ? { tools: v.spec.match.tools } : {}),
    ...(v.spec.match.files ? { files: v.spec.match.files } : {}),
    ...(v.spec.triggerMatcher !== undefined ? { triggerMatcher: v.spec.triggerMatcher } : {}),
    once: v.spec.once,
    timeout: v.spec.timeout,
    tags: v.spec.tags,
    judge: v.spec.script ? 'script' : 'llm',
  }));
  return { validators, errors: d.errors, warnings: d.warnings, shadowed: d.shadowed };
}

/** A left-aligned text table (no colours: stdout may be a file or a pipe). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** Matchers in one cell: `tools=Write|Edit files=*.ts when=startup once`. */
function matchers(v: ListedValidator): string {
  const parts: string[] = [];
  if (v.tools) parts.push(`tools=${v.tools.join(',')}`);
  if (v.files) parts.push(`files=${v.files.join(',')}`);
  if (v.triggerMatcher !== undefined) parts.push(`when=${v.triggerMatcher}`);
  if (v.once) parts.push('once');
  return parts.join(' ') || '*';
}

/** The human table of `avp list`: validators, then what is shadowed, then load errors. */
export function listText(d: Discovery): string {
  const j = listJson(d);
  const out: string[] = [];
  if (j.validators.length) {
    out.push(
      table(
        ['NAME', 'SOURCE', 'TRIGGER', 'SEVERITY', 'JUDGE', 'MATCH'],
        j.validators.map((v) => [v.id, v.source, v.trigger, v.severity, v.judge, matchers(v)]),
      ),
    );
  }
  if (j.shadowed.length) {
    out.push('', 'Shadowed (the project validator wins):');
    for (const s of j.shadowed) out.push(`  ${s.name}: ${s.shadowed} is shadowed by ${s.winner}`);
  }
  if (j.errors.length) {
    out.push('', `Load errors (${j.errors.length}; these validators block the events they concern until fixed):`);
    for (const e of j.errors)
      out.push(`  ${e.path}:${e.line ?? 1}:${e.column ?? 1}: ${e.message}${e.fix ? ` (fix: ${e.fix})` : ''}`);
  }
  return out.join('\n');
}
