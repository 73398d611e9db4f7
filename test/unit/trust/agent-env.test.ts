/**
 * Where `avp accept` refuses (docs/accepted-state.md), in-process: each documented environment marker and agent
 * program, read from the docs (never from the code's tables), plus the environment Qwen Code and Claude Code really
 * give their commands (captured fixtures). Through the binary: test/integration/documented-lists.test.ts.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentAncestor, agentFromEnv, runningUnderAgent } from '../../../src/trust/agent-env.ts';
import { tempDir } from '../../support/run-avp.ts';

const text = readFileSync(join(import.meta.dir, '../../../docs/accepted-state.md'), 'utf8').replace(/\s+/g, ' ');
function backticked(start: string, end: string): string[] {
  const from = text.indexOf(start);
  expect({ start, found: from >= 0 }).toEqual({ start, found: true });
  return [...text.slice(from + start.length, text.indexOf(end, from + start.length)).matchAll(/`([^`]+)`/g)].map(
    (m) => m[1]!,
  );
}
const MARKERS = backticked("carries an agent's marker (", '), or where');
const PROGRAMS = backticked("is an agent's program (", ')');
const fixtureEnv = (rel: string): Record<string, string> =>
  JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/hook', rel), 'utf8')).env;

const children: Array<{ kill: (signal?: number | NodeJS.Signals) => void }> = [];
const ONLY_LINUX = process.platform === 'linux' ? '' : ' [skipped: reads /proc]';
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('agentFromEnv', () => {
  test('the docs list sixteen markers', () => {
    expect(MARKERS).toHaveLength(16);
    expect(MARKERS).toContain('QWEN_CODE_CLI');
  });

  test.each(MARKERS)('%s alone marks an agent, and the answer names it', (marker) => {
    const found = agentFromEnv({ [marker]: '1' });
    expect(found).toBeDefined();
    expect(found).toContain(`${marker} is set`);
  });

  test('the generic markers name the agent they carry', () => {
    expect(agentFromEnv({ AGENT: 'amp' })).toBe('amp (AGENT is set)');
    expect(agentFromEnv({ AI_AGENT: 'kiro' })).toBe('kiro (AI_AGENT is set)');
  });

  test('the refusal names the agent each marker belongs to', () => {
    const agents: Record<string, string> = {
      CLAUDECODE: 'Claude Code',
      CLAUDE_CODE_ENTRYPOINT: 'Claude Code',
      GEMINI_CLI: 'Gemini CLI',
      QWEN_CODE: 'Qwen Code',
      QWEN_CODE_CLI: 'Qwen Code',
      QWEN_CODE_LAUNCHER_PID: 'Qwen Code',
      CODEX_SANDBOX: 'Codex',
      CODEX_CI: 'Codex',
      CODEX_THREAD_ID: 'Codex',
      CODEX_SHELL: 'Codex',
      CURSOR_AGENT: 'Cursor',
      OPENCODE: 'OpenCode',
      AUGMENT_AGENT: 'Augment',
      AVP_SUBAGENT: 'an avp judge',
    };
    for (const [marker, agent] of Object.entries(agents))
      expect(agentFromEnv({ [marker]: '1' })).toBe(`${agent} (${marker} is set)`);
  });

  test("Qwen Code's and Claude Code's captured environments are marked; a user's plain one is not", () => {
    const qwen = Object.fromEntries(
      Object.entries(fixtureEnv('qwen-code/hook-env-and-cwd.json')).filter(([k]) => k.startsWith('QWEN_CODE')),
    );
    expect(agentFromEnv(qwen)).toContain('Qwen Code');
    const claude = Object.fromEntries(
      Object.entries(fixtureEnv('claude-code/hook-env-and-cwd.json')).filter(([k]) => k.startsWith('CLAUDE_CODE')),
    );
    expect(agentFromEnv(claude)).toContain('Claude Code');
    expect(
      agentFromEnv({ HOME: '/home/me', PATH: '/usr/bin', TERM: 'xterm', CLAUDE_PROJECT_DIR: '/p' }),
    ).toBeUndefined();
    expect(agentFromEnv({ CLAUDECODE: '' })).toBeUndefined();
  });
});

describe('agentAncestor', () => {
  /** A process whose program is `name` (a symlink to sh), still running, and a child of this test. */
  function running(name: string, dir: string): number {
    const bin = join(dir, name);
    symlinkSync('/bin/sh', bin);
    // Two commands, so sh does not exec `sleep` in its place.
    const p = Bun.spawn([bin, '-c', 'sleep 30; :'], { stdout: 'ignore', stderr: 'ignore' });
    children.push(p);
    return p.pid;
  }

  test.skipIf(process.platform !== 'linux')(
    `each documented program is found among the ancestors${process.platform === 'linux' ? '' : ' [skipped: reads /proc]'}`,
    async () => {
      expect(PROGRAMS).toHaveLength(12);
      const dir = tempDir('avp-agent-programs-');
      const pids = PROGRAMS.map((name) => [name, running(name, dir)] as const);
      await Bun.sleep(100);
      for (const [name, pid] of pids)
        expect({ name, found: agentAncestor(pid) }).toEqual({
          name,
          found: `${name} (process ${pid} is an ancestor of this command)`,
        });
    },
  );

  test.skipIf(process.platform !== 'linux')(
    `a Node-based agent (node …/bin/qwen.js) is found by its script${process.platform === 'linux' ? '' : ' [skipped: reads /proc]'}`,
    async () => {
      const dir = tempDir('avp-agent-node-');
      symlinkSync('/bin/sh', join(dir, 'node'));
      writeFileSync(join(dir, 'qwen.js'), 'sleep 30; :\n');
      const p = Bun.spawn([join(dir, 'node'), join(dir, 'qwen.js')], { stdout: 'ignore', stderr: 'ignore' });
      children.push(p);
      await Bun.sleep(100);
      expect(agentAncestor(p.pid)).toBe(`qwen (process ${p.pid} is an ancestor of this command)`);
    },
  );

  test.skipIf(process.platform !== 'linux')(
    `the walk goes up through parents; the program is known by its name even under another argv[0]${ONLY_LINUX}`,
    async () => {
      const dir = tempDir('avp-agent-walk-');
      symlinkSync('/bin/sh', join(dir, 'codex'));
      // codex (argv[0] "worker") → sh → sh: the grandchild prints its pid, then waits.
      const p = Bun.spawn(
        ['bash', '-c', `exec -a worker ${join(dir, 'codex')} -c 'sh -c "echo \\$\\$; sleep 30; :"; :'`],
        {
          stdout: 'pipe',
          stderr: 'ignore',
        },
      );
      children.push(p);
      const reader = p.stdout.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      const grandchild = Number(first.trim());
      expect(grandchild).toBeGreaterThan(1);
      expect(agentAncestor(grandchild)).toBe(`codex (process ${p.pid} is an ancestor of this command)`);
    },
  );

  test('a process that is gone ends the walk without an answer', () => {
    expect(agentAncestor(4_194_303 + 1)).toBeUndefined();
  });

  // No negative case here: whether this test runner has an agent among its ancestors depends on who runs the suite.
  test('the environment is asked first', () => {
    expect(runningUnderAgent({ CODEX_SANDBOX: 'seatbelt' })).toBe('Codex (CODEX_SANDBOX is set)');
  });
});
