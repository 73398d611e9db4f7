/**
 * The README's Quickstart and "Your first script validator" blocks, run verbatim in a scratch project through the
 * compiled binary, offline: each `$ ` line runs in `sh` (heredocs included), must exit 0 (or the code its
 * `# exit N` comment names) and print the lines the README shows under it, in order (`…` stands for anything).
 * A README edit that breaks a command or changes what it prints fails here.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';

const README = resolve(import.meta.dir, '../../README.md');

interface Step {
  command: string;
  exit: number;
  expected: string[];
}

/** The first ```console block after `heading`, as steps. */
function consoleBlock(heading: string): Step[] {
  const text = readFileSync(README, 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README.md has no "${heading}" section`);
  const open = text.indexOf('```console\n', at);
  const close = text.indexOf('\n```\n', open);
  const lines = text.slice(open + '```console\n'.length, close).split('\n');
  const steps: Step[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('$ ')) {
      let command = line.slice(2);
      const heredoc = /<<'(\w+)'/.exec(command)?.[1];
      if (heredoc) {
        while (++i < lines.length && lines[i] !== heredoc) command += `\n${lines[i]}`;
        command += `\n${heredoc}`;
      }
      const exit = Number(/#\s*exit (\d+)\s*$/.exec(command.split('\n')[0]!)?.[1] ?? 0);
      steps.push({ command, exit, expected: [] });
    } else if (line.trim() && steps.length) steps[steps.length - 1]!.expected.push(line.trimEnd());
  }
  return steps;
}

/** A README output line as a pattern over one printed line: `…` is anything, the rest literal. */
function pattern(line: string): RegExp {
  return new RegExp(
    line
      .split('…')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  );
}

/** Runs the steps in order from `cwd`, following `cd`. */
async function run(steps: Step[], start: string, env: Record<string, string>): Promise<string> {
  let cwd = start;
  for (const step of steps) {
    const cd = /^cd (\S+)$/.exec(step.command);
    if (cd) {
      cwd = join(cwd, cd[1]!);
      continue;
    }
    const proc = Bun.spawnSync(['sh', '-c', step.command], { cwd, env, stdout: 'pipe', stderr: 'pipe' });
    const out = `${proc.stdout.toString()}${proc.stderr.toString()}`;
    const where = `\n$ ${step.command.split('\n')[0]}\n${out}`;
    expect(`${proc.exitCode}${where}`).toBe(`${step.exit}${where}`);
    const printed = out.split('\n');
    let from = 0;
    for (const want of step.expected) {
      const re = pattern(want);
      const hit = printed.findIndex((l, i) => i >= from && re.test(l));
      expect(hit >= 0 ? 'shown' : `not printed: ${want}${where}`).toBe('shown');
      from = hit + 1;
    }
  }
  return cwd;
}

describe("the README's Quickstart, verbatim (compiled binary, offline)", () => {
  test('every command succeeds with the output shown; init, add and the first script validator are accepted', async () => {
    const base = tempDir('avp-quickstart-');
    const home = join(base, 'home');
    const bin = join(base, 'bin');
    mkdirSync(bin, { recursive: true });
    mkdirSync(join(base, 'your-project'));
    symlinkSync(AVP_BIN, join(bin, 'avp'));
    // Offline: nothing listens on port 9, no judge on PATH or in the environment, no user configuration.
    const env = {
      PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      AVP_HOME: join(home, '.avp'),
      AVP_REGISTRY_URL: 'http://127.0.0.1:9',
      NO_COLOR: '1',
    };
    Bun.spawnSync(['git', 'init', '-q'], { cwd: join(base, 'your-project'), env });

    const quickstart = consoleBlock('## Quickstart');
    expect(quickstart.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toContain('avp init');
    expect(quickstart.some((s) => s.command.startsWith('avp add '))).toBe(true);
    const project = await run(quickstart, base, env);

    // init and add were the user's own changes: nothing waits for `avp accept`.
    const pending = await runAvp(['accept', '--dry-run', '--json'], { cwd: project, env });
    expect(JSON.parse(pending.stdout).changes).toEqual([]);

    await run(consoleBlock('### Your first script validator'), project, env);

    // Accepted: the agent's hook now blocks a TODO written through Write.
    const file = join(project, 'later.ts');
    await Bun.write(file, 'const x = 1; // TODO: later\n');
    const hook = await runAvp(['hook', '--agent', 'claude'], {
      cwd: project,
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      stdin: JSON.stringify({
        session_id: 'quickstart',
        transcript_path: '/dev/null',
        cwd: project,
        hook_event_name: 'PostToolUse',
        tool_name: 'Write',
        tool_input: { file_path: file, content: 'const x = 1; // TODO: later\n' },
        tool_response: { filePath: file, success: true },
      }),
    });
    expect(hook.code).toBe(0);
    const answer = JSON.parse(hook.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('[no-todo] later.ts:1');
  });
});
