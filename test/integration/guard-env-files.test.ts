/**
 * `.env` lines that switch hooks off for the next session, tried as an agent that wants avp off: Qwen Code (0.24,
 * checked with the real CLI) runs no hook at all with `QWEN_CODE_SAFE_MODE=1` read from a project's `.env` /
 * `.qwen/.env`, `~/.qwen/.env` or `~/.env`, and moves its system settings with `QWEN_CODE_SYSTEM_SETTINGS_PATH` there;
 * the next session never calls avp to be told. Through the compiled binary, no validator installed, with Qwen Code's,
 * Gemini CLI's and Claude Code's input shapes (and Codex's apply_patch): such a line written through a file tool or
 * a plain shell command is refused before it lands; ordinary `.env` lines pass; one written behind avp's back is
 * announced at the next hook call. Before: every one of them passed silently (a `.env` was not avp's business).
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp } from '../support/run-avp.ts';
import { BIN, project, type Project } from './hook-support.ts';

type Doc = Record<string, any>;

async function initProject(agent: 'claude' | 'qwen' | 'gemini' | 'codex') {
  const p = project({ acceptFirst: false, agent });
  const env = { HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root, PATH: '/usr/bin:/bin' };
  const args = ['init', '--agent', agent, '--no-validators', ...(agent === 'claude' ? ['--command', 'avp hook'] : [])];
  expect((await runAvp(args, { bin: BIN, cwd: p.root, env })).code).toBe(0);
  return { p, env };
}

const denied = (r: { json: Doc }) =>
  r.json?.hookSpecificOutput?.permissionDecision === 'deny' || r.json?.decision === 'deny';
const said = (r: { json: Doc }) => JSON.stringify(r.json ?? {});

/** One agent's before-write and before-shell inputs. */
interface Shapes {
  write(path: string, content: string): Doc;
  edit(path: string, from: string, to: string): Doc;
  shell(command: string): Doc;
}

const shapes = (agent: 'claude' | 'qwen' | 'gemini', p: Project): Shapes => {
  const event = agent === 'gemini' ? 'BeforeTool' : 'PreToolUse';
  const base = { session_id: `${agent}-1`, cwd: p.root, hook_event_name: event, tool_use_id: 't1' };
  const names = agent === 'claude' ? ['Write', 'Edit', 'Bash'] : ['write_file', 'replace', 'run_shell_command'];
  return {
    write: (file_path, content) => ({ ...base, tool_name: names[0], tool_input: { file_path, content } }),
    edit: (file_path, old_string, new_string) => ({
      ...base,
      tool_name: names[1],
      tool_input: { file_path, old_string, new_string },
    }),
    shell: (command) => ({ ...base, tool_name: names[2], tool_input: { command } }),
  };
};

for (const agent of ['qwen', 'claude', 'gemini'] as const) {
  describe(`${agent}: .env lines that switch hooks off`, () => {
    test('file tools: a Write or Edit adding a switching line is refused; ordinary lines pass', async () => {
      const { p, env } = await initProject(agent);
      const s = shapes(agent, p);
      writeFileSync(join(p.root, '.env'), 'DATABASE_URL=postgres://localhost/app\n');
      mkdirSync(join(p.home, '.qwen'), { recursive: true });
      const refused: Array<[string, Doc]> = [
        [join(p.root, '.qwen/.env'), s.write(join(p.root, '.qwen/.env'), 'QWEN_CODE_SAFE_MODE=1\n')],
        [join(p.home, '.env'), s.write(join(p.home, '.env'), 'QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/mine.json\n')],
        [join(p.home, '.qwen/.env'), s.write(join(p.home, '.qwen/.env'), 'export QWEN_CODE_SIMPLE="true"\n')],
        [join(p.root, '.env'), s.write(join(p.root, '.env'), 'DATABASE_URL=x\nAVP_DISABLE=1\n')],
        [
          join(p.root, '.env'),
          s.edit(join(p.root, '.env'), 'DATABASE_URL=postgres://localhost/app', 'QWEN_CODE_SAFE_MODE=1'),
        ],
      ];
      for (const [path, input] of refused) {
        const r = await p.hook(input, env);
        expect({ path, denied: denied(r) }).toEqual({ path, denied: true });
        expect(said(r)).toContain('Only the user sets it');
      }
      const passed = [
        s.write(join(p.root, '.env'), 'DATABASE_URL=postgres://localhost/app\nOPENAI_API_KEY=\n'),
        s.edit(join(p.root, '.env'), 'postgres://localhost/app', 'postgres://db/app'),
        s.write(join(p.root, '.qwen/.env'), 'QWEN_CODE_SAFE_MODE=0\n'),
      ];
      for (const input of passed) expect(denied(await p.hook(input, env))).toBe(false);
    });

    test('shell: writing a switching line into a .env is refused before it runs; ordinary writes pass', async () => {
      const { p, env } = await initProject(agent);
      const s = shapes(agent, p);
      writeFileSync(join(p.root, '.env.example'), 'PORT=3000\n');
      writeFileSync(join(p.root, 'defaults.txt'), 'QWEN_CODE_SAFE_MODE=1\n');
      for (const command of [
        'echo QWEN_CODE_SAFE_MODE=1 >> .qwen/.env',
        "printf 'QWEN_CODE_SYSTEM_SETTINGS_PATH=%s\\n' /tmp/x.json >> ~/.qwen/.env",
        "cat >> ~/.env <<'EOF'\nQWEN_CODE_SIMPLE=1\nEOF",
        'echo AVP_SUBAGENT=1 | tee -a .env',
        'cp defaults.txt .env',
      ]) {
        const r = await p.hook(s.shell(command), env);
        expect({ command, denied: denied(r) }).toEqual({ command, denied: true });
        expect(said(r)).toContain('Only the user sets it');
      }
      for (const command of ['echo DATABASE_URL=postgres://localhost/app >> .env', 'cp .env.example .env'])
        expect({ command, denied: denied(await p.hook(s.shell(command), env)) }).toEqual({ command, denied: false });
    });
  });
}

describe('codex: apply_patch (a patch is judged on the file it leaves)', () => {
  test('a patch adding a switching line to a .env is refused; one adding an ordinary line passes', async () => {
    const { p, env } = await initProject('codex');
    const patch = (line: string) =>
      p.hook(
        {
          session_id: 'c1',
          cwd: p.root,
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: {
            command: `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: .env\n+${line}\n*** End Patch\nPATCH`,
          },
          tool_use_id: 'c-1',
        },
        env,
      );
    const r = await patch('QWEN_CODE_SAFE_MODE=1');
    expect(denied(r)).toBe(true);
    expect(said(r)).toContain('QWEN_CODE_SAFE_MODE=1');
    expect(denied(await patch('PORT=3000'))).toBe(false);
  });
});

describe('a switching .env line written behind avp back (a script, an obfuscated command)', () => {
  test('the next hook call says hooks were switched off; ordinary .env edits say nothing', async () => {
    const { p, env } = await initProject('qwen');
    writeFileSync(join(p.root, '.env'), 'DATABASE_URL=postgres://localhost/app\n');
    const call = () =>
      p.hook(
        { session_id: 'q2', cwd: p.root, hook_event_name: 'PreToolUse', tool_name: 'read_file', tool_input: {} },
        env,
      );
    expect((await call()).code).toBe(0); // the first call accepts the project as it is
    mkdirSync(join(p.root, '.qwen'), { recursive: true });
    writeFileSync(join(p.root, '.qwen/.env'), 'PORT=3000\n');
    writeFileSync(join(p.root, '.env'), 'DATABASE_URL=postgres://db/app\nAPI_KEY=abc\n');
    const calm = said(await call());
    expect(calm).not.toContain('the hooks that call avp were changed');
    expect(calm).not.toContain('.env');

    writeFileSync(join(p.root, '.qwen/.env'), 'PORT=3000\nQWEN_CODE_SAFE_MODE=1\n');
    const told = said(await call());
    expect(told).toContain('the hooks that call avp were changed outside `avp init`');
    expect(told).toContain('.qwen/.env (it now has QWEN_CODE_SAFE_MODE=1)');
    expect(told).not.toContain('postgres'); // the file's other lines (secrets) are never quoted

    mkdirSync(join(p.home, '.qwen'), { recursive: true });
    writeFileSync(join(p.home, '.env'), 'QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/mine.json\n');
    expect(said(await call())).toContain('~/.env (it now has QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/mine.json)');

    // The user set them on purpose: `avp accept` in their terminal (the diff shows the switching lines only).
    const dry = await runAvp(['accept', '--dry-run'], { bin: BIN, cwd: p.root, env });
    expect(dry.stdout + dry.stderr).toContain('QWEN_CODE_SAFE_MODE=1');
    expect(dry.stdout + dry.stderr).not.toContain('postgres');
    expect((await runAvp(['accept'], { bin: BIN, cwd: p.root, env })).code).toBe(0);
    expect(said(await call())).not.toContain('the hooks that call avp were changed');
  });
});
