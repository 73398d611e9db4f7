/** The human report of `avp check` (stdout: the report is the command's data; `--json` prints seed 001's JSON). */
import type { CheckResult } from './run.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function formatCheck(r: CheckResult): string {
  const lines: string[] = [];
  const kinds = { create: 0, update: 0, delete: 0 };
  for (const f of r.files) kinds[f.kind]++;
  const parts = [
    kinds.create && `${kinds.create} created`,
    kinds.update && `${kinds.update} changed`,
    kinds.delete && `${kinds.delete} deleted`,
  ].filter(Boolean);
  lines.push(
    `avp check: ${plural(r.files.length, 'file')}${parts.length ? ` (${parts.join(', ')})` : ''}, ${plural(r.runs.length, 'validator run')}`,
  );
  for (const e of r.events) {
    for (const v of e.report.validators) {
      if (v.passed && !v.error) continue;
      const mark = v.severity === 'error' ? '✗' : v.severity === 'warn' ? '!' : 'i';
      const where = e.event === 'Stop' ? 'Stop' : `${e.tool} ${e.files[0]}`;
      if (v.error) {
        lines.push(`${mark} ${v.name} (${v.severity}) could not be evaluated on ${where}: ${v.error.cause}`);
        lines.push(`    fix: ${v.error.fix}`);
        continue;
      }
      lines.push(`${mark} ${v.name} (${v.severity}) on ${where}: ${v.summary}`);
      for (const x of v.violations) {
        const loc = x.file ? `${x.file}${x.line ? `:${x.line}` : ''}: ` : '';
        lines.push(`    ${loc}${x.message ?? x.rule}${x.suggestion ? ` — fix: ${x.suggestion}` : ''}`);
      }
    }
  }
  if (r.usage) lines.push(`tokens: ${r.usage.inputTokens} in, ${r.usage.outputTokens} out`);
  lines.push(`${r.report.outcome}: ${r.report.summary}`);
  return `${lines.join('\n')}\n`;
}
