/**
 * The in-process path for JS/TS script validators that `export function validate(event)` (opt-in:
 * `AVP_SCRIPT_WORKER=1`): the module is imported in a Worker of the hook process instead of starting a second runtime.
 * Measured (bench/hook.ts) it saves nothing in the compiled binary — a Worker boots its own VM and transpiles the
 * module, which costs about what a new process does — so it is off by default. Terminated on timeout. Anything unusual
 * — the module does not
 * load, does not export `validate`, or the Worker dies — returns `fallback` and the script runs as a process.
 */

/**
 * The Worker's code: stdout is redirected to stderr so a script's `console.log` can never corrupt the hook's answer.
 */
const WORKER_SOURCE = `
const toErr = (...a) => console.error(...a);
console.log = toErr; console.info = toErr; console.debug = toErr;
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);
self.onmessage = async ({ data }) => {
  let mod;
  try {
    mod = await import(data.url);
  } catch (e) {
    postMessage({ kind: 'fallback', reason: 'import failed: ' + String(e && e.message || e) });
    return;
  }
  if (typeof mod.validate !== 'function') { postMessage({ kind: 'fallback', reason: 'no validate export' }); return; }
  try {
    const verdict = await mod.validate(data.event);
    postMessage({ kind: 'verdict', value: JSON.parse(JSON.stringify(verdict ?? null)) });
  } catch (e) {
    postMessage({ kind: 'error', message: String(e && e.stack || e).split('\\n').slice(0, 6).join('\\n') });
  }
};
`;

let workerUrl: string | undefined;

/** Cheap text test: only modules that visibly export `validate` are tried in-process. */
export function exportsValidate(source: string): boolean {
  return /\bexport\s+(?:async\s+)?function\s*\*?\s*validate\b|\bexport\s+(?:const|let|var)\s+validate\b|\bexport\s*\{[^}]*\bvalidate\b[^}]*\}/.test(
    source,
  );
}

export type WorkerOutcome =
  | { kind: 'verdict'; value: unknown }
  | { kind: 'error'; message: string }
  | { kind: 'aborted' }
  | { kind: 'fallback'; reason: string };

/** Imports `path` in a fresh Worker with `env` and calls its `validate(event)`. */
export function validateInWorker(
  path: string,
  event: unknown,
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<WorkerOutcome> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }));
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(workerUrl!, { env, smol: true });
    } catch (e) {
      resolve({ kind: 'fallback', reason: `no worker: ${(e as Error).message}` });
      return;
    }
    let done = false;
    const finish = (outcome: WorkerOutcome) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      worker.terminate();
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: 'aborted' });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (m: MessageEvent) => finish(m.data as WorkerOutcome);
    worker.onerror = (e: ErrorEvent) => finish({ kind: 'fallback', reason: `worker error: ${e.message}` });
    worker.addEventListener('close', () => finish({ kind: 'fallback', reason: 'the worker exited' }));
    worker.postMessage({ url: Bun.pathToFileURL(path).href, event });
  });
}
