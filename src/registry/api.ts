import { AvpError } from '../errors.ts';
import { ARCHIVE_LIMITS } from './archive-rules.ts';
import { httpError, networkError, readBody, type ProgressFn } from './http.ts';
import type {
  PackageDetail,
  PackageVersion,
  PublishResult,
  SearchResult,
  TokenExchange,
  UpdateInfo,
  VerifyResult,
  VersionList,
} from './types.ts';

/** Percent-encodes one path segment (`owner/repo` travels as `owner%2Frepo`). */
export const seg = (s: string) => encodeURIComponent(s);

/**
 * A client for the public AVP registry API, over the built-in fetch (no client library: the few calls need exact
 * control of redirects and headers — the token is only ever sent to the registry's own origin).
 */
export class RegistryClient {
  readonly base: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;

  constructor(base: string, opts: { token?: string; timeoutMs?: number } = {}) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw new AvpError('registry-url-invalid', `registry URL ${JSON.stringify(base)} is not a URL`, {
        fix: 'pass --registry https://host or set AVP_REGISTRY_URL to a full URL',
      });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new AvpError('registry-url-invalid', `registry URL ${base} must be http(s)`, {
        fix: 'use an https:// URL',
      });
    }
    this.base = base.replace(/\/+$/, '');
    this.token = opts.token;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  get hasToken(): boolean {
    return Boolean(this.token);
  }

  /**
   * One request. Redirects are followed by hand (at most 5) so that the Authorization header never leaves the
   * registry's origin (a download URL may point to a CDN or object store).
   */
  async request(
    method: string,
    path: string,
    init: {
      body?: RequestInit['body'];
      json?: unknown;
      auth?: boolean;
      headers?: Record<string, string>;
      timeoutMs?: number;
    } = {},
  ): Promise<Response> {
    let url = path.startsWith('http://') || path.startsWith('https://') ? path : `${this.base}${path}`;
    const origin = new URL(this.base).origin;
    for (let hop = 0; hop < 6; hop++) {
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'avp', ...init.headers };
      if (init.auth !== false && this.token && new URL(url).origin === origin)
        headers.authorization = `Bearer ${this.token}`;
      let body = init.body;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      }
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(init.timeoutMs ?? this.timeoutMs),
        });
      } catch (e) {
        throw networkError(url, e, this.token);
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url).toString();
        if (res.status === 303) method = 'GET';
        continue;
      }
      if (!res.ok) throw httpError(method, url, res.status, await res.text().catch(() => ''), this.token);
      return res;
    }
    throw new AvpError('registry-redirects', `too many redirects from ${path}`, { fix: 'check the registry URL' });
  }

  private async json<T>(method: string, path: string, init?: Parameters<RegistryClient['request']>[2]): Promise<T> {
    const res = await this.request(method, path, init);
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new AvpError('registry-bad-response', `${method} ${this.base}${path} answered something that is not JSON`, {
        fix: 'check that the URL is an AVP registry (it should answer /api/health)',
      });
    }
  }

  health(): Promise<Response> {
    return this.request('GET', '/api/health', { auth: false });
  }

  search(
    q: string,
    opts: { tag?: string; limit?: number; offset?: number; type?: string } = {},
  ): Promise<SearchResult> {
    const p = new URLSearchParams({ q, type: opts.type ?? 'validator' });
    if (opts.tag) p.set('tag', opts.tag);
    if (opts.limit !== undefined) p.set('limit', String(opts.limit));
    if (opts.offset !== undefined) p.set('offset', String(opts.offset));
    return this.json('GET', `/api/packages?${p}`);
  }

  detail(name: string): Promise<PackageDetail> {
    return this.json('GET', `/api/packages/${seg(name)}`);
  }

  latest(name: string): Promise<PackageVersion> {
    return this.json('GET', `/api/packages/${seg(name)}/latest`);
  }

  version(name: string, version: string): Promise<PackageVersion> {
    return this.json('GET', `/api/packages/${seg(name)}/${seg(version)}`);
  }

  versions(name: string): Promise<VersionList> {
    return this.json('GET', `/api/packages/${seg(name)}/versions`);
  }

  /** Downloads archive bytes from a Version's downloadUrl (absolute; redirects allowed), at most 10 MiB. */
  async download(url: string, progress?: ProgressFn): Promise<Uint8Array> {
    // The timeout covers reading the body too: allow a slow link 5 minutes for at most 10 MiB.
    const res = await this.request('GET', url, {
      headers: { accept: 'application/zip, application/octet-stream' },
      timeoutMs: 300_000,
    });
    try {
      return await readBody(res, url, ARCHIVE_LIMITS.maxCompressedBytes, progress);
    } catch (e) {
      if (e instanceof AvpError) throw e;
      throw networkError(url, e, this.token); // connection dropped or timed out mid-body
    }
  }

  /** Uploads a package zip as multipart part `package` (`package.zip`, application/zip). */
  publish(bytes: Uint8Array): Promise<PublishResult> {
    const form = new FormData();
    form.append('package', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), 'package.zip');
    return this.json('POST', '/api/packages', { body: form, timeoutMs: 300_000 });
  }

  async yank(name: string, version: string): Promise<void> {
    await (await this.request('DELETE', `/api/packages/${seg(name)}/${seg(version)}`)).body?.cancel();
  }

  async updates(installed: Array<{ name: string; version: string }>): Promise<UpdateInfo[]> {
    const r = await this.json<{ updates?: UpdateInfo[] }>('POST', '/api/packages/updates', { json: { installed } });
    return Array.isArray(r.updates) ? r.updates : [];
  }

  verify(): Promise<VerifyResult> {
    return this.json('GET', '/api/auth/cli/verify');
  }

  exchangeCode(code: string): Promise<TokenExchange> {
    return this.json('POST', '/api/auth/cli/token', { json: { code }, auth: false });
  }

  async revokeToken(): Promise<void> {
    await (await this.request('DELETE', '/api/auth/cli/token')).body?.cancel();
  }
}
