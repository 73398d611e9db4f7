/**
 * Reads the hook input from stdin with a size cap and a time limit: a hook must never hang on a terminal or an
 * unclosed pipe, and never buffer an unbounded document. Throws AvpError('hook-input') with what to do.
 */
import { fstatSync, read, statSync } from 'node:fs';
import { AvpError } from '../errors.ts';

/** Claude Code's inputs are a few KB (a Write carries the file twice); 8 MiB leaves room for big files. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;
export const INPUT_TIMEOUT_MS = 10_000;
/** Real events nest a few levels (an MCP tool's arguments a few more); validators and judges walk the event
 * recursively, so a hostile document a million levels deep must stop here, not as a stack overflow in each of them. */
export const MAX_INPUT_DEPTH = 512;
const SCAN_FIRST_CHARS = 2 * 1024 * 1024;

const FIX =
  'avp hook is run by the agent with the event JSON on stdin, e.g. `echo \'{"hook_event_name":"Stop","cwd":"."}\' | avp hook`';

/**
 * The whole of stdin as text. Read with `fs.read` on fd 0, not `Bun.stdin`/`process.stdin`: setting up Bun's stdin
 * stream costs ~5 ms of CPU on every call (measured in bench/hook-cost.ts: a compiled program reading stdin through
 * `Bun.stdin.text()` costs 13.3 ms, through `fs.read` 8.5 ms), more than everything avp does on a no-match call but
 * discovery. A non-blocking stdin (EAGAIN) is polled; the time limit holds either way.
 */
export async function readStdin(opts: { maxBytes?: number; timeoutMs?: number } = {}): Promise<string> {
  const maxBytes = opts.maxBytes ?? MAX_INPUT_BYTES;
  const timeoutMs = opts.timeoutMs ?? INPUT_TIMEOUT_MS;
  if (stdinIsTerminal()) throw new AvpError('hook-input', 'no hook input: stdin is a terminal', { fix: FIX });
  const chunks: Buffer[] = [];
  let size = 0;
  const deadline = Date.now() + timeoutMs;
  let buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    const n = await readChunk(buffer, deadline, timeoutMs);
    if (n === 0) break;
    size += n;
    if (size > maxBytes) {
      throw new AvpError('hook-input', `the hook input is larger than ${maxBytes / 1024 / 1024} MiB`, {
        fix: 'this is not a hook event; avp reads one event JSON per call',
      });
    }
    chunks.push(buffer.subarray(0, n));
    // The chunk keeps its bytes: the next read goes into a fresh buffer (growing, so a 1 MB Write takes few reads).
    buffer = Buffer.allocUnsafe(Math.min(Math.max(buffer.length, size), 1024 * 1024));
  }
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

/**
 * Whether stdin is a terminal, without `process.stdin` or `node:tty` (each loads Node's stream modules, ~3 ms): a
 * character device other than /dev/null. Windows keeps Node's answer.
 */
function stdinIsTerminal(): boolean {
  if (process.platform === 'win32') return !!process.stdin.isTTY;
  try {
    const s = fstatSync(0);
    return s.isCharacterDevice() && s.rdev !== statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/** One read of fd 0 into `buffer` (0 at end of input), racing the time limit. */
function readChunk(buffer: Buffer, deadline: number, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new AvpError('hook-input', `no complete hook input on stdin after ${timeoutMs / 1000} s`, { fix: FIX })),
      Math.max(0, deadline - Date.now()),
    );
    const attempt = () =>
      read(0, buffer, 0, buffer.length, null, (error, n) => {
        if (error && (error as NodeJS.ErrnoException).code === 'EAGAIN' && Date.now() < deadline) {
          setTimeout(attempt, 5);
          return;
        }
        clearTimeout(timer);
        if (error && (error as NodeJS.ErrnoException).code === 'EOF') resolve(0);
        else if (error)
          reject(new AvpError('hook-input', `could not read the hook input: ${error.message}`, { fix: FIX }));
        else resolve(n);
      });
    attempt();
  });
}

/** Parses stdin text into a JSON value, with a message for each way it is not one. */
export function parseInput(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) throw new AvpError('hook-input', 'no hook input: stdin was empty', { fix: FIX });
  // Below 2 MiB a document nests at most a million levels, which the engine parses in a fraction of a second;
  // above it, a scan first, so that the largest hostile input costs no more than reading it (a big Write scans fast:
  // its text is a few long strings, skipped with native searches).
  const tooDeep = () =>
    new AvpError('hook-input', `the hook input nests deeper than ${MAX_INPUT_DEPTH} levels`, {
      fix: 'this is not a hook event from an agent; real events nest a few levels',
    });
  if (trimmed.length > SCAN_FIRST_CHARS && textNestsBeyond(trimmed, MAX_INPUT_DEPTH)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new AvpError(
      'hook-input',
      `the hook input is not JSON (${detail}): ${JSON.stringify(trimmed.slice(0, 80))}`,
      { fix: FIX },
    );
  }
  if (nestingBeyond(value, MAX_INPUT_DEPTH)) throw tooDeep();
  return value;
}

/**
 * True when the value nests deeper than the limit. The engine's JSON.parse is not recursive (a million levels parse
 * in a tenth of a second), so the bound is checked right after it, before anything recursive sees the value; the walk
 * is iterative and costs one step per object or array, never per byte (a 1 MB Write is a handful of steps).
 */
function nestingBeyond(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The same bound on the text, before parsing: brackets outside strings counted, strings skipped with indexOf (a
 * quote counts as closing when an even number of backslashes precede it). Malformed text is left to JSON.parse.
 */
function textNestsBeyond(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let end = text.indexOf('"', i + 1);
      while (end > 0 && backslashesBefore(text, end) % 2 === 1) end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      i = end;
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

function backslashesBefore(text: string, at: number): number {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 92) n++;
  return n;
}
