import { AvpError } from '../src/errors.ts';

/**
 * Where `downloadUrl`s point. A configured `--base-url` always wins. Without one, the request's own origin is used
 * only when it names this machine (`localhost`, `127.x`, `[::1]`): a `Host` header is whatever the client sends, so
 * on a server reachable from elsewhere it would let anyone make the registry hand out download links to their host
 * (poisoned caches, DNS rebinding). Any other Host gets the server's own listening URL.
 */
export function baseUrlFor(fixed: string | undefined, own: () => string): (req: Request) => string {
  if (fixed) return () => fixed;
  return (req) => {
    const origin = new URL(req.url).origin;
    return isLoopbackHost(new URL(origin).hostname) ? origin : own();
  };
}

/** True for host names that can only mean this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** A server listening beyond loopback must be told its public URL (`--base-url`): refuse to start otherwise. */
export function requireBaseUrl(host: string, baseUrl: string | undefined): void {
  if (baseUrl || isLoopbackHost(host)) return;
  throw new AvpError(
    'registry-base-url-required',
    `--host ${host} serves beyond this machine, and without --base-url download links would be built from each ` +
      "request's Host header, which any client can forge",
    { fix: `pass the public URL clients use, e.g. --base-url https://registry.example.com (or serve on 127.0.0.1)` },
  );
}
