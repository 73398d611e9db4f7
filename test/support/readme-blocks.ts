/**
 * The README's ```console blocks as steps, and a runner that checks each step's exit code and output lines:
 * shared by the Quickstart test (the compiled binary) and the fresh-clone test (the avp `npm run setup` installs).
 */
import { expect } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const README = resolve(import.meta.dir, '../../README.md');

export interface Step {
  command: string;
  exit: number;
  expected: string[];
}

/** The first ```console block after `heading`, as steps. */
export function consoleBlock(heading: string, readme = README): Step[] {
  const text = readFileSync(readme, 'utf8');
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
export function pattern(line: string): RegExp {
  return new RegExp(
    line
      .split('…')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  );
}

/** Runs the steps in order from `cwd`, following `cd`. */
export async function runSteps(steps: Step[], start: string, env: Record<string, string>): Promise<string> {
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
