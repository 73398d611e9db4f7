/** The hook memo tests' shared parts: a project gated by a validator that always fails; the calls that bring a memo. */
import { expect } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { project, sh, type Project } from './hook-support.ts';

const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);

export function writeEvent(p: Project) {
  const file = join(p.root, 'src/a.ts');
  return {
    session_id: 's1',
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content: 'const a = 1;\n' },
    tool_response: { type: 'create', filePath: file, content: 'const a = 1;\n' },
    tool_use_id: 't1',
  };
}

export const memoDir = (p: Project) => join(p.home, '.avp', 'cache', 'hook');
export const parseCache = (p: Project) => join(p.home, '.avp', 'cache', 'discovery');
export const gateFile = (p: Project) => join(p.root, '.avp/validators/gate/VALIDATOR.md');

/** A project whose `gate` validator blocks every Write; `before` runs before the user accepts it. */
export async function gatedProject(before?: (p: Project) => void): Promise<Project> {
  const p = project();
  p.validator('gate', { match: { tools: ['Write', 'Edit'] } }, FAILS);
  before?.(p);
  await p.accept();
  return p;
}

/** The gate's own block: the validator ran, not avp's fail-closed answer to an error of its own. */
export function gateBlocked(r: { json: any }) {
  expect(r.json.decision).toBe('block');
  expect(r.json.reason).toContain('[gate] src/a.ts:1: r');
}

/**
 * The calls that bring a memo, once the files are past the racy window: the first parses the validators (parse
 * cache), the second finds all cached and writes the memo; the third is answered from it.
 */
export async function settle(p: Project) {
  for (let i = 0; i < 2; i++) gateBlocked(await p.hook(writeEvent(p)));
  expect(readdirSync(memoDir(p))).toHaveLength(1);
  const held = await p.hook(writeEvent(p));
  gateBlocked(held);
  return held;
}
