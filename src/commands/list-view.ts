/** What `avp list` shows: a JSON view of a Discovery and its plain-text table. Pure (no I/O). */
import type { Origin } from '../registry-client/origins.ts';
import type { Discovery, Validator } from '../validator/types.ts';

/** What `avp list` knows besides the Discovery: where each validator came from and which config turns off. */
export interface ListContext {
  /** By validator id; a validator missing here is `local`. */
  origins?: Map<string, Origin>;
  /** True when config (`disabledValidators`, or the kill switch) keeps this validator from running. */
  disabled?: (v: Validator) => boolean;
}

/** One row of `avp list --json`. */
export interface ListedValidator {
  id: string;
  name: string;
  rule?: string;
  /** The lockfile's version, else the frontmatter's `metadata.version`. */
  version?: string;
  /** Where it is installed: the project or the user folder (precedence project > user). */
  scope: Validator['source'];
  /** Where it came from: a lockfile entry's source, or `local` (hand-written, in no lockfile). */
  source: Origin['source'];
  resolved?: string;
  registry?: string;
  /** The registry the catalog copy stood in for (it could not serve the name at install time). */
  fallbackFrom?: string;
  disabled: boolean;
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
  judge: 'script' | 'llm' | 'tool';
  /** A RuleSet rule's own match, narrowing the RuleSet's (`tools`/`files` above). */
  ruleMatch?: { tools?: string[]; files?: string[] };
  /** Why it never runs (a reference tool rule). */
  notRun?: string;
  /** The rules this tool rule replaces while its tool is healthy (never in avp, which runs no tools). */
  supersedes?: string[];
}

/** The `--json` document of `avp list`. */
export function listJson(d: Discovery, ctx: ListContext = {}) {
  const validators: ListedValidator[] = d.validators.map((v) => {
    const o: Origin = ctx.origins?.get(v.id) ?? { source: 'local' };
    return {
      id: v.id,
      name: v.name,
      ...(v.rule ? { rule: v.rule } : {}),
      ...(o.version ? { version: o.version } : {}),
      scope: v.source,
      source: o.source,
      ...(o.resolved ? { resolved: o.resolved } : {}),
      ...(o.registry ? { registry: o.registry } : {}),
      ...(o.fallbackFrom ? { fallbackFrom: o.fallbackFrom } : {}),
      disabled: ctx.disabled?.(v) ?? false,
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
      judge: v.notRun ? 'tool' : v.spec.script ? 'script' : 'llm',
      ...(v.spec.ruleMatch ? { ruleMatch: v.spec.ruleMatch } : {}),
      ...(v.notRun ? { notRun: v.notRun } : {}),
      ...(v.supersedes ? { supersedes: v.supersedes } : {}),
    };
  });
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
  if (v.ruleMatch?.tools) parts.push(`rule-tools=${v.ruleMatch.tools.join(',')}`);
  if (v.ruleMatch?.files) parts.push(`rule-files=${v.ruleMatch.files.join(',')}`);
  if (v.triggerMatcher !== undefined) parts.push(`when=${v.triggerMatcher}`);
  if (v.once) parts.push('once');
  return parts.join(' ') || '*';
}

/** The human table of `avp list`: validators, then what is shadowed, then load errors. */
export function listText(d: Discovery, ctx: ListContext = {}): string {
  const j = listJson(d, ctx);
  const out: string[] = [];
  if (j.validators.length) {
    out.push(
      table(
        ['NAME', 'VERSION', 'SCOPE', 'SOURCE', 'STATUS', 'TRIGGER', 'SEVERITY', 'JUDGE', 'MATCH'],
        j.validators.map((v) => [
          v.id,
          v.version ?? '-',
          v.scope,
          v.fallbackFrom ? `${v.source} (fallback)` : v.source,
          v.disabled ? 'disabled' : v.notRun ? 'not run' : 'on',
          v.trigger,
          v.severity,
          v.judge,
          matchers(v),
        ]),
      ),
    );
  }
  const tools = j.validators.filter((v) => v.notRun);
  if (tools.length) {
    out.push(
      '',
      `Not run: ${tools.length} tool rule${tools.length === 1 ? '' : 's'} (a program instead of a prompt; avp runs no ` +
        'tool programs, so the prompt rules they supersede run instead, as the reference does when a tool is missing)',
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
