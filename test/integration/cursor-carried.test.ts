/**
 * Cursor's afterFileEdit only observes: an edit that never passed preToolUse (older Cursor, Tab edits, tools the
 * matcher does not name) is judged there and what blocks is carried — refused once at the conversation's next
 * blocking point, sent back at stop until fixed — through the compiled binary, with inputs in Cursor's documented
 * shapes (test/fixtures/hook/cursor/). An edit already judged at preToolUse is not judged again.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, KEY_FINDER, PASSES, project, sessionStateDir, sh, type Project } from './hook-support.ts';

const FIXTURES = join(import.meta.dir, '../fixtures/hook/cursor');
const SECRET = "export const KEY = 'sk-live-4f9a8b7c6d5e';\n";
const CLEAN = 'export const KEY = process.env.KEY;\n';
type Doc = Record<string, any>;

interface Cursor {
  p: Project;
  input(name: string, extra?: Doc): Doc;
  hook(input: Doc): Promise<Doc>;
  /** The file is written as Cursor's edit left it, then afterFileEdit reports the replacement. */
  edited(rel: string, from: string, to: string, extra?: Doc): Promise<Doc>;
  runs(validator: string): number;
}

function cursor(opts: { stopValidator?: string } = {}): Cursor {
  const p = project({ agent: 'cursor' });
  p.validator('no-secrets', {}, KEY_FINDER, 'check.ts');
  if (opts.stopValidator) p.validator('stop-check', { trigger: 'Stop' }, opts.stopValidator);
  p.write('src/a.ts', 'export const KEY = 1;\n');
  p.write('src/c.ts', 'export const C = 1;\n');
  const c: Cursor = {
    p,
    input(name, extra = {}) {
      const text = readFileSync(join(FIXTURES, `hook-input-${name}.json`), 'utf8').replaceAll(
        '/home/dev/project',
        p.root,
      );
      return { ...JSON.parse(text), ...extra };
    },
    async hook(input) {
      const r = await p.hook(input, { CURSOR_PROJECT_DIR: p.root });
      expect(r.code).toBe(0);
      return r.json as Doc;
    },
    async edited(rel, from, to, extra = {}) {
      p.write(rel, to);
      const edits = [{ old_string: from.trimEnd(), new_string: to.trimEnd() }];
      return c.hook(c.input('afterFileEdit', { file_path: join(p.root, rel), edits, ...extra }));
    },
    runs(validator) {
      const dir = join(p.root, '.avp/logs');
      if (!existsSync(dir)) return 0;
      return readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl') && f.startsWith('hook-'))
        .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
        .filter((l) => String(JSON.parse(l).validator).endsWith(validator)).length;
    },
  };
  return c;
}

const shell = (c: Cursor, command: string, extra: Doc = {}) =>
  c.hook(c.input('beforeShellExecution', { command, ...extra }));
const write = (c: Cursor, rel: string, content: string, extra: Doc = {}) =>
  c.hook(c.input('preToolUse-Write', { tool_input: { file_path: join(c.p.root, rel), content }, ...extra }));
const stop = (c: Cursor, loop = 0, extra: Doc = {}) => c.hook(c.input('stop', { loop_count: loop, ...extra }));

describe("Cursor's afterFileEdit: findings carried to the next blocking point and the stop", () => {
  test('a secret written by an unrefusable edit: next shell call denied once; the fix passes and clears', async () => {
    const c = cursor({ stopValidator: PASSES });
    const after = await c.edited('src/a.ts', 'export const KEY = 1;\n', SECRET);
    // The edit is made: afterFileEdit cannot refuse it, and says where the finding goes.
    expect(after.permission).toBeUndefined();
    expect(after.user_message).toContain('carried');
    const denied = await shell(c, 'ls src');
    expect(denied.permission).toBe('deny');
    expect(denied.agent_message).toContain('An earlier edit of src/a.ts broke [');
    expect(denied.agent_message).toContain('no-secrets');
    expect(denied.agent_message).toContain('sk-live-4f9a8b7c6d5e');
    expect(denied.agent_message).toContain('Fix src/a.ts before going on');
    expect(denied.user_message).toContain('avp refused beforeShellExecution');
    // Once: the agent was told; the next call is judged on its own.
    expect((await shell(c, 'ls src')).permission).toBe('allow');
    // The fix: judged at preToolUse as usual (passes), then its afterFileEdit clears the file's findings.
    expect((await write(c, 'src/a.ts', CLEAN)).permission).toBe('allow');
    const fixed = await c.edited('src/a.ts', SECRET, CLEAN);
    expect(fixed.user_message ?? '').not.toContain('carried');
    const done = await stop(c);
    expect(done.followup_message).toBeUndefined();
    const state = sessionStateDir(c.p.home, c.p.root, 'c9a1b2c3-conv');
    expect([existsSync(join(state, 'events.jsonl')), existsSync(join(state, 'carried-findings.json'))]).toEqual([
      true,
      false,
    ]);
  });

  test('an unfixed carried finding sends the agent back at stop, with the Stop validators, within the guard', async () => {
    const failing = sh(
      `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"tests","message":"tests were not run"}],"summary":"no tests"}'`,
    );
    const c = cursor({ stopValidator: failing });
    await c.edited('src/a.ts', 'export const KEY = 1;\n', SECRET);
    const first = await stop(c, 0);
    expect(first.followup_message).toContain('src/a.ts');
    expect(first.followup_message).toContain('from an earlier edit, not fixed yet');
    expect(first.followup_message).toContain('tests were not run');
    const answers = [true];
    for (const loop of [1, 2, 3]) answers.push(typeof (await stop(c, loop)).followup_message === 'string');
    // avp's maxStopBlocks (3) lets the fourth stop of the series through, as for any Stop validator.
    expect(answers).toEqual([true, true, true, false]);
    // Carried findings are not run-log runs of their own: the edit's run is the one line.
    expect(c.runs('no-secrets')).toBe(1);
  });

  test('an edit judged at preToolUse is not judged again at its afterFileEdit; a different result is', async () => {
    const c = cursor();
    expect((await write(c, 'src/c.ts', CLEAN)).permission).toBe('allow');
    expect(c.runs('no-secrets')).toBe(1);
    await c.edited('src/c.ts', 'export const C = 1;\n', CLEAN);
    expect(c.runs('no-secrets')).toBe(1);
    // What the file holds now was never judged (a Tab edit after the tool's): judged, and the secret carried.
    const tab = await c.edited('src/c.ts', CLEAN, SECRET);
    expect(c.runs('no-secrets')).toBe(2);
    expect(tab.user_message).toContain('carried');
    expect((await shell(c, 'npm test')).permission).toBe('deny');
  });

  test('the agent cannot clear carried findings by editing another file, by a read, or by a new generation', async () => {
    const c = cursor({ stopValidator: PASSES });
    await c.edited('src/a.ts', 'export const KEY = 1;\n', SECRET);
    // Reading the broken file is no fix: refused (this is the one refusal).
    const read = await c.hook(c.input('beforeReadFile', { file_path: join(c.p.root, 'src/a.ts') }));
    expect(read.permission).toBe('deny');
    expect(read.agent_message).toContain('An earlier edit of src/a.ts broke');
    // A fix attempt that keeps the secret is let past the carried findings but judged as usual: denied.
    const stillBad = await write(c, 'src/a.ts', `${SECRET}// fixed\n`);
    expect(stillBad.permission).toBe('deny');
    expect(stillBad.agent_message).toContain('sk-live-4f9a8b7c6d5e');
    expect(stillBad.agent_message).not.toContain('An earlier edit');
    // A clean edit of another file passes and clears nothing.
    expect((await c.edited('src/c.ts', 'export const C = 1;\n', CLEAN)).user_message ?? '').not.toContain('carried');
    // A new generation (and a new prompt) of the same conversation.
    const next = { generation_id: 'g2-next-gen' };
    await c.hook(c.input('beforeSubmitPrompt', { ...next, prompt: 'Carry on.' }));
    const back = await stop(c, 0, next);
    expect(back.followup_message).toContain('src/a.ts');
    expect(back.followup_message).toContain('sk-live-4f9a8b7c6d5e');
  });

  test('an edit of another file is refused while the findings are new; an edit of the broken file is not', async () => {
    const c = cursor();
    await c.edited('src/a.ts', 'export const KEY = 1;\n', SECRET);
    const other = await write(c, 'src/c.ts', CLEAN);
    expect(other.permission).toBe('deny');
    expect(other.decision).toBe('deny');
    expect(other.agent_message).toContain('An earlier edit of src/a.ts broke');
    const c2 = cursor();
    await c2.edited('src/a.ts', 'export const KEY = 1;\n', SECRET);
    expect((await write(c2, 'src/a.ts', CLEAN)).permission).toBe('allow');
    // Not raised yet (the fix went through first): the next other call still hears of it until the edit lands.
    expect((await shell(c2, 'ls')).permission).toBe('deny');
  });

  test("the mechanism follows the adapter's abilities: Windsurf's post_write_code carries to its next pre-hook", async () => {
    const p = project({ agent: 'windsurf' });
    p.validator('no-secrets', {}, KEY_FINDER, 'check.ts');
    p.write('src/a.ts', SECRET);
    const read = (name: string, extra: Doc) => {
      const text = readFileSync(join(FIXTURES, `../windsurf/hook-input-${name}.json`), 'utf8');
      const input = JSON.parse(text.replaceAll('/home/dev/project', p.root));
      return { ...input, tool_info: { ...input.tool_info, ...extra } };
    };
    const edits = [{ old_string: 'export const KEY = 1;', new_string: SECRET.trimEnd() }];
    const post = await p.hook(read('post_write_code', { file_path: join(p.root, 'src/a.ts'), edits }));
    expect(post.code).toBe(0);
    const refused = await p.hook(read('pre_run_command', { cwd: p.root }));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('An earlier edit of src/a.ts broke [');
    expect((await p.hook(read('pre_run_command', { cwd: p.root }))).code).toBe(0);
  });

  test('an agent that refuses after the tool (Claude Code) blocks there and carries nothing', async () => {
    const p = project();
    p.validator('no-secrets', {}, KEY_FINDER, 'check.ts');
    const post = p.fixture('hook-input-PostToolUse-Write.json');
    post.tool_input.content = SECRET;
    expect((await p.hook(post)).json.decision).toBe('block');
    const bash: Doc = { ...post, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    delete bash.tool_response;
    const next = await p.hook(bash);
    expect(next.json?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(existsSync(join(sessionStateDir(p.home, p.root, post.session_id), 'carried-findings.json'))).toBe(false);
  });

  test('avp list --agent cursor says what happens to PostToolUse validators instead', async () => {
    const c = cursor();
    const env = { HOME: c.p.home, AVP_HOME: join(c.p.home, '.avp') };
    const r = await runAvp(['list', '--agent', 'cursor', '--json'], { bin: BIN, cwd: c.p.root, env });
    const instead = JSON.parse(r.stdout).neverFires.find((n: Doc) => n.id.endsWith('no-secrets'));
    expect(instead.kind).toBe('instead');
    expect(instead.reason).toContain('preToolUse');
    expect(instead.reason).toContain('next blocking point');
    expect(instead.reason).toContain('followup_message');
  });
});
