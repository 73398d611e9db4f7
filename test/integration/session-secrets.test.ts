/**
 * No secret at rest: a hard-coded key the agent writes, that a validator blocks and the agent then fixes, leaves no
 * copy anywhere avp writes — not in session state (blobs of before/after contents, Bash snapshots), not in the run log
 * — and the session state that remains is private to the user. Through the compiled hook, every file of the sandbox
 * (project and avp home) searched.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_FINDER, project, sessionStateDir } from './hook-support.ts';

const KEY = 'sk-live-AtRest7f3a9c01';

/** Every regular file under `dir` (symlinks not followed). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(path));
    else if (e.isFile()) out.push(path);
  }
  return out;
}

describe('no secret at rest', () => {
  test('a blocked key write, a Bash call while it is on disk, then the fix: no file of the sandbox holds the key', async () => {
    const p = project();
    p.validator('no-keys', { match: { tools: ['Write', 'Edit', 'Bash'] } }, KEY_FINDER, 'check.ts');
    p.validator('stop-files', { trigger: 'Stop' }, `#!/bin/sh\ncat >/dev/null; echo '{"passed":true}'\n`);
    const session = { session_id: 's-secret', transcript_path: join(p.root, 't.jsonl'), cwd: p.root };
    const file = join(p.root, 'src/config.ts');
    const withKey = `const API_KEY = "${KEY}";\n`;
    const fixed = 'const API_KEY = process.env.API_KEY;\n';
    await p.hook({ ...session, hook_event_name: 'UserPromptSubmit', prompt: 'add the key' });

    p.write('src/config.ts', withKey);
    const write = await p.hook({
      ...session,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: file, content: withKey },
      tool_response: { type: 'create', filePath: file, content: withKey },
    });
    expect(write.json.decision).toBe('block');

    // A shell call while the key is on disk: its snapshot must not keep the untracked file's content either.
    const bash = { ...session, tool_name: 'Bash', tool_input: { command: 'ls src' }, tool_use_id: 'toolu_ls' };
    await p.hook({ ...bash, hook_event_name: 'PreToolUse' });
    await p.hook({ ...bash, hook_event_name: 'PostToolUse', tool_response: { stdout: 'config.ts', stderr: '' } });

    p.write('src/config.ts', fixed);
    const edit = p.fixture('hook-input-PostToolUse-Edit.json');
    edit.tool_input.old_string = edit.tool_response.oldString = `"${KEY}"`;
    edit.tool_response.originalFile = withKey;
    const fix = await p.hook({ ...edit, ...session });
    expect(fix.json?.decision).toBeUndefined();
    const stop = await p.hook({ ...session, hook_event_name: 'Stop', stop_hook_active: false });
    expect(stop.code).toBe(0);

    const state = sessionStateDir(p.home, p.root, 's-secret');
    const stateFiles = filesUnder(state);
    expect(stateFiles.some((f) => f.endsWith('events.jsonl'))).toBe(true);
    const holding = [...filesUnder(p.root), ...filesUnder(p.home)].filter((f) =>
      readFileSync(f).toString('latin1').includes(KEY),
    );
    expect(holding).toEqual([]);
    // What stays is the user's alone.
    for (const f of stateFiles) expect([f, statSync(f).mode & 0o077]).toEqual([f, 0]);
  });
});
