/**
 * Reads the hook input from stdin with a size cap and a time limit: a hook must never hang on a terminal or an
 * unclosed pipe, and never buffer an unbounded document. Throws AvpError('hook-input') with what to do.
 */
import { fstatSync, read, statSync } from 'node:fs';
import { AvpError } from '../errors.ts';
import { FIX, INPUT_TIMEOUT_MS, inputTimedOut, inputTooLarge, inputUnreadable, MAX_INPUT_BYTES } from './input.ts';

export { MAX_INPUT_BYTES, MAX_INPUT_DEPTH, INPUT_TIMEOUT_MS, parseInput } from './input.ts';

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
    if (size > maxBytes) throw inputTooLarge(maxBytes);
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
    const timer = setTimeout(() => reject(inputTimedOut(timeoutMs)), Math.max(0, deadline - Date.now()));
    const attempt = () =>
      read(0, buffer, 0, buffer.length, null, (error, n) => {
        if (error && (error as NodeJS.ErrnoException).code === 'EAGAIN' && Date.now() < deadline) {
          setTimeout(attempt, 5);
          return;
        }
        clearTimeout(timer);
        if (error && (error as NodeJS.ErrnoException).code === 'EOF') resolve(0);
        else if (error) reject(inputUnreadable(error.message));
        else resolve(n);
      });
    attempt();
  });
}
