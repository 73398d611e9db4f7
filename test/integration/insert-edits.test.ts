/**
 * Inserts and appends — an edit with no text to replace (Cline CLI's `editor` with `insert_line`, Kiro's `fs_write`
 * `insert`/`append`): before the tool runs, avp rebuilds the file as it will be, so a validator judging the content
 * sees the inserted text and refuses it there, as it would a plain edit.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { project, type Project } from './hook-support.ts';

/** Fails when any changed file's content after the change holds the planted marker. */
const CONTENT_CHECK = `export function validate(event) {
  const bad = event.files.filter((f) => typeof f.after === 'string' && f.after.includes('PLANTED_SECRET'));
  if (!bad.length) return { passed: true, violations: [], summary: 'clean' };
  return { passed: false, violations: bad.map((f) => ({ rule: 'planted', file: f.relPath, line: 1 })), summary: 'planted' };
}`;

/** Script validators exporting validate() run in-process. */
const WORKER = { AVP_SCRIPT_WORKER: '1' };

function setup(agent: string): Project {
  const p = project({ agent });
  p.write('src/pay.ts', 'export const price = 42;\nexport const tax = 7;\n');
  p.validator('content-check', {}, CONTENT_CHECK, 'check.mjs');
  return p;
}

/** The real Cline CLI's captured `editor` call, moved into the project, with another input. */
function clineCall(p: Project, input: Record<string, unknown>) {
  const fixture = join(import.meta.dir, '../fixtures/hook/cline/hook-input-cli-tool_call-editor-edit.json');
  const call = JSON.parse(readFileSync(fixture, 'utf8').replaceAll('/home/dev/project', p.root));
  const args = { path: join(p.root, 'src/pay.ts'), ...input };
  call.tool_call.input = args;
  call.preToolUse.parameters = args;
  return call;
}

function kiroCall(p: Project, input: Record<string, unknown>) {
  return {
    hook_event_name: 'preToolUse',
    cwd: p.root,
    tool_name: 'fs_write',
    tool_input: { path: join(p.root, 'src/pay.ts'), ...input },
  };
}

describe('an inserted secret is refused before the tool runs', () => {
  test('Cline CLI: editor with insert_line', async () => {
    const p = setup('cline');
    const bad = await p.hook(clineCall(p, { new_text: 'const key = "PLANTED_SECRET";', insert_line: 1 }), WORKER);
    expect(bad.json).toMatchObject({ cancel: false, overrideInput: null });
    expect(bad.json.errorMessage).toContain('content-check');
    const ok = await p.hook(clineCall(p, { new_text: 'const key = process.env.KEY;', insert_line: 1 }), WORKER);
    expect(ok.json?.overrideInput).toBeUndefined();
  });

  test('Kiro: fs_write insert and append', async () => {
    const p = setup('kiro');
    for (const input of [
      { command: 'insert', insert_line: 2, new_str: 'const key = "PLANTED_SECRET";' },
      { command: 'append', new_str: 'const key = "PLANTED_SECRET";' },
    ]) {
      const bad = await p.hook(kiroCall(p, input), WORKER);
      expect({ input, code: bad.code }).toEqual({ input, code: 2 });
      expect(bad.stderr).toContain('content-check');
    }
    const ok = await p.hook(kiroCall(p, { command: 'append', new_str: 'export const fee = 1;' }), WORKER);
    expect(ok.code).toBe(0);
  });
});
