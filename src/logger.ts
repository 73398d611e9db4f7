import type { ConsolaInstance } from 'consola';
import { redactUserinfo } from './redact.ts';

let instance: ConsolaInstance | undefined;

/**
 * Whether to colour what goes to `stream`: FORCE_COLOR (any value but 0/false) forces it, NO_COLOR (any value)
 * turns it off, and otherwise only a terminal gets colour (never a pipe, a file or TERM=dumb).
 */
export function useColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** `text` without terminal colour codes. */
export function stripColour(text: string): string {
  // biome-ignore lint: the escape character is exactly what this removes
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * The human-facing logger, on stderr only (stdout is data). consola costs ~40 ms to import in a compiled binary, so
 * it is loaded on first use and never on the hook path. consola decides on colour from stdout; the wrapper decides
 * from stderr, where the lines go, so `avp list 2>file` writes no escape codes into the file.
 */
export async function logger(): Promise<ConsolaInstance> {
  if (instance) return instance;
  const { createConsola } = await import('consola');
  const err = process.stderr;
  const colour = useColour(err);
  const stream = {
    // Every line goes through the redaction of URL passwords (a registry URL may carry one for a proxy).
    write: (text: string) => err.write(redactUserinfo(colour ? text : stripColour(text))),
    get columns() {
      return err.columns;
    },
    isTTY: err.isTTY,
  } as unknown as NodeJS.WriteStream;
  instance = createConsola({ stdout: stream, stderr: stream, level: process.env.AVP_QUIET ? 1 : 3 }).withTag('avp');
  return instance;
}
