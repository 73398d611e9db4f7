import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import { readText } from '../session/content.ts';
import { errorMessage, isAvpError } from '../errors.ts';
import type { FileChange, HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';
import type { Violation } from '../judges/types.ts';
import { CODE_REVIEW_PROMPT, SECURITY_REVIEW_PROMPT } from './review-prompts.ts';
import type { CodeReviewCheck, CodeSeverity, SecurityReviewCheck, SecuritySeverity } from './types.ts';

const RANK: SecuritySeverity[] = ['none', 'low', 'medium', 'high', 'critical'];

export interface ReviewContext {
  wd: string;
  files: string[];
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  note: (text: string) => void;
}

/** The synthetic validator a review runs as: ids `phase-code-review` / `phase-security-review` (routable in config). */
export function reviewValidator(kind: 'code' | 'security', wd: string): Validator {
  const name = `phase-${kind}-review`;
  const body = kind === 'code' ? CODE_REVIEW_PROMPT : SECURITY_REVIEW_PROMPT;
  return {
    id: name,
    name,
    source: 'project',
    form: 'file',
    path: join(wd, '.avp', 'phase', `${name}.md`),
    spec: {
      name,
      description:
        kind === 'code'
          ? 'Phase validation: code review of the changed files'
          : 'Phase validation: security review of the changed files',
      severity: 'error',
      trigger: 'Stop',
      match: {},
      tags: ['phase'],
      once: false,
      timeout: 300,
    },
    body,
    references: [],
    hash: createHash('sha256').update(body).digest('hex'),
  };
}

function git(args: string[], cwd: string): Promise<{ ok: boolean; out: string }> {
  return new Promise((done) => {
    execFile(
      'git',
      args,
      { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
      (err, stdout) => done({ ok: !err, out: String(stdout) }),
    );
  });
}

/**
 * The changed files as a Stop event carries them: diff against HEAD when the project is a git repository with a
 * HEAD (`git diff --relative` so paths stay relative to working_directory), the content otherwise. The content is read
 * as hook events read it (`readText`): a binary file, or one over 512 KiB, is reviewed through its diff only.
 */
export async function changedFiles(wd: string, files: string[]): Promise<FileChange[]> {
  const inGit = (await git(['rev-parse', '--verify', '--quiet', 'HEAD'], wd)).ok;
  const out: FileChange[] = [];
  for (const f of [...new Set(files)]) {
    const abs = isAbsolute(f) ? f : resolve(wd, f);
    const r = relative(wd, abs);
    const inProject = !r.startsWith('..') && !isAbsolute(r);
    const relPath = inProject ? r.split('\\').join('/') : abs;
    const after = readText(abs);
    const change: FileChange = { path: abs, relPath, inProject, kind: after === null ? 'delete' : 'update' };
    if (after !== undefined) change.after = after;
    if (inGit && inProject) {
      const show = await git(['show', `HEAD:./${relPath}`], wd);
      change.before = show.ok ? show.out : null;
      if (!show.ok) change.kind = after === null ? 'delete' : 'create';
      const diff = await git(['diff', '--no-color', '--no-ext-diff', '--relative', 'HEAD', '--', relPath], wd);
      if (diff.ok && diff.out.trim()) change.diff = diff.out.replace(/^diff --git[^\n]*\n(index [^\n]*\n)?/, '');
    } else if (after !== null) {
      change.kind = 'create';
      change.before = null;
    }
    out.push(change);
  }
  return out;
}

function maxSeverity(violations: Violation[]): SecuritySeverity {
  let best = 0;
  // A judge that fails the review without grading it gets "medium": serious enough to look at, not an alarm.
  for (const v of violations) best = Math.max(best, RANK.indexOf(v.severity ?? 'medium'));
  return RANK[best]!;
}

/** "SQL Injection in src/database.ts:156 - message (fix: …)", the seed's example form. */
function describe(v: Violation, validatorName: string): string {
  const where = v.file ? `${v.file}${v.line ? `:${v.line}` : ''}` : '';
  // The verdict parser names a rule-less violation after the validator: that says nothing here.
  const rule = v.rule && v.rule !== validatorName ? v.rule : '';
  if (!rule && !where && v.message) return v.message + (v.suggestion ? ` (fix: ${v.suggestion})` : '');
  let s = rule || 'finding';
  if (where) s += ` in ${where}`;
  if (v.message) s += ` - ${v.message}`;
  else if (v.snippet) s += ` - \`${v.snippet.trim().slice(0, 120)}\``;
  if (v.suggestion) s += ` (fix: ${v.suggestion})`;
  if (v.lineUnverified) s += ' [line not in the change]';
  return s;
}

type Outcome = { status: 'pass' | 'fail'; items: string[]; severity: SecuritySeverity };

async function review(
  kind: 'code' | 'security',
  ctx: ReviewContext,
  config: Promise<AvpConfig>,
  event: Promise<HookEvent>,
): Promise<Outcome> {
  const validator = reviewValidator(kind, ctx.wd);
  const label = `${kind} review`;
  try {
    const { judgeFor } = await import('../judges/select.ts');
    const judge = await judgeFor(validator, await config, ctx.env);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`${label} timed out after ${Math.round(ctx.timeoutMs / 1000)} s`)),
      ctx.timeoutMs,
    );
    try {
      const { verdict } = await judge.evaluate({
        validator,
        event: await event,
        signal: controller.signal,
        timeoutMs: ctx.timeoutMs,
      });
      if (verdict.passed && verdict.violations.length === 0) return { status: 'pass', items: [], severity: 'none' };
      const items = verdict.violations.length
        ? verdict.violations.map((v) => describe(v, validator.name))
        : [verdict.summary || `${label} failed without details`];
      // A failed verdict without violations still failed: graded like an ungraded violation.
      return {
        status: 'fail',
        items,
        severity: verdict.violations.length ? maxSeverity(verdict.violations) : 'medium',
      };
    } finally {
      clearTimeout(timer);
    }
  } catch (e) {
    const text = isAvpError(e) ? `${e.message}${e.fix ? ` (fix: ${e.fix})` : ''}` : errorMessage(e);
    const msg = `${label} could not run: ${text}`;
    ctx.note(msg);
    return { status: 'fail', items: [msg], severity: 'none' };
  }
}

/**
 * Runs the code review and the security review concurrently through the configured judge (`judgeFor`, as hook mode
 * does). No changed file → nothing to review → both pass without asking a judge.
 */
export async function runReviews(
  ctx: ReviewContext,
): Promise<{ code: CodeReviewCheck; security: SecurityReviewCheck }> {
  const start = performance.now();
  const ms = () => Math.max(0, Math.round(performance.now() - start));
  if (ctx.files.length === 0) {
    return {
      code: { status: 'pass', findings: [], severity: 'none', execution_time_ms: 0 },
      security: { status: 'pass', vulnerabilities: [], severity: 'none', execution_time_ms: 0 },
    };
  }
  const config = import('../config/config.ts').then(({ loadConfig }) =>
    loadConfig({ cwd: ctx.wd, projectRoot: ctx.wd, env: ctx.env }),
  );
  const event: Promise<HookEvent> = changedFiles(ctx.wd, ctx.files).then((files) => ({
    agent: 'claude',
    event: 'Stop',
    cwd: ctx.wd,
    projectRoot: ctx.wd,
    files,
    raw: { hook_event_name: 'Stop', avp_phase: true },
  }));
  // Swallow rejections here; each review reports them through its own catch.
  config.catch(() => {});
  event.catch(() => {});
  const timed = async (kind: 'code' | 'security') => {
    const r = await review(kind, ctx, config, event);
    return { ...r, ms: ms() };
  };
  const [c, s] = await Promise.all([timed('code'), timed('security')]);
  const codeSeverity: CodeSeverity = c.severity === 'critical' ? 'high' : c.severity;
  return {
    code: { status: c.status, findings: c.items, severity: codeSeverity, execution_time_ms: c.ms },
    security: { status: s.status, vulnerabilities: s.items, severity: s.severity, execution_time_ms: s.ms },
  };
}
