/**
 * `avp check --format junit`: JUnit XML (the Apache Ant schema, which GitLab, Jenkins, Azure DevOps and CircleCI
 * read). One test suite per checked event, one test case per validator run on it: a blocking violation is a
 * `<failure>` (all of the run's violations in its text), a validator that could not be evaluated an `<error>`, and a
 * warning passes with its findings in the suite's `<system-out>` — so "failures" in the report means what the exit
 * code means.
 */
import { hostname } from 'node:os';
import type { CheckResult } from '../run.ts';
import {
  changedRules,
  eventLabel,
  findings,
  RULES_CHANGED,
  violationFile,
  violationText,
  type Finding,
  type FormatContext,
} from './findings.ts';

/**
 * Text as XML character data: the five special characters escaped, and the characters XML 1.0 cannot carry at all
 * (control characters, lone surrogates, U+FFFE/FFFF) replaced, since a snippet of a binary-ish file may hold them.
 */
export function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** An attribute value: also line breaks and tabs as references, which attribute normalisation would flatten. */
export function attr(s: string): string {
  return xml(s).replaceAll('\n', '&#10;').replaceAll('\r', '&#13;').replaceAll('\t', '&#9;');
}

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function violationLines(ctx: FormatContext, f: Finding): string[] {
  const violations = f.entry.violations.length ? f.entry.violations : [{ rule: f.run.id, message: f.entry.summary }];
  return violations.map((v) => {
    const where = violationFile(ctx, f, v);
    return `${where.path}${where.line ? `:${where.line}` : ''}: ${violationText(v)}${v.snippet ? `\n    ${v.snippet}` : ''}`;
  });
}

function testcase(ctx: FormatContext, f: Finding, classname: string, warnings: string[]): string {
  const head = `    <testcase name="${attr(f.run.id)}" classname="${attr(classname)}" time="${seconds(f.run.durationMs)}"`;
  if (f.entry.error) {
    const e = f.entry.error;
    const body = `${e.cause}\nfix: ${e.fix}`;
    return `${head}>\n      <error type="${attr(e.code ?? 'validator-error')}" message="${attr(e.cause)}">${xml(body)}</error>\n    </testcase>`;
  }
  if (!f.entry.passed && f.level === 'error') {
    const body = violationLines(ctx, f).join('\n');
    return `${head}>\n      <failure type="${attr(f.entry.severity)}" message="${attr(f.entry.summary)}">${xml(body)}</failure>\n    </testcase>`;
  }
  if (!f.entry.passed) warnings.push(...violationLines(ctx, f).map((l) => `${f.level}: ${f.run.id}: ${l}`));
  return `${head}/>`;
}

interface Suite {
  name: string;
  id: number;
  /** Timezone-less UTC, seconds only: the Ant schema's timestamp pattern. */
  timestamp: string;
  host: string;
  counts: { tests: number; failures: number; errors: number; time: string };
  properties: Record<string, string>;
  cases: string[];
  out: string;
}

/** One `<testsuite>`: the Ant schema wants every attribute, the properties, then system-out and system-err. */
function testsuite(s: Suite): string {
  const { tests, failures, errors, time } = s.counts;
  return [
    `  <testsuite name="${attr(s.name)}" package="avp" id="${s.id}" timestamp="${s.timestamp}" hostname="${attr(s.host)}"` +
      ` tests="${tests}" failures="${failures}" errors="${errors}" time="${time}">`,
    `    <properties>`,
    ...Object.entries(s.properties).map(([name, value]) => `      <property name="${name}" value="${attr(value)}"/>`),
    `    </properties>`,
    ...s.cases,
    `    <system-out>${xml(s.out)}</system-out>`,
    `    <system-err></system-err>`,
    `  </testsuite>`,
  ].join('\n');
}

/** The JUnit XML of one check. */
export function formatJunit(r: CheckResult, ctx: FormatContext): string {
  const all = findings(r);
  const timestamp = new Date().toISOString().slice(0, 19);
  const host = hostname() || 'localhost';
  const suites = r.events.map((event, id) => {
    const mine = all.filter((f) => f.event === event);
    const classname = `avp.${event.event}${event.tool ? `.${event.tool}` : ''}`;
    const warnings: string[] = [];
    const cases = mine.map((f) => testcase(ctx, f, classname, warnings));
    const counts = {
      tests: mine.length,
      failures: mine.filter((f) => !f.entry.error && !f.entry.passed && f.level === 'error').length,
      errors: mine.filter((f) => f.entry.error).length,
      time: seconds(mine.reduce((t, f) => t + f.run.durationMs, 0)),
    };
    const properties = { event: event.event, files: event.files.join('\n') };
    return testsuite({
      name: eventLabel(event),
      id,
      timestamp,
      host,
      counts,
      properties,
      cases,
      out: warnings.join('\n'),
    });
  });
  const rules = rulesSuite(r, ctx, suites.length, timestamp, host);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...suites, ...rules, '</testsuites>', ''].join(
    '\n',
  );
}

/** The notice that the change edits avp's rules: a passing test (it never fails a check), the notice in its output. */
function rulesSuite(r: CheckResult, ctx: FormatContext, id: number, timestamp: string, host: string): string[] {
  const files = changedRules(ctx, r);
  if (!files.length) return [];
  return [
    testsuite({
      name: 'avp rules',
      id,
      timestamp,
      host,
      counts: { tests: 1, failures: 0, errors: 0, time: '0.000' },
      properties: { rules: r.rules.from, files: files.join('\n') },
      cases: [`    <testcase name="${attr(RULES_CHANGED)}" classname="avp.rules" time="0.000"/>`],
      out: `warning: ${r.rules.notice}`,
    }),
  ];
}
