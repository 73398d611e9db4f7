import type { ConsolaInstance } from 'consola';

let instance: ConsolaInstance | undefined;

/**
 * The human-facing logger, on stderr only (stdout is data). consola costs ~40 ms to import in a compiled binary, so
 * it is loaded on first use and never on the hook path.
 */
export async function logger(): Promise<ConsolaInstance> {
  if (instance) return instance;
  const { createConsola } = await import('consola');
  instance = createConsola({
    stdout: process.stderr,
    stderr: process.stderr,
    level: process.env.AVP_QUIET ? 1 : 3,
  }).withTag('avp');
  return instance;
}
