import { statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/**
 * A plain static file server for an export (`avp registry export`), standing in for nginx or a CDN in tests and the
 * bench: `/x` is the file `x`, else `x/index.json`, else `x/index.html` (the web pages); nothing else (no queries,
 * no rewriting of bodies). Paths are decoded and confined to the export root.
 */
const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export function serveStaticExport(
  dir: string,
  opts: { port?: number; host?: string } = {},
): { url: string; stop(): Promise<void> } {
  const root = resolve(dir);
  const notFound = () =>
    new Response(JSON.stringify({ error: 'not_found', error_description: 'not in this static export' }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: opts.host ?? '127.0.0.1',
    fetch(req) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return new Response('read-only', { status: 405, headers: { allow: 'GET, HEAD' } });
      let path: string;
      try {
        path = resolve(root, `.${decodeURIComponent(new URL(req.url).pathname)}`);
      } catch {
        return notFound();
      }
      if (path !== root && !path.startsWith(root + sep)) return notFound();
      for (const candidate of [path, join(path, 'index.json'), join(path, 'index.html')]) {
        const st = statSync(candidate, { throwIfNoEntry: false });
        if (!st?.isFile()) continue;
        const type =
          TYPES[/\.[a-z]+$/.exec(candidate)?.[0] ?? ''] ??
          (candidate.endsWith('/download') ? 'application/zip' : 'application/octet-stream');
        return new Response(Bun.file(candidate), {
          headers: { 'content-type': type, 'x-content-type-options': 'nosniff' },
        });
      }
      return notFound();
    },
  });
  return { url: `http://${server.hostname}:${server.port}`, stop: () => server.stop(true) };
}
