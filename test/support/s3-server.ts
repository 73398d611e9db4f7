/**
 * A small S3-compatible object store on 127.0.0.1 for tests: path-style `PUT|GET|HEAD|DELETE /<bucket>/<key>`, what
 * Bun's S3 client sends for objects under the multipart threshold. Signatures are not checked (it stands in for
 * MinIO, not for IAM); every request is recorded so a test can see what the registry asked of its storage.
 */
export interface TestS3 {
  /** `http://127.0.0.1:<port>` — the `S3_ENDPOINT` to give the registry. */
  endpoint: string;
  bucket: string;
  /** Object keys currently stored (without the bucket). */
  keys(): string[];
  get(key: string): Uint8Array | undefined;
  put(key: string, bytes: Uint8Array): void;
  requests: Array<{ method: string; key: string }>;
  stop(): Promise<void>;
}

function xmlError(status: number, code: string): Response {
  const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;
  return new Response(body, { status, headers: { 'content-type': 'application/xml' } });
}

export function startS3(bucket = 'avp-archives'): TestS3 {
  const objects = new Map<string, Uint8Array>();
  const requests: TestS3['requests'] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      const prefix = `/${bucket}/`;
      if (!path.startsWith(prefix)) return xmlError(404, 'NoSuchBucket');
      const key = path.slice(prefix.length);
      requests.push({ method: req.method, key });
      if (req.method === 'PUT') {
        objects.set(key, new Uint8Array(await req.arrayBuffer()));
        return new Response(null, { status: 200, headers: { etag: '"x"' } });
      }
      const obj = objects.get(key);
      if (req.method === 'DELETE') {
        objects.delete(key);
        return new Response(null, { status: 204 });
      }
      if (!obj) return req.method === 'HEAD' ? new Response(null, { status: 404 }) : xmlError(404, 'NoSuchKey');
      const headers = { 'content-type': 'application/zip', 'content-length': String(obj.length), etag: '"x"' };
      return new Response(req.method === 'HEAD' ? null : obj, { headers });
    },
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    bucket,
    keys: () => [...objects.keys()].sort(),
    get: (key) => objects.get(key),
    put: (key, bytes) => void objects.set(key, bytes),
    requests,
    stop: () => server.stop(true),
  };
}
