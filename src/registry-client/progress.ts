import type { ProgressFn } from './http.ts';

/**
 * A one-line byte counter on stderr for downloads and uploads — only on a terminal and never with --quiet or --json
 * (scripts and CI logs get no carriage-return noise). Commands create it; library code only calls the callback.
 */
export function terminalProgress(
  label: string,
  opts: { quiet?: boolean; json?: boolean } = {},
): { onProgress?: ProgressFn; done(): void } {
  if (opts.quiet || opts.json || !process.stderr.isTTY) return { done() {} };
  let shown = false;
  let last = 0;
  const kib = (n: number) => (n < 1024 * 1024 ? `${Math.ceil(n / 1024)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);
  return {
    onProgress(done, total) {
      const now = Date.now();
      if (now - last < 50 && (!total || done < total)) return;
      last = now;
      shown = true;
      const pct = total ? ` ${Math.floor((done / total) * 100)}%` : '';
      process.stderr.write(`\r${label}${pct} ${kib(done)}${total ? ` / ${kib(total)}` : ''}\u001b[K`);
    },
    done() {
      if (shown) process.stderr.write('\r\u001b[K');
    },
  };
}

/**
 * While a metadata request waits (search, info): after a second of silence a terminal shows what avp is waiting
 * for and for how long, so a registry that does not answer is never a frozen prompt. Nothing off a terminal.
 */
export function waitingNotice(label: string, opts: { quiet?: boolean; json?: boolean } = {}): { done(): void } {
  if (opts.quiet || opts.json || !process.stderr.isTTY) return { done() {} };
  const started = Date.now();
  let shown = false;
  const timer = setInterval(() => {
    shown = true;
    process.stderr.write(`\r${label}… ${Math.round((Date.now() - started) / 1000)} s (Ctrl-C to stop)\u001b[K`);
  }, 1000);
  return {
    done() {
      clearInterval(timer);
      if (shown) process.stderr.write('\r\u001b[K');
    },
  };
}
