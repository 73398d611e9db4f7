/**
 * The catalog's LLM validators through the compiled binary against the loopback Anthropic server (the real wire
 * protocol; the real API is unreachable here): the request carries the validator's prompt and its references, the
 * judge's verdict decides block/pass, an unreadable reply fails closed, and Stop validators stay silent on a
 * chat-only turn (no request at all). Also `avp list --available` and `avp add <name> --offline` from the binary.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cases as llmCases } from '../fixtures/catalog/llm.cases.ts';
import { startAnthropicServer, type AnthropicServer, type Reply } from '../support/anthropic-server.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';

const CATALOG = join(import.meta.dir, '../../validators');
const SESSION = 'a27d19bd-40c9-40a3-b0ea-6d30f9d09f37';

let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setup(validators: string[]) {
  const root = tempDir('avp-c-llm-');
  const home = tempDir('avp-c-llm-home-');
  mkdirSync(join(root, '.git'));
  for (const v of validators) cpSync(join(CATALOG, v), join(root, '.avp/validators', v), { recursive: true });
  const env = () => ({
    HOME: home,
    AVP_HOME: join(home, '.avp'),
    CLAUDE_PROJECT_DIR: root,
    // No claude CLI on PATH: the anthropic backend, pointed at the loopback server.
    PATH: '/usr/bin:/bin',
    AVP_JUDGE: 'anthropic',
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: server!.url,
    AVP_NO_CACHE: '1',
  });
  const hook = async (input: Record<string, unknown>) => {
    const r = await runAvp(['hook'], { cwd: root, stdin: `${JSON.stringify(input)}\n`, env: env(), timeoutMs: 60_000 });
    return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
  };
  const write = (rel: string, content: string) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), content);
    const file_path = join(root, rel);
    return {
      session_id: SESSION,
      transcript_path: join(home, 't.jsonl'),
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path, content },
      tool_response: {
        type: 'create',
        filePath: file_path,
        content,
        structuredPatch: [],
        originalFile: null,
        userModified: false,
      },
      tool_use_id: 'toolu_llm',
    };
  };
  const stop = () => ({
    session_id: SESSION,
    transcript_path: join(home, 't.jsonl'),
    cwd: root,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'done',
  });
  return { root, hook, write, stop };
}

const verdict = (v: unknown): Reply => ({ toolUse: { name: 'report_verdict', input: v } });
const requestText = (s: AnthropicServer, i = 0) => JSON.stringify(s.requests[i]!.body);

describe('sql-injection (PostToolUse, LLM)', () => {
  const UNSAFE = 'export const byId = (id: string) => db.query(`SELECT * FROM users WHERE id = ${id}`);\n';

  test("the prompt carries the rules and references/patterns.md; a failed verdict blocks with the judge's violation", async () => {
    server = await startAnthropicServer(() =>
      verdict({
        passed: false,
        violations: [
          {
            rule: 'string-built-query',
            file: 'src/api/users.ts',
            line: 1,
            snippet: 'db.query(`SELECT … ${id}`)',
            suggestion: "db.query('SELECT * FROM users WHERE id = $1', [id])",
          },
        ],
        summary: 'query built from input',
      }),
    );
    const p = setup(['sql-injection']);
    const r = await p.hook(p.write('src/api/users.ts', UNSAFE));
    expect(r.json.decision).toBe('block');
    expect(r.json.violations).toMatchObject([
      { rule: 'string-built-query', file: 'src/api/users.ts', line: 1, validator: 'sql-injection' },
    ]);
    expect(server.requests).toHaveLength(1);
    const body = requestText(server);
    expect(body).toContain('string-built-query');
    expect(body).toContain('Do not flag');
    expect(body).toContain('SQL injection — unsafe and safe forms'); // references/patterns.md
    expect(body).toContain('SELECT * FROM users WHERE id = ${id}');
  });

  test('a passed verdict lets the change through; files outside match.files never reach the judge', async () => {
    server = await startAnthropicServer(() => verdict({ passed: true, violations: [], summary: 'parameterized' }));
    const p = setup(['sql-injection']);
    const ok = await p.hook(
      p.write(
        'src/api/users.ts',
        "export const byId = (id: string) => db.query('SELECT * FROM users WHERE id = $1', [id]);\n",
      ),
    );
    expect(ok.code).toBe(0);
    expect(ok.json?.decision).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    await p.hook(p.write('docs/queries.md', UNSAFE));
    expect(server.requests).toHaveLength(1);
  });

  test('an unreadable reply is a validator error that blocks (fail closed), named as such', async () => {
    server = await startAnthropicServer(() => ({ text: 'I cannot decide.' }));
    const p = setup(['sql-injection']);
    const r = await p.hook(p.write('src/api/users.ts', UNSAFE));
    expect(r.json.decision).toBe('block');
    expect(r.json.reason).toContain('sql-injection');
    expect(r.json.violations ?? []).toEqual([]);
  });
});

describe('Stop validators (no-test-cheating, require-tests, code-quality)', () => {
  test('a chat-only turn sends no request (match.files keeps them off)', async () => {
    server = await startAnthropicServer(() => verdict({ passed: true, violations: [], summary: 'ok' }));
    const p = setup(['no-test-cheating', 'require-tests', 'code-quality']);
    const r = await p.hook(p.stop());
    expect(r.code).toBe(0);
    expect(r.json?.decision).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  test("no-test-cheating sees the turn's diff with its examples and blocks the stop on a skipped test", async () => {
    server = await startAnthropicServer(() =>
      verdict({
        passed: false,
        violations: [
          {
            rule: 'skipped-test',
            file: 'src/round.test.ts',
            line: 2,
            snippet: "it.skip('rounds half up'",
            suggestion: 'fix round() instead of skipping the test',
          },
        ],
        summary: 'test skipped',
      }),
    );
    const p = setup(['no-test-cheating']);
    await p.hook(
      p.write(
        'src/round.test.ts',
        "import { round } from './round.ts';\nit.skip('rounds half up', () => expect(round(2.5)).toBe(3));\n",
      ),
    );
    const r = await p.hook(p.stop());
    expect(r.json.decision).toBe('block');
    expect(r.json.violations).toMatchObject([{ rule: 'skipped-test', validator: 'no-test-cheating' }]);
    const body = requestText(server);
    expect(body).toContain('Test cheating — examples'); // references/examples.md
    expect(body).toContain("it.skip('rounds half up'");
  });
});

describe.each(llmCases)('$validator through avp hook with the loopback judge', (c) => {
  test(`a failed verdict ${c.severity === 'error' ? 'blocks' : 'warns without blocking'}; the prompt holds the change and every reference; an unmatched file is never sent`, async () => {
    server = await startAnthropicServer(() =>
      verdict({
        passed: false,
        violations: [{ rule: c.rule, file: c.file, line: 2, snippet: c.content.split('\n')[1], suggestion: 'fix it' }],
        summary: c.rule,
      }),
    );
    const p = setup([c.validator]);
    // The unmatched file first: neither its write nor (for Stop validators) a turn that only touched it reaches the
    // judge.
    await p.hook(p.write(c.unmatched, 'text\n'));
    if (c.trigger === 'Stop') await p.hook(p.stop());
    expect(server.requests).toHaveLength(0);
    const r =
      c.trigger === 'Stop'
        ? (await p.hook(p.write(c.file, c.content)), await p.hook(p.stop()))
        : await p.hook(p.write(c.file, c.content));
    expect(server.requests).toHaveLength(1);
    expect(r.code).toBe(0);
    expect(r.json.violations).toMatchObject([{ rule: c.rule, file: c.file, line: 2, validator: c.validator }]);
    if (c.severity === 'error') expect(r.json.decision).toBe('block');
    else {
      expect(r.json.decision).toBeUndefined();
      expect(JSON.stringify(r.json)).toContain(c.rule);
    }
    const body = requestText(server);
    expect(body).toContain(JSON.stringify(c.content.split('\n')[1]).slice(1, -1));
    for (const ref of readdirSync(join(CATALOG, c.validator, 'references'))) {
      const first = readFileSync(join(CATALOG, c.validator, 'references', ref), 'utf8').split('\n')[0]!;
      expect(body).toContain(JSON.stringify(first).slice(1, -1));
    }
  });
});

describe('the catalog from the binary', () => {
  test('avp list --available --json lists all ten with judge and recommended flags', async () => {
    const r = await runAvp(['list', '--available', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{ name: string; judge: string; recommended: boolean }>;
    expect(list.map((e) => e.name)).toEqual([
      'api-standards',
      'code-quality',
      'dangerous-commands',
      'no-debug-leftovers',
      'no-secrets',
      'no-secrets-before',
      'no-test-cheating',
      'protected-files',
      'require-tests',
      'sql-injection',
    ]);
    expect(list.filter((e) => e.recommended).every((e) => e.judge === 'script')).toBe(true);
  });

  test('avp add <name> --offline --project installs the embedded files byte for byte', async () => {
    const root = tempDir('avp-c-add-');
    mkdirSync(join(root, '.git'));
    // A judge that can work (never asked here): `avp add` refuses an LLM validator no judge can evaluate.
    const r = await runAvp(['add', 'sql-injection', '--offline', '--project'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: 'unused', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(0);
    for (const rel of ['VALIDATOR.md', 'references/patterns.md']) {
      const installed = join(root, '.avp/validators/sql-injection', rel);
      expect(existsSync(installed)).toBe(true);
      expect(readFileSync(installed, 'utf8')).toBe(readFileSync(join(CATALOG, 'sql-injection', rel), 'utf8'));
    }
  });
});
