import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';
import { makeZip } from '../unit/registry-client/zip-forge.ts';

/**
 * Helpers for the registry server tests: the real server process (`dist/avp registry serve --port 0`), tokens made
 * with the real `avp registry token create`, and archives built byte by byte (good ones and hostile ones).
 */
export interface ServerProcess {
  url: string;
  data: string;
  stderr(): string;
  /** The first stdout line as parsed JSON ({url, data, engine, archives}). */
  info: Record<string, unknown>;
  /** Kills the process with a signal (SIGKILL: a crash mid-request) and waits for it. */
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `dist/avp registry serve --port 0` and reads `{"url"}` from its first stdout line. */
export async function startServerProcess(
  opts: { data?: string; db?: string; baseUrl?: string; args?: string[]; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const data = opts.data ?? tempDir('avp-rs-data-');
  const home = tempDir('avp-rs-home-');
  const args = [AVP_BIN, 'registry', 'serve', '--port', '0', '--data', data];
  if (opts.db) args.push('--db', opts.db);
  if (opts.baseUrl) args.push('--base-url', opts.baseUrl);
  args.push(...(opts.args ?? []));
  const proc = Bun.spawn(args, {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      AVP_HOME: join(home, '.avp'),
      NO_COLOR: '1',
      ...opts.env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let err = '';
  void (async () => {
    for await (const chunk of proc.stderr) err += new TextDecoder().decode(chunk);
  })();
  const reader = proc.stdout.getReader();
  let out = '';
  const deadline = Date.now() + 20_000;
  while (!out.includes('\n')) {
    const next = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
    if (!next || next.done) {
      proc.kill('SIGKILL');
      throw new Error(`registry serve printed no URL (exit ${proc.exitCode}); stderr:\n${err}`);
    }
    out += new TextDecoder().decode(next.value);
  }
  reader.releaseLock();
  const first = JSON.parse(out.split('\n')[0]!) as { url: string };
  return {
    url: first.url,
    data,
    info: first,
    stderr: () => err,
    async kill(signal) {
      proc.kill(signal);
      await proc.exited;
    },
    async stop() {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await proc.exited;
      clearTimeout(timer);
    },
  };
}

/** `avp registry token create --name <account> [--admin] --json` → the secret and id. */
export async function createToken(
  data: string,
  account: string,
  opts: { admin?: boolean; db?: string; email?: string } = {},
): Promise<{ token: string; id: string }> {
  const args = ['registry', 'token', 'create', '--name', account, '--json', '--data', data];
  if (opts.admin) args.push('--admin');
  if (opts.db) args.push('--db', opts.db);
  if (opts.email) args.push('--email', opts.email);
  const r = await runAvp(args);
  if (r.code !== 0) throw new Error(`token create failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { token: string; id: string };
}

/** A valid VALIDATOR.md (lints clean) with the given name and version. */
export function validatorMd(
  name: string,
  version: string,
  extra: { description?: string; tags?: string[]; versionYaml?: string } = {},
): string {
  const tags = extra.tags ? `tags: [${extra.tags.join(', ')}]\n` : '';
  const versionLine = extra.versionYaml ?? `"${version}"`;
  return `---\nname: ${name}\ndescription: ${extra.description ?? `Checks ${name} things`}\nseverity: error\ntrigger: PostToolUse\n${tags}metadata:\n  version: ${versionLine}\n---\n\nReport any ${name} problem in the changed files.\n`;
}

/** A zip of `files` under `top/` (directory entry included), as `avp publish` makes it. */
export function zipOf(top: string, files: Record<string, string | Uint8Array>): Uint8Array {
  return makeZip([
    [`${top}/`, '', { level: 0 }],
    ...Object.entries(files).map(([path, data]): [string, string | Uint8Array] => [`${top}/${path}`, data]),
  ]);
}

/** A zip whose entry names are taken verbatim (for hostile archives); `attrs` are unix external attributes. */
export function rawZip(entries: Record<string, string | Uint8Array | { data: string; attrs: number }>): Uint8Array {
  return makeZip(
    Object.entries(entries).map(([name, v]) =>
      typeof v === 'string' || v instanceof Uint8Array
        ? [name, v]
        : [name, v.data, { os: 3, attrs: v.attrs, level: 0 }],
    ),
  );
}

/** The publishable archive of `name@version`. */
export function packageZip(name: string, version: string, extra: Parameters<typeof validatorMd>[2] = {}): Uint8Array {
  return zipOf(name, { 'VALIDATOR.md': validatorMd(name, version, extra) });
}

/** `POST /api/packages` as the clients send it: multipart, part `package`, filename package.zip. */
export async function publishZip(
  url: string,
  bytes: Uint8Array,
  token?: string,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('package', new File([bytes], 'package.zip', { type: 'application/zip' }));
  const res = await fetch(`${url}/api/packages`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** fetch + JSON with optional token and method. */
export async function api(
  url: string,
  path: string,
  opts: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    redirect: 'manual',
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (zip, HTML, empty)
  }
  return { status: res.status, body, headers: res.headers };
}

/** Every regular file under `dir` (to prove a refused upload stored nothing). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  try {
    walk(dir);
  } catch {
    // missing dir: nothing stored
  }
  return out;
}

/**
 * A zip with one large entry of zeros, deflated natively (fflate needs seconds for 60 MiB): an honest bomb when
 * `declared` is omitted, a lying one when both headers declare `declared` bytes, so only counting the inflated
 * bytes (not trusting the headers) catches it.
 */
export function bombZip(top: string, validator: string, name: string, bytes: number, declared?: number): Uint8Array {
  const entries = [
    { name: `${top}/`, data: new Uint8Array(0) },
    { name: `${top}/VALIDATOR.md`, data: new TextEncoder().encode(validator) },
    { name: `${top}/${name}`, data: new Uint8Array(bytes), declared },
  ];
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const nameBytes = new TextEncoder().encode(e.name);
    const packed = new Uint8Array(deflateRawSync(e.data));
    const crc = Bun.hash.crc32(e.data);
    const size = e.declared ?? e.data.length;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, 8, true);
    local.setUint16(12, 0x21, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, packed.length, true);
    local.setUint32(22, size, true);
    local.setUint16(26, nameBytes.length, true);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint16(4, (3 << 8) | 20, true);
    cd.setUint16(6, 20, true);
    cd.setUint16(10, 8, true);
    cd.setUint16(14, 0x21, true);
    cd.setUint32(16, crc, true);
    cd.setUint32(20, packed.length, true);
    cd.setUint32(24, size, true);
    cd.setUint16(28, nameBytes.length, true);
    cd.setUint32(38, ((e.name.endsWith('/') ? 0o040755 : 0o100644) << 16) >>> 0, true);
    cd.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, packed);
    central.push(new Uint8Array(cd.buffer), nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, cdSize, true);
  end.setUint32(16, offset, true);
  return Buffer.concat([...parts, ...central, new Uint8Array(end.buffer)]);
}
