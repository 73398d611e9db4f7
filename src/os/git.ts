/**
 * The one way avp runs git. Each caller says what its run needs: a hook looking at the project never takes
 * `index.lock` (the agent's own git commands must not fail because avp is looking); a fetch never waits for a
 * password prompt (a private repository fails with a message instead of hanging). stderr is read only when asked.
 */

export interface GitOptions {
  cwd?: string;
  stdin?: string | Uint8Array;
  /** GIT_OPTIONAL_LOCKS=0: never take `index.lock`. */
  noOptionalLocks?: boolean;
  /** GIT_TERMINAL_PROMPT=0, GIT_ASKPASS=echo: never ask for credentials. */
  noPrompt?: boolean;
  /** Keep stderr (for an error message); otherwise it is discarded. */
  stderr?: boolean;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  /** Empty unless `stderr` was asked for. */
  stderr: string;
}

function spawnOptions(opts: GitOptions, sync: boolean) {
  const env =
    opts.noOptionalLocks || opts.noPrompt
      ? {
          ...process.env,
          ...(opts.noOptionalLocks ? { GIT_OPTIONAL_LOCKS: '0' } : {}),
          ...(opts.noPrompt ? { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo' } : {}),
        }
      : undefined;
  return {
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    ...(env ? { env } : {}),
    // spawnSync takes the bytes, spawn a Blob (as each caller passed them before).
    stdin: opts.stdin === undefined ? ('ignore' as const) : sync ? Buffer.from(opts.stdin) : new Blob([opts.stdin]),
    stdout: 'pipe' as const,
    stderr: opts.stderr ? ('pipe' as const) : ('ignore' as const),
  };
}

/** Runs git and waits; undefined when git is not installed. */
export function gitSync(args: string[], opts: GitOptions = {}): GitResult | undefined {
  let p: ReturnType<typeof Bun.spawnSync>;
  try {
    p = Bun.spawnSync(['git', ...args], spawnOptions(opts, true));
  } catch {
    return undefined;
  }
  return { code: p.exitCode ?? 1, stdout: (p.stdout as Buffer) ?? Buffer.alloc(0), stderr: p.stderr?.toString() ?? '' };
}

/** Runs git without blocking the event loop; undefined when git is not installed. */
export async function git(args: string[], opts: GitOptions = {}): Promise<GitResult | undefined> {
  let proc: Bun.Subprocess<'ignore' | Blob, 'pipe', 'pipe' | 'ignore'>;
  try {
    proc = Bun.spawn(['git', ...args], spawnOptions(opts, false)) as typeof proc;
  } catch {
    return undefined;
  }
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout as ReadableStream).arrayBuffer(),
    opts.stderr ? new Response(proc.stderr as ReadableStream).text() : Promise.resolve(''),
    proc.exited,
  ]);
  return { code, stdout: Buffer.from(out), stderr: err };
}
