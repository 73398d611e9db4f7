import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL server for tests, started from the distribution's packages (`initdb`, `pg_ctl`): a fresh
 * cluster in a temp dir, trust auth, listening on a random free port on 127.0.0.1 only, stopped and removed by
 * `stop()`. PostgreSQL refuses to run as root, so when we are root the cluster is owned by and run as an unprivileged
 * user (`postgres` when the package created it, else `nobody`) through `runuser`/`setpriv`.
 *
 * When the binaries are missing this throws a clear error (never a silent skip): `scripts/test.sh` installs the
 * `postgresql` package when it can.
 */
export interface TestPostgres {
  /** `postgres://avp@127.0.0.1:<port>/avp` */
  url: string;
  port: number;
  /** Creates another empty database on the same server and returns its URL (isolates suites sharing one server). */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The directory holding initdb/pg_ctl/postgres, or undefined. */
export function findPostgresBin(): string | undefined {
  const roots = '/usr/lib/postgresql';
  if (existsSync(roots)) {
    const versions = readdirSync(roots)
      .filter((v) => existsSync(join(roots, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(roots, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** uid/gid of a local user from /etc/passwd, or undefined. */
function lookupUser(name: string): { uid: number; gid: number } | undefined {
  const passwd = Bun.spawnSync(['getent', 'passwd', name], { stdout: 'pipe', stderr: 'ignore' });
  const line = passwd.stdout.toString().trim();
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Starts a fresh PostgreSQL cluster with a database `avp` owned by role `avp`. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL binaries (initdb, pg_ctl) were not found under /usr/lib/postgresql/*/bin or on PATH. ' +
        'Install the distribution package: `apt-get install postgresql` (scripts/test.sh does it when run as root).',
    );
  }
  const root = mkdtempSync(join(tmpdir(), 'avp-pg-'));
  const data = join(root, 'data');
  const isRoot = process.getuid?.() === 0;
  let ids: { uid: number; gid: number } | undefined;
  if (isRoot) {
    ids = lookupUser('postgres') ?? lookupUser('nobody');
    if (!ids)
      throw new Error('running as root and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as');
    chownSync(root, ids.uid, ids.gid);
  }
  // setpriv (util-linux) drops to the unprivileged user without needing a login shell or PAM.
  const as = (cmd: string[]) =>
    ids ? ['setpriv', `--reuid=${ids.uid}`, `--regid=${ids.gid}`, '--clear-groups', '--', ...cmd] : cmd;
  const exec = async (cmd: string[], what: string) => {
    const proc = Bun.spawn(as(cmd), {
      stdout: 'pipe',
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) throw new Error(`${what} failed (exit ${code}): ${(err || out).trim().slice(0, 2000)}`);
  };
  try {
    await exec([join(bin, 'initdb'), '-D', data, '-U', 'avp', '--auth=trust', '--no-sync', '-E', 'UTF8'], 'initdb');
    // The free port can be taken between probing and binding: try a few.
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
      try {
        await exec(
          [join(bin, 'pg_ctl'), '-D', data, '-o', opts, '-l', join(root, 'log.txt'), '-w', '-t', '60', 'start'],
          'pg_ctl start',
        );
        break;
      } catch (e) {
        if (attempt >= 3) throw new Error(`${(e as Error).message}\nserver log:\n${logTail(root)}`);
      }
    }
    const pgCtlStop = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
    // A test process that dies without calling stop() must not leave a postgres daemon behind.
    const onExit = () => {
      Bun.spawnSync(as(pgCtlStop), { stdout: 'ignore', stderr: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    };
    process.once('exit', onExit);
    const stop = async () => {
      process.removeListener('exit', onExit);
      await exec(pgCtlStop, 'pg_ctl stop').catch(() => {});
      rmSync(root, { recursive: true, force: true });
    };
    try {
      await exec([join(bin, 'createdb'), '-h', '127.0.0.1', '-p', String(port), '-U', 'avp', 'avp'], 'createdb');
    } catch (e) {
      await stop();
      throw e;
    }
    const database = async (name: string) => {
      if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid database name ${name}`);
      await exec([join(bin, 'createdb'), '-h', '127.0.0.1', '-p', String(port), '-U', 'avp', name], `createdb ${name}`);
      return `postgres://avp@127.0.0.1:${port}/${name}`;
    };
    return { url: `postgres://avp@127.0.0.1:${port}/avp`, port, database, stop };
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
}

function logTail(root: string): string {
  try {
    return readFileSync(join(root, 'log.txt'), 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}
