/**
 * The two reviews of `avp phase`: run by the configured judge over the changed files (git diff against HEAD, or the
 * content when there is no repository), mapped to findings / vulnerabilities with severities, alongside build and
 * tests. Example 3 is re-enacted with a loopback OpenAI-compatible server as the LLM.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandJudge, example, gitCommitAll, phase, project, statuses } from '../fixtures/phase/harness.ts';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.ts';
import { tempDir } from '../support/run-avp.ts';

const T = 120_000;

const SAFE_DB = `export interface Db {
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
}

/** Users with this name. */
export async function findUser(db: Db, name: string): Promise<unknown[]> {
  return db.query("SELECT * FROM users WHERE name = ?", [name]);
}
`;
const VULNERABLE_DB = SAFE_DB.replace(
  'return db.query("SELECT * FROM users WHERE name = ?", [name]);',
  'return db.query("SELECT * FROM users WHERE name = \'" + name + "\'");',
);
const VULNERABLE_LINE = 7;

const servers: OpenAIServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** The text of a chat request (system + user messages). */
const promptOf = (body: any): string =>
  (body.messages ?? [])
    .map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

describe('phase reviews', () => {
  test(
    'Example 3: a planted SQL injection, reviewed by an LLM judge over the git diff → critical, status fail',
    async () => {
      const dir = project('ts-app');
      writeFileSync(join(dir, 'src/database.ts'), SAFE_DB);
      gitCommitAll(dir);
      writeFileSync(join(dir, 'src/database.ts'), VULNERABLE_DB);
      const server = await startOpenAIServer(({ body }) => {
        const prompt = promptOf(body);
        const diffLine = `+  return db.query("SELECT * FROM users WHERE name = '" + name + "'");`;
        if (prompt.includes('phase-security-review') && prompt.includes(diffLine)) {
          return {
            text: JSON.stringify({
              passed: false,
              violations: [
                {
                  rule: 'SQL Injection',
                  file: 'src/database.ts',
                  line: VULNERABLE_LINE,
                  severity: 'critical',
                  message: 'User input directly concatenated into SQL query without parameterization',
                  snippet: 'db.query("SELECT * FROM users WHERE name = \'" + name + "\'")',
                },
              ],
              summary: 'SQL injection',
            }),
          };
        }
        return { text: JSON.stringify({ passed: true, violations: [], summary: 'no defects' }) };
      });
      servers.push(server);
      const { out, code } = await phase(
        { ...example('example3-request'), working_directory: dir },
        { AVP_JUDGE: 'openai', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key', AVP_MODEL: 'test-model' },
      );
      const want = example('example3-response');
      expect(statuses(out)).toEqual(statuses(want));
      expect(out.critical_security_issue).toBe(true);
      expect(out.total_retries).toBe(0);
      expect(code).toBe(1);
      expect(out.checks.security_review.severity).toBe('critical');
      expect(out.checks.security_review.vulnerabilities).toEqual([
        `SQL Injection in src/database.ts:${VULNERABLE_LINE} - User input directly concatenated into SQL query without parameterization`,
      ]);
      expect(out.checks.code_review).toMatchObject({ status: 'pass', severity: 'none', findings: [] });
      // both reviews asked the judge, each with its own validator, and saw the diff against HEAD
      expect(server.requests).toHaveLength(2);
      const prompts = server.requests.map((r) => promptOf(r.body));
      expect(prompts.filter((p) => p.includes('phase-code-review'))).toHaveLength(1);
      expect(prompts.filter((p) => p.includes('phase-security-review'))).toHaveLength(1);
      for (const p of prompts) expect(p).toContain('-  return db.query("SELECT * FROM users WHERE name = ?", [name]);');
    },
    T,
  );

  test(
    'no judge configured: both reviews fail and say how to configure one; the tool checks still run',
    async () => {
      const dir = project('js-app');
      const { out, stderr } = await phase({ working_directory: dir, changed_files: ['src/sum.js'] }, {});
      for (const [list, check] of [
        [out.checks.code_review.findings, out.checks.code_review],
        [out.checks.security_review.vulnerabilities, out.checks.security_review],
      ] as const) {
        expect(check.status).toBe('fail');
        expect(check.severity).toBe('none');
        expect(list).toHaveLength(1);
        expect(list[0]).toMatch(/review could not run: .*fix: .*(ANTHROPIC_API_KEY|OPENAI_BASE_URL|judge)/);
      }
      expect(out.checks.formatter.status).toBe('pass');
      expect(out.checks.tests.status).toBe('pass');
      expect(out.status).toBe('fail');
      expect(stderr).toContain('review could not run');
      expect(out).not.toHaveProperty('critical_security_issue');
    },
    T,
  );

  test(
    'severities: a critical code-review finding is clamped to high; the max severity wins; no critical → no flag',
    async () => {
      const dir = project('js-app');
      const judgeDir = tempDir('avp-phase-judge-');
      const env = commandJudge(judgeDir, [
        {
          when: 'phase-code-review',
          verdict: {
            passed: false,
            violations: [
              {
                rule: 'missing-error-handling',
                file: 'src/sum.js',
                line: 4,
                severity: 'low',
                message: 'non-numbers are added as strings',
              },
              {
                rule: 'wrong-result',
                file: 'src/sum.js',
                line: 10,
                severity: 'critical',
                message: 'mean divides by the wrong count',
                suggestion: 'divide by values.length',
              },
            ],
            summary: 'two defects',
          },
        },
        {
          when: 'phase-security-review',
          verdict: {
            passed: false,
            violations: [{ rule: 'Prototype pollution', severity: 'medium', message: 'example' }],
            summary: 'one issue',
          },
        },
      ]);
      const { out } = await phase({ working_directory: dir, changed_files: ['src/sum.js'] }, env);
      expect(out.checks.code_review.status).toBe('fail');
      expect(out.checks.code_review.severity).toBe('high');
      expect(out.checks.code_review.findings).toEqual([
        'missing-error-handling in src/sum.js:4 - non-numbers are added as strings',
        'wrong-result in src/sum.js:10 - mean divides by the wrong count (fix: divide by values.length)',
      ]);
      expect(out.checks.security_review).toMatchObject({
        status: 'fail',
        severity: 'medium',
        vulnerabilities: ['Prototype pollution - example'],
      });
      expect(out).not.toHaveProperty('critical_security_issue');
      // not a git repository: the judge got the files' content, numbered
      const prompts = readdirSync(judgeDir)
        .filter((f) => f.startsWith('prompt-'))
        .map((f) => readFileSync(join(judgeDir, f), 'utf8'));
      expect(prompts).toHaveLength(2);
      for (const p of prompts) {
        expect(p).toContain('file: src/sum.js (new file');
        expect(p).toContain('export function sum(values) {');
      }
    },
    T,
  );

  test(
    'the reviews run alongside build and tests, after the formatter and linter',
    async () => {
      const dir = project('js-app');
      const mark = (name: string) =>
        `node -e "require('fs').appendFileSync('timeline.txt', '${name} ' + Date.now() + '\\\\n')"`;
      const slow = (name: string) =>
        `${mark(`${name}-start`)} && node -e "setTimeout(() => {}, 1500)" && ${mark(`${name}-end`)}`;
      const judgeDir = tempDir('avp-phase-judge-');
      const judge = join(judgeDir, 'slow-judge.sh');
      writeFileSync(
        judge,
        `#!/bin/sh\ncat > /dev/null\ncd ${dir}\n${mark('review-start')}\nsleep 1.5\n${mark('review-end')}\necho '{"passed":true,"violations":[],"summary":"ok"}'\n`,
        { mode: 0o755 },
      );
      const { out } = await phase(
        {
          working_directory: dir,
          changed_files: ['src/sum.js'],
          format_command: slow('formatter'),
          lint_command: slow('linter'),
          build_command: slow('build'),
          test_command: slow('tests'),
        },
        { AVP_JUDGE: 'command', AVP_JUDGE_COMMAND: `sh ${judge}`, AVP_NO_CACHE: '1' },
      );
      expect(out.status).toBe('pass');
      const t: Record<string, number[]> = {};
      for (const line of readFileSync(join(dir, 'timeline.txt'), 'utf8').trim().split('\n')) {
        const [name, ms] = line.split(' ');
        (t[name!] ??= []).push(Number(ms));
      }
      const first = (k: string) => Math.min(...t[k]!);
      const last = (k: string) => Math.max(...t[k]!);
      expect(t['review-start']).toHaveLength(2); // both reviews
      expect(first('review-start')).toBeGreaterThanOrEqual(last('linter-end')); // not while files may be rewritten
      expect(first('review-start')).toBeLessThan(last('build-end')); // overlaps the build …
      expect(last('review-end')).toBeGreaterThan(first('build-start'));
      expect(first('tests-start')).toBeGreaterThanOrEqual(last('build-end')); // build, then tests
      // the two reviews overlap each other
      expect(Math.max(...t['review-start']!)).toBeLessThan(Math.min(...t['review-end']!));
    },
    T,
  );
});
