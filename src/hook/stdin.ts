/**
 * Reads the hook input from stdin with a size cap and a time limit: a hook must never hang on a terminal or an
 * unclosed pipe, and never buffer an unbounded document. One reader for the hook shortcut and the full path, with no
 * node: built-in (the shortcut loads it before anything else): `Bun.file(0)`, not `Bun.stdin`/`process.stdin`, whose
 * stream set-up costs ~5 ms of CPU per call (bench/hook-cost.ts' floors).
 */
import { AvpError } from '../errors.ts';
import { FIX, INPUT_TIMEOUT_MS, inputTimedOut, inputTooLarge, inputUnreadable, MAX_INPUT_BYTES } from './input.ts';

export { MAX_INPUT_BYTES, MAX_INPUT_DEPTH, INPUT_TIMEOUT_MS, parseInput } from './input.ts';

/** What a read of stdin gives: its text, the error that stopped it, or a terminal (nothing read). */
export type StdinRead = { text: string } | { error: AvpError } | 'terminal';

/**
 * The whole of stdin, or why not: past the size limit or the time limit, unreadable, or a terminal (`'terminal'`:
 * nothing is read from one). Read as `Bun.file(0)` sliced to one byte past the limit (no more is ever buffered), and
 * decoded as it is read: bytes first and a decoder after held the input twice (a 1 MB Write, measured side by side:
 * +1.2 ms of CPU, +1.7 MB). Whether stdin is a terminal is asked only when no input came at once (the first file-system
 * call costs as much as the rest of the read): an agent's input is in the pipe by then.
 */
export async function readStdin(timeoutMs = INPUT_TIMEOUT_MS): Promise<StdinRead> {
  try {
    const read = Bun.file(0)
      .slice(0, MAX_INPUT_BYTES + 1)
      .text();
    let text = await within(read, TERMINAL_CHECK_MS);
    if (text === LATE) {
      if (await stdinIsTerminal()) return 'terminal';
      text = await within(read, Math.max(1, timeoutMs - TERMINAL_CHECK_MS));
      if (text === LATE) return { error: inputTimedOut(timeoutMs) };
    }
    if (pastLimit(text)) return { error: inputTooLarge(MAX_INPUT_BYTES) };
    return { text };
  } catch (e) {
    return { error: inputUnreadable(e instanceof Error ? e.message : String(e)) };
  }
}

/** How long a read may take before stdin is asked whether it is a terminal (an agent's input is there by then). */
const TERMINAL_CHECK_MS = 5;
const LATE = Symbol('late');

/**
 * `promise`'s outcome, or LATE after `ms`: one timer, cleared when the promise settles first. Not `Promise.race`,
 * whose first call costs the hook shortcut's every answer (hook/shortcut/answer.ts, "Plain loops").
 */
function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(LATE), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * Whether the text read came from more than MAX_INPUT_BYTES bytes. Every UTF-16 unit of decoded text stands for at
 * most 3 bytes of input, so only a text that long is measured. A read cut at the limit ends in a partial character,
 * decoded as U+FFFD (3 bytes for the 1–3 it replaced): it measures past the limit. So would an input near the limit
 * with invalid UTF-8 in it (each bad byte measures 3) — not an agent's event either way.
 */
function pastLimit(text: string): boolean {
  return text.length * 3 > MAX_INPUT_BYTES && Buffer.byteLength(text, 'utf8') > MAX_INPUT_BYTES;
}

/** The time limit on stdin: `AVP_STDIN_TIMEOUT_MS` when it is a positive whole number, as the full path reads it. */
export function stdinTimeout(env: NodeJS.ProcessEnv): number {
  const wait = Number(env.AVP_STDIN_TIMEOUT_MS);
  return Number.isInteger(wait) && wait > 0 ? wait : INPUT_TIMEOUT_MS;
}

/** A character device other than /dev/null (Windows: Node's answer). Exported for its test. */
export async function stdinIsTerminal(): Promise<boolean> {
  if (process.platform === 'win32') return !!process.stdin.isTTY;
  const stdin = await Bun.file(0)
    .stat()
    .catch(() => undefined);
  if (!stdin?.isCharacterDevice()) return false;
  const nul = await Bun.file('/dev/null')
    .stat()
    .catch(() => undefined);
  return stdin.rdev !== nul?.rdev;
}

/** Why a terminal on stdin is no hook input. */
export function stdinIsATerminal(): AvpError {
  return new AvpError('hook-input', 'no hook input: stdin is a terminal', { fix: FIX });
}

/** The text of stdin, for the full path: throws AvpError('hook-input') with what to do. */
export async function readStdinText(timeoutMs = INPUT_TIMEOUT_MS): Promise<string> {
  const read = await readStdin(timeoutMs);
  if (read === 'terminal') throw stdinIsATerminal();
  if ('error' in read) throw read.error;
  return read.text;
}
