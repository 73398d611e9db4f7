/**
 * `avp check --format sarif`: SARIF 2.1.0 for code scanning. One rule per validator that ran, one result per
 * violation the aggregated report shows (with its file and line), and each validator that could not be evaluated
 * as a tool execution notification (an error, so the run is not taken for a clean one).
 */
import type { CheckResult } from '../run.ts';
import {
  changedRules,
  eventLabel,
  RULES_CHANGED,
  problems,
  repoPath,
  severityLevel,
  violationFile,
  violationText,
  type FormatContext,
} from './findings.ts';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

interface Rule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  defaultConfiguration: { level: string };
  properties: { severity: string; validatorPath?: string };
}

/** The SARIF log of one check, as a JSON text. */
export function formatSarif(r: CheckResult, ctx: FormatContext): string {
  const rules: Rule[] = [];
  const ruleIndex = new Map<string, number>();
  for (const run of r.runs) {
    if (ruleIndex.has(run.id)) continue;
    ruleIndex.set(run.id, rules.length);
    const description = r.descriptions[run.id] || run.name;
    rules.push({
      id: run.id,
      name: run.name,
      shortDescription: { text: description.split('\n')[0]! },
      fullDescription: { text: description },
      defaultConfiguration: { level: severityLevel(run.severity) },
      properties: { severity: run.severity, validatorPath: repoPath(ctx, run.path) },
    });
  }
  const { failed, errored } = problems(r);
  const results: object[] = [];
  // The change edits avp's own rules: a warning on each such file, under a rule of avp's own (never a failure).
  const rulesFiles = changedRules(ctx, r);
  if (rulesFiles.length) {
    ruleIndex.set(RULES_CHANGED, rules.length);
    const text = "This change edits avp's own rules (config, validators, lockfile)";
    rules.push({
      id: RULES_CHANGED,
      name: 'rules-changed',
      shortDescription: { text },
      fullDescription: {
        text: `${text}. A check of a revision range runs on the rules of the change's base unless --rules head.`,
      },
      defaultConfiguration: { level: 'warning' },
      properties: { severity: 'warn' },
    });
    for (const path of rulesFiles) {
      results.push({
        ruleId: RULES_CHANGED,
        ruleIndex: ruleIndex.get(RULES_CHANGED)!,
        level: 'warning',
        message: { text: r.rules.notice! },
        locations: [{ physicalLocation: { artifactLocation: artifact(path) } }],
        properties: { rulesFrom: r.rules.from, ...(r.rules.revision ? { rulesRevision: r.rules.revision } : {}) },
      });
    }
  }
  for (const f of failed) {
    // A judge that failed without listing anything still counts as one finding (the report's rule).
    const violations = f.entry.violations.length ? f.entry.violations : [{ rule: f.run.id, message: f.entry.summary }];
    for (const v of violations) {
      const where = violationFile(ctx, f, v);
      results.push({
        ruleId: f.run.id,
        ruleIndex: ruleIndex.get(f.run.id)!,
        level: f.level,
        message: { text: violationText(v) || f.entry.summary || f.run.id },
        locations: [
          {
            physicalLocation: {
              artifactLocation: artifact(where.path),
              ...(where.line
                ? { region: { startLine: where.line, ...(v.snippet ? { snippet: { text: v.snippet } } : {}) } }
                : {}),
            },
          },
        ],
        properties: {
          rule: v.rule,
          event: eventLabel(f.event),
          ...(v.suggestion ? { suggestion: v.suggestion } : {}),
          ...(v.lineUnverified ? { lineUnverified: true } : {}),
        },
      });
    }
  }
  const notifications = errored.map((f) => ({
    level: 'error',
    message: { text: `${f.run.id} could not be evaluated: ${f.entry.error!.cause} (fix: ${f.entry.error!.fix})` },
    descriptor: { id: f.entry.error!.code ?? 'validator-error' },
    associatedRule: { id: f.run.id, index: ruleIndex.get(f.run.id)! },
    locations: [{ physicalLocation: { artifactLocation: artifact(repoPath(ctx, f.run.path)) } }],
  }));
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'avp',
            semanticVersion: ctx.version,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: errored.length === 0,
            toolExecutionNotifications: notifications,
            properties: { outcome: r.report.outcome, summary: r.report.summary, rules: r.rules },
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root' } } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * A file as a SARIF artifact location: a repository path as a URI reference under `%SRCROOT%` (each segment
 * percent-encoded: spaces, `#`, `%` in file names), a path outside the repository as a `file://` URI.
 */
function artifact(p: string): { uri: string; uriBaseId?: string } {
  const uri = p.split('/').map(encodeURIComponent).join('/');
  return p.startsWith('/') ? { uri: `file://${uri}` } : { uri, uriBaseId: '%SRCROOT%' };
}
