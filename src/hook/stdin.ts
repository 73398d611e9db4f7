/**
 * Reads the hook input from stdin with a size cap and a time limit: a hook must never hang on a terminal or an
 * unclosed pipe, and never buffer an unbounded document. Throws AvpError('hook-input') with what to do.
 */
import { AvpError } from '../errors.ts';

/** Claude Code's inputs are a few KB (a Write carries the file twice); 8 MiB leaves room for big files. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;
export const INPUT_TIMEOUT_MS = 10_000;

const FIX =
  'avp hook is run by the agent with the event JSON on stdin, e.g. `echo \'{"hook_event_name":"Stop","cwd":"."}\' | avp hook`';

/** The whole of stdin as text. */
export async function readStdin(opts: { maxBytes?: number; timeoutMs?: number } = {}): Promise<string> {
  const maxBytes = opts.maxBytes ?? MAX_INPUT_BYTES;
  if (process.stdin.isTTY) throw new AvpError('hook-input', 'no hook input: stdin is a terminal', { fix: FIX });
  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new AvpError(
          'hook-input',
          `no complete hook input on stdin after ${(opts.timeoutMs ?? INPUT_TIMEOUT_MS) / 1000} s`,
          { fix: FIX },
        ),
      );
    }, opts.timeoutMs ?? INPUT_TIMEOUT_MS);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        throw new AvpError('hook-input', `the hook input is larger than ${maxBytes / 1024 / 1024} MiB`, {
          fix: 'this is not a hook event; avp reads one event JSON per call',
        });
      }
      chunks.push(value);
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses stdin text into a JSON value, with a message for each way it is not one. */
export function parseInput(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) throw new AvpError('hook-input', 'no hook input: stdin was empty', { fix: FIX });
  try {
    return JSON.parse(trimmed);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new AvpError(
      'hook-input',
      `the hook input is not JSON (${detail}): ${JSON.stringify(trimmed.slice(0, 80))}`,
      { fix: FIX },
    );
  }
}
