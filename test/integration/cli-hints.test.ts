/**
 * avp's own hints must be runnable: every `avp <command> [--flag]` written in src/ strings, README.md and docs/*.md
 * names a command of the table and flags that command has. (`avp list --catalog` was a hint once; it never existed.)
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ArgDef, CommandDef } from 'citty';
import { AGENT_NAMES } from '../../src/agents/index.ts';
import { rootCommand } from '../../src/commands/usage.ts';
import { runAvp } from '../support/run-avp.ts';

const repo = join(import.meta.dir, '../..');

function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, ext));
    else if (name.endsWith(ext) && !name.includes('.generated.')) out.push(p);
  }
  return out;
}

interface Hint {
  where: string;
  text: string;
  /** Written as code (in backticks or at the start of a line), so its first word must be a command. */
  code: boolean;
}

/**
 * Every `avp <words…>` up to the end of its phrase (a backtick, a quote, a `#` comment, `\n`, the end of line). It is
 * code when it is a line of a fenced block or carries a flag; prose ("avp finds the validators") is checked only when
 * its first word is a command.
 */
export function extractHints(text: string, file: string): Hint[] {
  const out: Hint[] = [];
  const lines = text.split('\n');
  let fenced = false;
  for (const [n, line] of lines.entries()) {
    if (file.endsWith('.md') && line.trimStart().startsWith('```')) fenced = !fenced;
    for (const m of line.matchAll(/(^|[^\w./-])avp ([^`'"#]*)/g)) {
      // With BUN_BE_BUN=1 the binary is the Bun runtime, not avp: its command line is Bun's.
      if (/BUN_BE_BUN=1\s*$/.test(line.slice(0, m.index + m[1]!.length))) continue;
      const phrase = `avp ${m[2]!.split(/\\n|\s\/\s|\. |, /)[0]!}`.trim();
      const atStart = /^\s*(\$\s*)?$/.test(line.slice(0, m.index + m[1]!.length));
      const code = (fenced && atStart) || /\s--?[a-z]/.test(phrase);
      out.push({ where: `${relative(repo, file)}:${n + 1}`, text: phrase, code });
    }
  }
  return out;
}

type Def = CommandDef<any>;
const resolve = async <T>(x: unknown): Promise<T> => (typeof x === 'function' ? await x() : await x) as T;

/** The problem with one hint, or undefined when its command and flags exist. */
async function checkHint(hint: Hint): Promise<string | undefined> {
  const words = hint.text.split(/\s+/).slice(1);
  let cmd: Def = rootCommand;
  let first = true;
  let i = 0;
  for (; i < words.length; i++) {
    const subs = await resolve<Record<string, unknown> | undefined>(cmd.subCommands);
    const word = /^[a-z][a-z-]*/.exec(words[i]!)?.[0];
    if (!subs || !word || word !== words[i]!.replace(/[:;,.)]+$/, '')) break;
    if (!Object.hasOwn(subs, word)) {
      // Prose ("avp finds the validators") is not a hint; code must name a command.
      if (first && !hint.code) return undefined;
      if (!first && cmd.run) break;
      return `"${word}" is not a command`;
    }
    cmd = await resolve<Def>(subs[word]);
    first = false;
  }
  if (first) return undefined;
  const args = (await resolve<Record<string, ArgDef> | undefined>(cmd.args)) ?? {};
  const known = new Set(['--help']);
  for (const [name, def] of Object.entries(args)) {
    if (def.type === 'positional') continue;
    known.add(`--${name}`);
    if (def.type === 'boolean') known.add(`--no-${name}`);
  }
  for (const word of words.slice(i)) {
    for (const flag of word.match(/(?<![\w-])--[a-zA-Z][\w-]*/g) ?? []) {
      if (!known.has(flag)) return `${flag} is not a flag of this command`;
    }
  }
  return undefined;
}

describe("avp's own hints", () => {
  const sources = [...files(join(repo, 'src'), '.ts'), join(repo, 'README.md'), ...files(join(repo, 'docs'), '.md')];
  const hints = sources.flatMap((f) => extractHints(readFileSync(f, 'utf8'), f));

  test('the extraction finds the hints it must check (a broken extractor would pass everything)', () => {
    const texts = hints.map((h) => h.text);
    expect(texts).toContain('avp check --staged');
    expect(texts.some((t) => t.startsWith('avp list --available'))).toBe(true);
    expect(hints.length).toBeGreaterThan(100);
  });

  test('the checker refuses a flag or command that does not exist', async () => {
    const where = 'test';
    expect(await checkHint({ where, text: 'avp list --catalog', code: true })).toContain('--catalog');
    expect(await checkHint({ where, text: 'avp registry tokens list', code: true })).toContain('tokens');
    expect(await checkHint({ where, text: 'avp lsit', code: true })).toContain('lsit');
    expect(await checkHint({ where, text: 'avp deinit --project\\|--local\\|--al', code: true })).toContain('--al');
    expect(await checkHint({ where, text: 'avp finds the validators', code: false })).toBeUndefined();
    expect(await checkHint({ where, text: 'avp registry token create --name <you>', code: false })).toBeUndefined();
  });

  test('every hint in src/, README.md and docs/ names a command and flags that exist', async () => {
    const bad: string[] = [];
    for (const hint of hints) {
      const problem = await checkHint(hint);
      if (problem) bad.push(`${hint.where}: \`${hint.text}\`: ${problem}`);
    }
    expect(bad).toEqual([]);
  });

  test('a hint the checker accepts is accepted by the binary too (same command table)', async () => {
    const r = await runAvp(['list', '--available', '--help']);
    expect(r.code).toBe(0);
    const bad = await runAvp(['list', '--catalog']);
    expect(bad.code).toBe(2);
  });

  test('the --agent help of hook, init, deinit and list names every agent the adapter table has', async () => {
    const missing: string[] = [];
    for (const command of ['hook', 'init', 'deinit', 'list']) {
      const r = await runAvp([command, '--help']);
      expect(r.code).toBe(0);
      const agentLine = r.stdout.split('\n').find((l) => l.trim().startsWith('--agent')) ?? '';
      for (const name of AGENT_NAMES)
        if (!new RegExp(`\\b${name}\\b`).test(agentLine)) missing.push(`${command}: ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
