/**
 * The accepted copies hook mode runs on while a change is pending are the files the user accepted, modes included,
 * and what avp's own commands write is accepted whole. Before: a pending change turned every accepted shell-script
 * validator into "not executable" (with a fix pointing into `~/.avp/trust`), and `avp new --dir` left its
 * `references/` pending, so the next Write was blocked.
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, PASSES, project, type Project } from './hook-support.ts';

function writeEvent(p: Project, rel = 'src/a.ts', content = 'const a = 1;\n') {
  return {
    session_id: 's1',
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(p.root, rel), content },
    tool_response: { type: 'create', filePath: join(p.root, rel), content },
    tool_use_id: 't1',
  };
}

describe('accepted copies keep what the user accepted', () => {
  test('a shell-script validator still runs from the accepted copy while a change is pending', async () => {
    const p = project();
    p.validator('ok-script', { match: { tools: ['Write'] } }, PASSES);
    expect((await p.hook(writeEvent(p))).json?.decision).toBeUndefined();
    // The agent adds a config: the project now runs from the accepted copy.
    p.write('avp.config.json', '{"disabled": true}');
    const r = await p.hook(writeEvent(p));
    expect(r.json.systemMessage).toContain('added avp.config.json');
    const said = JSON.stringify(r.json);
    expect(said).not.toContain('not executable');
    expect(said).not.toContain('/trust/');
    expect(r.json.decision).toBeUndefined();
  });

  test("an accepted script that is not executable: the fix names the live script, never avp's own state", async () => {
    const p = project();
    p.validator('ok-script', { match: { tools: ['Write'] } }, PASSES);
    chmodSync(join(p.root, '.avp/validators/ok-script/scripts/check.sh'), 0o644);
    expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
    p.write('avp.config.json', '{}');
    const r = await p.hook(writeEvent(p));
    expect(r.json.systemMessage).toContain('added avp.config.json');
    expect(r.json.decision).toBe('block');
    expect(r.json.reason).toContain(join(p.root, '.avp/validators/ok-script/scripts/check.sh'));
    expect(r.json.reason).toContain('avp accept');
    expect(r.json.reason).not.toContain('/trust/');
  });
});

describe("what avp's own commands write is accepted together", () => {
  for (const form of ['--dir', '--rules']) {
    test(`avp new ${form}: every file it creates is accepted, nothing is left pending`, async () => {
      const p = project();
      expect((await p.hook(writeEvent(p))).code).toBe(0);
      const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root };
      // --force: no judge is configured here, and this test is about what gets accepted, not about judges.
      const made = await runAvp(['new', 'house-rules', form, '--force'], { bin: BIN, cwd: p.root, env });
      expect(made.code).toBe(0);
      const dry = await runAvp(['accept', '--dry-run'], { bin: BIN, cwd: p.root, env });
      expect(dry.stdout).toContain('Nothing to accept');
      const r = await p.hook(writeEvent(p, 'src/b.ts'));
      expect(r.json?.systemMessage ?? '').not.toContain('not in effect');
    });
  }
});
