/**
 * The shell guard's judgement of a command that writes a `.env` file the agents read (env-switches.ts): a `.env` is
 * not a control path — writing one is ordinary work — so such a command is refused only for what it puts there: a
 * switching line in its own text or in the words it expands to (`echo QWEN_CODE_SAFE_MODE=1 >> .qwen/.env`, a
 * heredoc, `sed -i`), or in a file it names whose current content holds one (`cp /tmp/x .env`). `cp .env.example
 * .env` and `echo DATABASE_URL=… >> .env` pass. Files are read only once a `.env` write is seen, and only small ones.
 */
import { readFileSync, statSync } from 'node:fs';
import { envSwitchLines, isAgentEnvFile, mentionedEnvSwitch } from './env-switches.ts';

/** A named file larger than this is not read (a `.env` template is a few KiB). */
const MAX_READ = 256 * 1024;

/** What one command writes to `.env` files, and the text and files that may be what it writes there. */
export class EnvWrites {
  /** The `.env` targets as the command spells them. */
  private readonly shown: string[] = [];
  /** The `.env` targets resolved (their own content is not a source). */
  private readonly targets = new Set<string>();
  /** The words the command's simple commands expand to (`"QWEN_CODE_SAFE"_MODE=1` reads as one word). */
  private readonly words: string[] = [];
  /** Every path the command names, resolved. */
  private readonly named = new Set<string>();

  /**
   * Notes a write to `path` (resolved, when known), when it is a `.env` file an agent reads; `named`: the command
   * names one in code it cannot read (`python -c "open('.env', 'a')…"`), which counts as a write.
   */
  target(shown: string, path?: string, named = false): void {
    if (!named && !isAgentEnvFile(path ?? shown) && !isAgentEnvFile(shown)) return;
    this.shown.push(shown);
    if (path) this.targets.add(path);
  }

  /**
   * Notes a patch the command applies (its inline text, or a patch file's path): one that changes a `.env` file is a
   * write there, and its added lines are what it writes.
   */
  patch(text: string | undefined, path?: string): void {
    const body = text ?? (path ? readSmall(path) : undefined);
    if (!body || !/^(?:\+\+\+|\*\*\* (?:Add|Update) File:|diff --git).*(?:^|[\s/])\.env\s*$/im.test(body)) return;
    this.shown.push(`a .env file (in its patch${path ? ` ${path}` : ''})`);
    this.words.push(body);
  }

  /** Notes a word the command expands to, and its path when it can be one. */
  word(text: string, path?: string): void {
    this.words.push(text);
    if (path) this.named.add(path);
  }

  /** Why the command is refused: it writes a `.env` and carries a switching line. Undefined when it does not. */
  verdict(command: string): string | undefined {
    if (!this.shown.length) return undefined;
    const where = this.shown[0]!;
    const said = mentionedEnvSwitch([command, ...this.words].join('\n'));
    if (said) return describe(where, said);
    for (const path of this.named) {
      if (this.targets.has(path)) continue;
      const row = envSwitchLines(readSmall(path))[0];
      if (row) return describe(where, row, path);
    }
    return undefined;
  }
}

function describe(where: string, row: string, from?: string): string {
  return from ? `it writes ${where} from ${from}, which holds ${row}` : `it writes ${where} and names ${row}`;
}

function readSmall(path: string): string | undefined {
  try {
    const s = statSync(path);
    if (!s.isFile() || s.size > MAX_READ) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
