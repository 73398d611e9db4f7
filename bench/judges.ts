/**
 * LLM judges: what a review costs in prompt bytes, and what a verdict-cache hit costs in time.
 *
 *   prompt  = buildPrompt for a one-line Edit in a 2,000-line file: system + validator + event, and the overhead beyond
 *             the validator body (target ≤ 4 KB), next to what "the whole file three times" (the retired runner's
 *             prompt) would have been
 *   hook    = whole `dist/avp hook` processes in one project with one LLM validator (Edit) and the loopback Anthropic
 *             server: a verdict-cache hit (same Edit again: no request) vs the no-match fast path (a Read event no
 *             validator matches), interleaved, medians and ratio; plus the first, uncached call for reference. Both
 *             on the full path (`AVP_SHORTCUT=0`); every hit checked in the run log, the Read's answer checked
 *   batch   = 8 LLM validators on one Edit, verdict cache off, the loopback server answering each request after
 *             ANSWER_MS: separate requests (`AVP_JUDGE_BATCH=0`) vs one batched request, interleaved — input tokens
 *             (the whole request bodies: system, tools, messages, at 4 characters a token) and wall time, medians
 *
 * Run: node_modules/.bin/bun bench/judges.ts   (run `bun run build.ts` first)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HookEvent } from '../src/protocol/event.ts';
import type { Validator } from '../src/validator/types.ts';
import { buildPrompt } from '../src/judges/prompt.ts';
import { startAnthropicServer } from '../test/support/anthropic-server.ts';
import { runLines } from './_run-log.ts';

const BIN = resolve(import.meta.dir, '../dist/avp');
const RUNS = 25;
const root = mkdtempSync(join(tmpdir(), 'avp-bench-judges-'));
const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// ---- prompt size -------------------------------------------------------------------------------------------------
const BODY = `# No hardcoded secrets

Fail when the change adds an API key, token, password or private key as a literal in source code.
Allowed: reading them from the environment or a secrets manager; obvious placeholders ("xxx", "<your-key>").
Report each literal with its line and suggest the environment variable to use instead.
`;
const before =
  Array.from(
    { length: 2000 },
    (_, i) => `export function handler${i}(input: string): string { return input.trim() + ${i}; }`,
  ).join('\n') + '\n';
const after = before.replace('return input.trim() + 1000;', 'return input.trim() + 1001;');
const projectRoot = join(root, 'project');
const validator: Validator = {
  id: 'no-secrets',
  name: 'no-secrets',
  source: 'project',
  form: 'file',
  path: join(projectRoot, '.avp/validators/no-secrets.md'),
  spec: {
    name: 'no-secrets',
    description: 'Blocks hardcoded secrets.',
    severity: 'error',
    trigger: 'PostToolUse',
    match: { tools: ['Edit'] },
    tags: [],
    once: false,
    timeout: 60,
  },
  body: BODY,
  references: [],
  hash: 'bench',
};
const event: HookEvent = {
  agent: 'claude',
  event: 'PostToolUse',
  tool: 'Edit',
  toolInput: { file_path: join(projectRoot, 'src/handlers.ts'), old_string: '+ 1000;', new_string: '+ 1001;' },
  cwd: projectRoot,
  projectRoot,
  files: [
    {
      path: join(projectRoot, 'src/handlers.ts'),
      relPath: 'src/handlers.ts',
      inProject: true,
      kind: 'update',
      before,
      after,
    },
  ],
  raw: {},
};
const p = buildPrompt(validator, event);
const bytes = (s: string) => Buffer.byteLength(s);
const total = bytes(p.system) + bytes(p.user);
const overhead = total - bytes(BODY);
console.log('## Prompt for a one-line Edit in a 2,000-line file');
console.log(`file size                         ${kb(bytes(after))}`);
console.log(`system (constant)                 ${kb(bytes(p.system))}`);
console.log(`validator section (stable)        ${kb(bytes(p.validatorText))}   (body ${kb(bytes(BODY))})`);
console.log(`event section (varying)           ${kb(bytes(p.eventText))}`);
console.log(`total prompt                      ${kb(total)}`);
console.log(
  `overhead beyond the body          ${kb(overhead)}   target ≤ 4.00 KB: ${overhead <= 4096 ? 'met' : 'MISSED'}`,
);
console.log(
  `whole file ×3 (retired runner)    ${kb(3 * bytes(after) + bytes(BODY))}   = ${((3 * bytes(after) + bytes(BODY)) / total).toFixed(0)}× this prompt`,
);

// ---- cache hit vs no-match through dist/avp hook -----------------------------------------------------------------
if (!existsSync(BIN)) {
  console.log('\n(dist/avp missing: run `bun run build.ts` for the hook rows)');
  process.exit(0);
}
mkdirSync(join(projectRoot, '.git'), { recursive: true });
mkdirSync(join(projectRoot, '.avp/validators'), { recursive: true });
mkdirSync(join(projectRoot, 'src'), { recursive: true });
writeFileSync(
  validator.path,
  `---\nname: no-secrets\ndescription: Blocks hardcoded secrets.\nseverity: error\ntrigger: PostToolUse\nmatch:\n  tools: [Edit]\n---\n${BODY}`,
);
writeFileSync(join(projectRoot, 'src/handlers.ts'), after);
const home = join(root, 'home');
mkdirSync(home);
const server = await startAnthropicServer(() => ({
  toolUse: { name: 'report_verdict', input: { passed: true, violations: [], summary: 'no secrets' } },
}));
const env = {
  PATH: '/usr/bin:/bin',
  HOME: home,
  AVP_HOME: join(home, '.avp'),
  CLAUDE_PROJECT_DIR: projectRoot,
  ANTHROPIC_API_KEY: 'k',
  ANTHROPIC_BASE_URL: server.url,
};
const base = {
  session_id: 'bench',
  transcript_path: join(home, 't.jsonl'),
  cwd: projectRoot,
  hook_event_name: 'PostToolUse',
  tool_use_id: 't1',
};
const editInput = JSON.stringify({
  ...base,
  tool_name: 'Edit',
  tool_input: {
    file_path: join(projectRoot, 'src/handlers.ts'),
    old_string: '+ 1000;',
    new_string: '+ 1001;',
    replace_all: false,
  },
  tool_response: {
    filePath: join(projectRoot, 'src/handlers.ts'),
    oldString: '+ 1000;',
    newString: '+ 1001;',
    originalFile: before,
    structuredPatch: [],
    userModified: false,
    replaceAll: false,
  },
});
const readInput = JSON.stringify({
  ...base,
  tool_name: 'Read',
  tool_input: { file_path: join(projectRoot, 'src/handlers.ts') },
  tool_response: { type: 'text' },
});

async function hook(input: string): Promise<{ ms: number; out: string }> {
  const started = performance.now();
  const proc = Bun.spawn([BIN, 'hook'], {
    cwd: projectRoot,
    // The full path for both rows: the shortcut answers the Read alone once its record is 2 s old, part-way through
    // the runs on a slow machine, and the ratio would then compare two paths.
    env: { ...env, AVP_SHORTCUT: '0' },
    stdin: new Blob([`${input}\n`]),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`avp hook exited ${code}: ${err}`);
  return { ms: performance.now() - started, out };
}

const runLog = () => runLines(projectRoot);

const first = await hook(editInput);
const requestsAfterFirst = server.requests.length;
await hook(readInput); // warm the discovery parse cache for both paths
// The first call accepted the project (trust on first use); the hook memo is written only once the acceptance logs
// are 2 s old: a pause, then a call of each, reach a session's steady state before the runs.
await Bun.sleep(2100);
await hook(editInput);
await hook(readInput);
const loggedBefore = runLog().length;
const hit: number[] = [];
const noMatch: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const edit = await hook(editInput);
  if (!edit.out.includes('"passed":true')) throw new Error(`unexpected answer to the Edit: ${edit.out.slice(0, 300)}`);
  hit.push(edit.ms);
  const read = await hook(readInput);
  if (read.out.trim() !== '{}') throw new Error(`the Read matched something: ${read.out.slice(0, 300)}`);
  noMatch.push(read.ms);
}
// Each Edit answered from the verdict cache, none by the model: a row of anything else would print a plausible number.
const hits = runLog().slice(loggedBefore);
if (hits.length !== RUNS || hits.some((r) => r.status !== 'passed' || r.cache !== 'hit'))
  throw new Error(`the cache-hit row ran ${JSON.stringify(hits.slice(0, 3))}…, not ${RUNS} passing hits`);
if (server.requests.length !== requestsAfterFirst)
  throw new Error(`${server.requests.length - requestsAfterFirst} requests during the cache-hit runs`);
console.log('\n## Verdict-cache hit vs no-match fast path (whole `dist/avp hook` processes, full path, medians)');
console.log(`first Edit (LLM call, loopback)   ${first.ms.toFixed(1)} ms   (${requestsAfterFirst} request)`);
console.log(
  `cache hit (same Edit)             ${median(hit).toFixed(1)} ms   over ${RUNS} runs; requests during the runs: ${server.requests.length - requestsAfterFirst}`,
);
console.log(`no match (Read event)             ${median(noMatch).toFixed(1)} ms   over ${RUNS} runs`);
console.log(`ratio hit / no-match              ${(median(hit) / median(noMatch)).toFixed(2)}×`);
await server.close();

// ---- 8 LLM validators: separate requests vs one batched request ----------------------------------------------------
const ANSWER_MS = 400;
const BATCH_RUNS = 7;
for (let i = 2; i <= 8; i++) {
  writeFileSync(
    join(projectRoot, `.avp/validators/llm-${i}.md`),
    `---\nname: llm-${i}\ndescription: Rule set ${i} for the handlers.\nseverity: error\ntrigger: PostToolUse\nmatch:\n  tools: [Edit]\n---\n${BODY.replace('No hardcoded secrets', `Rule set ${i}`)}`,
  );
}
const accepted = Bun.spawnSync([BIN, 'accept'], { cwd: projectRoot, env, stdout: 'ignore', stderr: 'pipe' });
if (accepted.exitCode !== 0) throw new Error(`avp accept: ${accepted.stderr}`);
const batchServer = await startAnthropicServer(({ body }) => {
  const tool = body.tools?.[0];
  if (tool?.name === 'report_verdicts') {
    const ids: string[] = tool.input_schema.properties.verdicts.items.properties.validator.enum;
    const verdicts = ids.map((id) => ({ validator: id, passed: true, violations: [], summary: 'ok' }));
    return { toolUse: { name: 'report_verdicts', input: { verdicts } }, delayMs: ANSWER_MS };
  }
  return {
    toolUse: { name: 'report_verdict', input: { passed: true, violations: [], summary: 'ok' } },
    delayMs: ANSWER_MS,
  };
});
const tokensOfRequest = (body: any) =>
  Math.ceil(JSON.stringify({ s: body.system, t: body.tools, m: body.messages }).length / 4);
async function measure(batch: boolean): Promise<{ ms: number; tokens: number; requests: number }> {
  const before = batchServer.requests.length;
  const started = performance.now();
  const proc = Bun.spawn([BIN, 'hook'], {
    cwd: projectRoot,
    env: { ...env, ANTHROPIC_BASE_URL: batchServer.url, AVP_NO_CACHE: '1', AVP_JUDGE_BATCH: batch ? '1' : '0' },
    stdin: new Blob([`${editInput}\n`]),
    stdout: 'pipe',
    stderr: 'ignore',
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const ms = performance.now() - started;
  if (!out.includes('"passed":true')) throw new Error(`unexpected answer: ${out.slice(0, 300)}`);
  const mine = batchServer.requests.slice(before);
  // Eight validators asked separately, or once together: anything else is not the comparison the row names.
  if (mine.length !== (batch ? 1 : 8)) throw new Error(`${mine.length} requests ${batch ? 'batched' : 'separate'}`);
  return { ms, tokens: mine.reduce((n, r) => n + tokensOfRequest(r.body), 0), requests: mine.length };
}
const separate: Array<{ ms: number; tokens: number; requests: number }> = [];
const batched: typeof separate = [];
for (let i = 0; i < BATCH_RUNS; i++) {
  separate.push(await measure(false));
  batched.push(await measure(true));
}
const med = (xs: typeof separate, k: 'ms' | 'tokens') => median(xs.map((x) => x[k]));
const tokenRatio = med(batched, 'tokens') / med(separate, 'tokens');
const timeRatio = med(batched, 'ms') / med(separate, 'ms');
console.log(
  `\n## 8 LLM validators on one Edit: separate vs batched (answers after ${ANSWER_MS} ms, ${BATCH_RUNS} runs each, medians)`,
);
console.log(`                     requests   input tokens   wall time`);
console.log(
  `separate             ${String(separate[0]!.requests).padStart(8)}   ${String(med(separate, 'tokens')).padStart(12)}   ${med(separate, 'ms').toFixed(0).padStart(6)} ms`,
);
console.log(
  `batched              ${String(batched[0]!.requests).padStart(8)}   ${String(med(batched, 'tokens')).padStart(12)}   ${med(batched, 'ms').toFixed(0).padStart(6)} ms`,
);
console.log(
  `batched / separate   input tokens ${(tokenRatio * 100).toFixed(0)} % (target ≤ 40 %: ${tokenRatio <= 0.4 ? 'met' : 'MISSED'}), wall time ${timeRatio.toFixed(2)}× (target ≤ 1.1×: ${timeRatio <= 1.1 ? 'met' : 'MISSED'})`,
);
await batchServer.close();
rmSync(root, { recursive: true, force: true });
