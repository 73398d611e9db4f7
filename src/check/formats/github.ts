/**
 * `avp check --format github`: GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`), one per
 * violation the aggregated report shows and one per validator that could not be evaluated, then the outcome line.
 * Every value is escaped the way the runner unescapes it, so a judge's or a file's text (a snippet holding
 * `\n::add-mask::…`) can never start a workflow command of its own.
 */
import type { CheckResult } from '../run.ts';
import {
  changedRules,
  eventLabel,
  problems,
  repoPath,
  violationFile,
  violationText,
  type FormatContext,
} from './findings.ts';

/** Message data: `%`, CR and LF are the runner's escapes. */
function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Property values: also `:` and `,`, which end a value. */
function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function command(kind: string, props: Record<string, string | number | undefined>, message: string): string {
  const list = Object.entries(props)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${kind}${list ? ` ${list}` : ''}::${escapeData(message)}`;
}

/** The annotations of one check, one workflow command a line. */
export function formatGithub(r: CheckResult, ctx: FormatContext): string {
  const lines: string[] = [];
  const { failed, errored } = problems(r);
  // One annotation (the runner shows ten warnings per step), first, on the first rules file the change edits.
  const rules = changedRules(ctx, r);
  if (rules.length) lines.push(command('warning', { file: rules[0], title: 'avp rules changed' }, r.rules.notice!));
  for (const f of failed) {
    const kind = f.level === 'error' ? 'error' : f.level === 'warning' ? 'warning' : 'notice';
    const violations = f.entry.violations.length ? f.entry.violations : [{ rule: f.run.id, message: f.entry.summary }];
    for (const v of violations) {
      const where = violationFile(ctx, f, v);
      lines.push(
        command(
          kind,
          { file: where.path, line: where.line, title: `avp ${f.run.id} (${f.entry.severity})` },
          `${violationText(v)}${v.snippet ? `\n    ${v.snippet}` : ''}\n(${eventLabel(f.event)})`,
        ),
      );
    }
  }
  for (const f of errored) {
    const e = f.entry.error!;
    lines.push(
      command(
        'error',
        { file: repoPath(ctx, f.run.path), title: `avp ${f.run.id} could not be evaluated` },
        `${e.cause}\nfix: ${e.fix}`,
      ),
    );
  }
  // The outcome as a plain log line (not a command): the job's status comes from the exit code.
  lines.push(`avp check: ${r.report.outcome}: ${escapeData(r.report.summary)}`);
  return `${lines.join('\n')}\n`;
}
