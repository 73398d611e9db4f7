import { AvpError } from '../errors.ts';
import { redactUserinfo } from '../redact.ts';
import { answers } from './answers.ts';
import { ARCHIVE_LIMITS } from './archive-rules.ts';
import {
  RESPONSE_LIMITS,
  httpError,
  networkError,
  readBody,
  silenceError,
  silenceFromEnv,
  timeoutError,
  timeoutFromEnv,
  type ProgressFn,
} from './http.ts';
import type {
  FuzzySearchResult,
  PackageDetail,
  PackageVersion,
  PublishResult,
  SearchResult,
  TokenExchange,
  UnpublishResult,
  UpdateInfo,
  VerifyResult,
  VersionList,
} from './types.ts';

/** Percent-encodes one path segment (`owner/repo` travels as `owner%2Frepo`). */
export const seg = (s: string) => encodeURIComponent(s);

type RequestInit2 = {
  body?: RequestInit['body'];
  json?: unknown;
  auth?: boolean;
  headers?: Record<string, string>;
  /** Only the registry itself may answer (a token check): a redirect to another origin is an error naming it. */
  sameOrigin?: boolean;
};

/** An answer with what reading its body needs: the final URL and the request's deadline. */
interface Sent {
  res: Response;
  method: string;
  url: string;
  deadline: number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * A client for the public AVP registry API, over the built-in fetch on purpose. ofetch would add its retry and its
 * one `timeout`, and neither fits: nothing is retried (a publish must not be sent twice; a failed command is run
 * again by its user), and a request has a silence limit beside its deadline. Redirects are followed by hand (the
 * token is only ever sent to the registry's own origin, a write never goes elsewhere) and every answer is read as a
 * stream under a byte cap.
 *
 * Every request has one deadline (AVP_REGISTRY_TIMEOUT seconds, default 60) covering redirects and reading the
 * answer; every answer is read under a size cap, on the wire and after gzip/deflate (RESPONSE_LIMITS).
 */
export class RegistryClient {
  /** The registry URL for messages and records: without a user or password. */
  readonly base: string;
  /** The URL requests go to (may carry userinfo for a proxy in front of the registry). */
  private readonly requestBase: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(base: string, opts: { token?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw new AvpError('registry-url-invalid', `registry URL ${JSON.stringify(redactUserinfo(base))} is not a URL`, {
        fix: 'pass --registry https://host or set AVP_REGISTRY_URL to a full URL',
      });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new AvpError('registry-url-invalid', `registry URL ${redactUserinfo(base)} must be http(s)`, {
        fix: 'use an https:// URL',
      });
    }
    this.requestBase = base.replace(/\/+$/, '');
    this.base = redactUserinfo(this.requestBase);
    this.token = opts.token;
    this.timeoutMs = opts.timeoutMs ?? timeoutFromEnv(opts.env);
    this.env = opts.env ?? process.env;
  }

  get hasToken(): boolean {
    return Boolean(this.token);
  }

  /**
   * One request, its redirects followed by hand (at most 5): the Authorization header never leaves the registry's
   * origin, a redirect may only lead to http(s), and a write (POST, DELETE) is never carried to another origin or
   * turned into a GET — a publish answered by someone else must not be reported as published.
   */
  private async send(method: string, path: string, init: RequestInit2 = {}): Promise<Sent> {
    const deadline = Date.now() + this.timeoutMs;
    let url = /^https?:\/\//.test(path) ? path : `${this.requestBase}${path}`;
    const origin = new URL(this.requestBase).origin;
    for (let hop = 0; hop < 6; hop++) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        'accept-encoding': 'gzip, deflate',
        'user-agent': 'avp',
        ...init.headers,
      };
      if (init.auth !== false && this.token && new URL(url).origin === origin)
        headers.authorization = `Bearer ${this.token}`;
      let body = init.body;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      }
      let res: Response;
      // A request without a body must hear back soon: silence is reported well before the whole deadline. An upload
      // may take long to send, so it only has the deadline. The silence limit ends when the answer starts: the body is
      // then read under the deadline alone (one signal for both would cut a slow download at the silence limit).
      const silence = body === undefined ? silenceFromEnv(this.env) : Infinity;
      const started = Date.now();
      const quiet = new AbortController();
      const silenceTimer =
        silence < deadline - started
          ? setTimeout(() => quiet.abort(new DOMException('silence', 'TimeoutError')), silence)
          : undefined;
      try {
        res = await fetch(url, {
          method,
          headers,
          body,
          redirect: 'manual',
          decompress: false,
          signal: AbortSignal.any([quiet.signal, AbortSignal.timeout(Math.max(1, deadline - Date.now()))]),
        } as RequestInit);
      } catch (e) {
        if (e instanceof Error && e.name === 'TimeoutError') {
          if (quiet.signal.aborted) throw silenceError(method, url, silence);
          throw timeoutError(method, url, this.timeoutMs);
        }
        throw networkError(url, e, this.token);
      } finally {
        clearTimeout(silenceTimer);
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel().catch(() => {});
        const next = this.nextHop(method, url, location, res.status);
        if (init.sameOrigin && new URL(next).origin !== origin)
          throw redirectError(
            method,
            url,
            `to ${redactUserinfo(next)}, another origin: only ${this.base} can say whether it accepts the token, ` +
              'so avp did not ask there',
          );
        url = next;
        continue;
      }
      if (!res.ok) {
        const text = await this.text({ res, method, url, deadline }, RESPONSE_LIMITS.errorBytes, 'error answer').catch(
          () => '',
        );
        throw httpError(method, url, res.status, text, this.token);
      }
      return { res, method, url, deadline };
    }
    throw new AvpError('registry-redirects', `too many redirects from ${redactUserinfo(path)}`, {
      fix: 'check the registry URL',
    });
  }

  /** Where a redirect may lead, or the error saying why it may not. */
  private nextHop(method: string, from: string, location: string, status: number): string {
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw redirectError(method, from, `to ${JSON.stringify(location.slice(0, 100))}, which is not a URL`);
    }
    if (next.protocol !== 'https:' && next.protocol !== 'http:') {
      throw redirectError(method, from, `to a ${next.protocol} URL; avp follows redirects to http(s) only`);
    }
    if (!SAFE_METHODS.has(method)) {
      if (next.origin !== new URL(from).origin)
        throw redirectError(method, from, `to another origin (${next.origin}); avp does not send writes elsewhere`);
      if (status !== 307 && status !== 308)
        throw redirectError(method, from, `with ${status}, which would turn the ${method} into a GET`);
    }
    return next.toString();
  }

  /** One request whose answer is not read (health, yank, logout): the body is discarded. */
  async request(method: string, path: string, init: RequestInit2 = {}): Promise<Response> {
    const sent = await this.send(method, path, init);
    await sent.res.body?.cancel().catch(() => {});
    return sent.res;
  }

  private async text(sent: Sent, maxBytes: number, what: string): Promise<string> {
    const bytes = await readBody(sent.res, { ...sent, maxBytes, timeoutMs: this.timeoutMs, what });
    return new TextDecoder().decode(bytes);
  }

  /** A JSON answer, read under the cap and checked by `check` (see answers.ts). */
  private async json<T>(
    method: string,
    path: string,
    check: (what: string, v: unknown) => T,
    init?: RequestInit2,
  ): Promise<T> {
    const sent = await this.send(method, path, init);
    const what = `${method} ${redactUserinfo(sent.url)}`;
    const text = await this.text(sent, RESPONSE_LIMITS.jsonBytes, 'a JSON answer');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new AvpError('registry-bad-response', `${what} answered something that is not JSON`, {
        fix: 'check that the URL is an AVP registry (it should answer /api/health)',
      });
    }
    return check(what, value);
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
    return this.json('GET', `/api/packages?${p}`, answers.search);
  }

  /**
   * `GET /api/search?q=&limit=` — the fuzzy search the reference's clients use. `type` is sent along (avp's server
   * honours it; others may ignore it, so callers filter too). A registry without it answers 404.
   */
  fuzzySearch(q: string, opts: { limit?: number; type?: string } = {}): Promise<FuzzySearchResult> {
    const p = new URLSearchParams({ q });
    if (opts.limit !== undefined) p.set('limit', String(opts.limit));
    if (opts.type) p.set('type', opts.type);
    return this.json('GET', `/api/search?${p}`, answers.fuzzy);
  }

  detail(name: string): Promise<PackageDetail> {
    return this.json('GET', `/api/packages/${seg(name)}`, answers.detail);
  }

  latest(name: string): Promise<PackageVersion> {
    return this.json('GET', `/api/packages/${seg(name)}/latest`, answers.version);
  }

  version(name: string, version: string): Promise<PackageVersion> {
    return this.json('GET', `/api/packages/${seg(name)}/${seg(version)}`, answers.version);
  }

  versions(name: string): Promise<VersionList> {
    return this.json('GET', `/api/packages/${seg(name)}/versions`, answers.versions);
  }

  /** Downloads archive bytes from a Version's downloadUrl (absolute; redirects allowed), at most 10 MiB. */
  async download(url: string, progress?: ProgressFn): Promise<Uint8Array> {
    const sent = await this.send('GET', url, { headers: { accept: 'application/zip, application/octet-stream' } });
    return readBody(sent.res, {
      ...sent,
      maxBytes: ARCHIVE_LIMITS.maxCompressedBytes,
      timeoutMs: this.timeoutMs,
      progress,
      what: 'download',
    });
  }

  /** Uploads a package zip as multipart part `package` (`package.zip`, application/zip). */
  publish(
    bytes: Uint8Array,
    tests?: { cases: number; failed: number; publishedWithFailing: boolean },
  ): Promise<PublishResult> {
    const form = new FormData();
    form.append('package', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), 'package.zip');
    // The publisher's run of the package's script cases (avp's own registry stores it; others ignore the part).
    if (tests) form.append('tests', JSON.stringify(tests));
    return this.json('POST', '/api/packages', answers.publish, { body: form });
  }

  /**
   * `DELETE /api/packages/{name}/{version}`. The reference's registry deletes (`deleted: true`); avp's yanks
   * (`yanked: true`). The answer says which happened; any other 2xx body reads as `{}` (the API promises only a 2xx).
   */
  async yank(name: string, version: string): Promise<UnpublishResult> {
    const sent = await this.send('DELETE', `/api/packages/${seg(name)}/${seg(version)}`);
    const text = await this.text(sent, RESPONSE_LIMITS.jsonBytes, 'a JSON answer');
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
      const o = v as Record<string, unknown>;
      const out: UnpublishResult = {};
      if (typeof o.deleted === 'boolean') out.deleted = o.deleted;
      if (typeof o.yanked === 'boolean') out.yanked = o.yanked;
      return out;
    } catch {
      return {};
    }
  }

  async updates(installed: Array<{ name: string; version: string }>): Promise<UpdateInfo[]> {
    return this.json('POST', '/api/packages/updates', answers.updates, { json: { installed } });
  }

  verify(): Promise<VerifyResult> {
    return this.json('GET', '/api/auth/cli/verify', answers.verify, { sameOrigin: true });
  }

  exchangeCode(code: string): Promise<TokenExchange> {
    return this.json('POST', '/api/auth/cli/token', answers.token, { json: { code }, auth: false });
  }

  async revokeToken(): Promise<void> {
    await this.request('DELETE', '/api/auth/cli/token');
  }
}

function redirectError(method: string, from: string, why: string): AvpError {
  return new AvpError('registry-redirect-refused', `${method} ${redactUserinfo(from)} redirected ${why}`, {
    fix: 'check the registry URL (use the final address directly), or report the redirect to its operator',
  });
}
