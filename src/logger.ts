import type { ConsolaInstance } from 'consola';
import { redactUserinfo } from './redact.ts';

let instance: ConsolaInstance | undefined;

/**
 * The human-facing logger, on stderr only (stdout is data). consola costs ~40 ms to import in a compiled binary, so
 * it is loaded on first use and never on the hook path.
 */
export async function logger(): Promise<ConsolaInstance> {
  if (instance) return instance;
  const { createConsola } = await import('consola');
  // Every line goes through the redaction of URL passwords (a registry URL may carry one for a proxy).
  const out = Object.create(process.stderr, {
    write: { value: (s: string | Uint8Array) => process.stderr.write(typeof s === 'string' ? redactUserinfo(s) : s) },
  }) as NodeJS.WriteStream;
  instance = createConsola({
    stdout: out,
    stderr: out,
    level: process.env.AVP_QUIET ? 1 : 3,
  }).withTag('avp');
  return instance;
}
