/**
 * `avp check`'s reports: the human text, the aggregated report as JSON, and the CI formats (SARIF, GitHub
 * annotations, JUnit XML, under `formats/`). `--format` takes one of them for stdout and any others as
 * `NAME=FILE`, so one run (one set of judge calls) feeds the log, code scanning and the test report at once.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AvpError } from '../errors.ts';
import type { FormatContext } from './formats/findings.ts';
import type { CheckResult } from './run.ts';
import { writeFileAtomic } from '../os/atomic-write.ts';

export const FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;
export type FormatName = (typeof FORMATS)[number];

/** One requested output: a format and where it goes (`undefined` = stdout). */
export interface FormatTarget {
  format: FormatName;
  file?: string;
}

/**
 * Parses `--format` (`sarif`, `github,sarif=avp.sarif`, `junit=out/junit.xml`): at most one format on stdout, each
 * file once. `json` is what `--json` asks for; giving both is fine when they agree.
 */
export function parseFormats(spec: string | undefined, json: boolean, cwd: string): FormatTarget[] {
  const targets: FormatTarget[] = [];
  for (const part of (spec ?? '').split(',').map((x) => x.trim())) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const file = eq < 0 ? undefined : part.slice(eq + 1).trim();
    if (!(FORMATS as readonly string[]).includes(name)) {
      throw new AvpError('usage', `--format ${name} is not a format of avp check`, {
        fix: `use one of ${FORMATS.join(', ')}, optionally as NAME=FILE (e.g. --format github,sarif=avp.sarif)`,
      });
    }
    if (file === '') {
      throw new AvpError('usage', `--format ${name}= names no file`, { fix: `write --format ${name}=PATH` });
    }
    targets.push({ format: name as FormatName, ...(file ? { file: resolve(cwd, file) } : {}) });
  }
  const onStdout = targets.filter((t) => !t.file);
  if (json && !onStdout.some((t) => t.format === 'json')) {
    if (onStdout.length) {
      throw new AvpError('usage', `--json and --format ${onStdout[0]!.format} both ask for stdout`, {
        fix: 'keep one of them, or send the other to a file: --format NAME=FILE',
      });
    }
    targets.push({ format: 'json' });
  }
  if (targets.filter((t) => !t.file).length > 1) {
    throw new AvpError('usage', 'more than one --format writes to stdout', {
      fix: 'give all but one of them a file: --format github,sarif=avp.sarif',
    });
  }
  const files = targets.filter((t) => t.file).map((t) => t.file!);
  const twice = files.find((f, i) => files.indexOf(f) !== i);
  if (twice) throw new AvpError('usage', `--format writes ${twice} twice`, { fix: 'give each format its own file' });
  if (!targets.some((t) => !t.file)) targets.push({ format: 'text' });
  return targets;
}

/** Where paths in the CI formats start: the project root's place in its git repository (CI knows repo paths). */
export function formatContext(projectRoot: string, version: string): FormatContext {
  let repoPrefix = '';
  try {
    const p = Bun.spawnSync(['git', 'rev-parse', '--show-prefix'], {
      cwd: projectRoot,
      stdout: 'pipe',
      stderr: 'ignore',
    });
    if (p.exitCode === 0) repoPrefix = p.stdout.toString().trim().replace(/\/$/, '');
  } catch {
    /* no git: paths stay relative to the project root */
  }
  return { projectRoot, repoPrefix, version };
}

/** The report in one format. CI formats are loaded only when asked for. */
export async function renderCheck(r: CheckResult, format: FormatName, ctx: FormatContext): Promise<string> {
  switch (format) {
    case 'text':
      // With the kill switch on nothing ran: stderr says so, stdout stays empty.
      return r.disabled ? '' : formatCheck(r);
    case 'json': {
      const { report, events, files, usage, disabled, rules } = r;
      const out = {
        ...report,
        ...(disabled ? { disabled } : {}),
        rules,
        events,
        files: files.map((f) => ({ path: f.relPath, kind: f.kind })),
      };
      return `${JSON.stringify(usage ? { ...out, usage } : out, null, 2)}\n`;
    }
    case 'sarif':
      return (await import('./formats/sarif.ts')).formatSarif(r, ctx);
    case 'github':
      return (await import('./formats/github.ts')).formatGithub(r, ctx);
    case 'junit':
      return (await import('./formats/junit.ts')).formatJunit(r, ctx);
  }
}

/** Writes a report file whole or not at all (a CI step reading it never sees half a file). */
export function writeReportFile(path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, text);
  } catch (e) {
    throw new AvpError('check-output', `could not write ${path}: ${(e as Error).message}`, {
      fix: 'check that the folder is writable, or pick another path for --format NAME=FILE',
      file: path,
    });
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The human report. */
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
  if (r.rules.notice) lines.push(`! ${r.rules.notice}`);
  // A validator that cannot be evaluated fails the same way on every file: its fix is said once, then referred to.
  const saidFixes = new Map<string, string>();
  for (const e of r.events) {
    for (const v of e.report.validators) {
      if (v.passed && !v.error) continue;
      const mark = v.severity === 'error' ? '✗' : v.severity === 'warn' ? '!' : 'i';
      const where = e.event === 'Stop' ? 'Stop' : `${e.tool} ${e.files[0]}`;
      if (v.error) {
        const first = saidFixes.get(v.error.fix);
        lines.push(
          `${mark} ${v.name} (${v.severity}) could not be evaluated on ${where}: ` +
            (first ? `the same cause as ${first} above` : v.error.cause),
        );
        if (!first) {
          lines.push(`    fix: ${v.error.fix}`);
          saidFixes.set(v.error.fix, `${v.name} on ${where}`);
        }
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
