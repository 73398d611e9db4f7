/**
 * The hook input as text → one JSON value, with its limits (size, nesting) and the errors that say what is wrong.
 * No disk and no node: built-ins here: the hook shortcut (hook/shortcut/answer.ts) parses with it before anything
 * else is loaded, and the full path (hook/stdin.ts) reads stdin and then parses the same way.
 */
import { AvpError } from '../errors.ts';

/** Claude Code's inputs are a few KB (a Write carries the file twice); 8 MiB leaves room for big files. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;
export const INPUT_TIMEOUT_MS = 10_000;
/** Real events nest a few levels (an MCP tool's arguments a few more); validators and judges walk the event
 * recursively, so a hostile document a million levels deep must stop here, not as a stack overflow in each of them. */
export const MAX_INPUT_DEPTH = 512;
const SCAN_FIRST_CHARS = 2 * 1024 * 1024;

export const FIX =
  'avp hook is run by the agent with the event JSON on stdin, e.g. `echo \'{"hook_event_name":"Stop","cwd":"."}\' | avp hook`';

/** The input passed the size limit while being read. */
export function inputTooLarge(maxBytes: number): AvpError {
  return new AvpError('hook-input', `the hook input is larger than ${maxBytes / 1024 / 1024} MiB`, {
    fix: 'this is not a hook event; avp reads one event JSON per call',
  });
}

/** Reading stdin failed. */
export function inputUnreadable(message: string): AvpError {
  return new AvpError('hook-input', `could not read the hook input: ${message}`, { fix: FIX });
}

/** stdin stayed open past the time limit. */
export function inputTimedOut(timeoutMs: number): AvpError {
  return new AvpError('hook-input', `no complete hook input on stdin after ${timeoutMs / 1000} s`, { fix: FIX });
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
 * is iterative and costs one step per object or array, never per byte (a 1 MB Write is a handful of steps). Two
 * stacks and index loops, no destructuring or `for…of`: the hook shortcut parses with it (its "Plain loops").
 */
function nestingBeyond(value: unknown, limit: number): boolean {
  const nodes: unknown[] = [value];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < children.length; i++) {
      const child: unknown = children[i];
      if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(depth + 1);
      }
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
