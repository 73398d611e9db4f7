/**
 * Two avp binaries side by side on the Bash change tracking around one shell call: PreToolUse and PostToolUse of
 * `ls -la` with 50 validators (a Stop validator among them, so the tracking runs), in a project that is no repository
 * (an empty `.git`, as bench/hook-cost.ts makes them) and in a git repository of 300 (or `files`) committed files, one
 * dirty and one untracked. CPU time of each hook process and its git children (from the kernel), medians of rounds
 * interleaved binary by binary; then, in a pass of its own, the git runs of each call (a `git` first on PATH that
 * logs them). Not in `npm run bench` (it needs two binaries):
 *
 *   node_modules/.bin/bun bench/_bash-side-by-side.ts <old avp> <new avp> [rounds] [files]
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [OLD, NEW] = [process.argv[2], process.argv[3]];
if (!OLD || !NEW) throw new Error('usage: bun bench/_bash-side-by-side.ts <old avp> <new avp> [rounds]');
const BINS = { old: resolve(OLD), new: resolve(NEW) };
const ROUNDS = Number(process.argv[4] ?? 21);
const FILES = Number(process.argv[5] ?? 300);
const work = mkdtempSync(join(tmpdir(), 'avp-bench-bash-sbs-'));

function validators(root: string, n: number): void {
  const shapes = [
    'trigger: PostToolUse\nmatch:\n  tools: [Write, Edit]\n  files: ["**/*.py"]\n',
    'trigger: PreToolUse\nmatch:\n  tools: [WebFetch]\n',
    'trigger: Stop\nmatch:\n  files: ["src/**/*.go"]\n',
    'trigger: SessionStart\n',
    'trigger: UserPromptSubmit\n',
  ];
  for (let i = 0; i < n; i++) {
    const dir = join(root, '.avp/validators', `v${i}`);
    mkdirSync(dir, { recursive: true });
    const fm = `name: v${i}\ndescription: Bench validator ${i}.\nseverity: error\n${shapes[i % shapes.length]}`;
    writeFileSync(join(dir, 'VALIDATOR.md'), `---\n${fm}---\nCheck.\n`);
  }
}
const sh = (cwd: string, command: string) => {
  const p = Bun.spawnSync(['bash', '-c', command], { cwd, stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${command}: ${p.stderr.toString()}`);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const plain = join(work, 'no-repository');
  mkdirSync(join(plain, '.git'), { recursive: true });
  validators(plain, 50);
  const repo = join(work, 'repository');
  mkdirSync(join(repo, 'src'), { recursive: true });
  validators(repo, 50);
  for (let i = 0; i < FILES; i++) {
    // Ten files a folder, as a source tree holds them.
    const dir = join(repo, 'src', `m${Math.floor(i / 10)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const a${i} = ${i};\n`);
  }
  sh(repo, 'git init -q && git add . && git -c user.email=b@example.com -c user.name=b commit -qm bench');
  const shim = join(work, 'shim');
  mkdirSync(shim);
  writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$*" >> "${work}/git.log"\nexec "${Bun.which('git')}" "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  // Acceptance does not trust files younger than 2 s; a working copy's index is newer than its files.
  await Bun.sleep(2100);
  sh(repo, 'git update-index -q --refresh && echo dirty >> src/m0/f1.ts && echo new > untracked.txt');
  const envOf = (k: string, path = process.env.PATH!) => ({
    PATH: path,
    HOME: join(work, `home-${k}`),
    AVP_HOME: join(work, `home-${k}`, '.avp'),
  });
  for (const [k, bin] of Object.entries(BINS))
    for (const root of [plain, repo]) {
      const r = Bun.spawnSync([bin, 'accept'], { cwd: root, env: envOf(k), stderr: 'pipe' });
      if (r.exitCode !== 0) throw new Error(`${bin} accept: ${r.stderr.toString()}`);
    }
  let n = 0;
  const call = (k: string, root: string, event: string, id: string, path?: string) => {
    const input = {
      session_id: 'bench',
      transcript_path: '/dev/null',
      cwd: root,
      hook_event_name: event,
      tool_name: 'Bash',
      tool_input: { command: 'ls -la', description: 'bench' },
      tool_use_id: id,
      ...(event === 'PostToolUse' ? { tool_response: { stdout: '' } } : {}),
    };
    const p = Bun.spawnSync([BINS[k as keyof typeof BINS], 'hook'], {
      cwd: root,
      stdin: Buffer.from(JSON.stringify(input)),
      env: { ...envOf(k, path), CLAUDE_PROJECT_DIR: root },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    if (p.exitCode !== 0 || p.stdout.toString().trim() !== '{}') throw new Error(`${k} ${event}: ${p.stderr}`);
    return Number(p.resourceUsage!.cpuTime.total) / 1000;
  };
  const projects = { 'no repository': plain, 'git repository': repo };
  const cpu: Record<string, number[]> = {};
  for (let round = -2; round < ROUNDS; round++)
    for (const [name, root] of Object.entries(projects))
      for (const k of Object.keys(BINS)) {
        const id = `t${n++}`;
        for (const event of ['PreToolUse', 'PostToolUse']) {
          const ms = call(k, root, event, id);
          if (round >= 0) (cpu[`${name}|${event}|${k}`] ??= []).push(ms);
        }
      }
  const runs = (k: string, root: string, event: string) => {
    rmSync(join(work, 'git.log'), { force: true });
    call(k, root, event, 'counted', `${shim}:${process.env.PATH}`);
    let log = '';
    try {
      log = readFileSync(join(work, 'git.log'), 'utf8');
    } catch {
      /* no git run */
    }
    return log
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/^(-c \S+ )*/, '').split(' ')[0]);
  };
  console.log(
    `Bash change tracking, old vs new, ${FILES} files, ${ROUNDS} interleaved rounds, load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`  old: ${BINS.old}\n  new: ${BINS.new}`);
  for (const [name, root] of Object.entries(projects))
    for (const event of ['PreToolUse', 'PostToolUse']) {
      const [o, w] = [median(cpu[`${name}|${event}|old`]!), median(cpu[`${name}|${event}|new`]!)];
      const line = `${name}, ${event} Bash:`.padEnd(34);
      const git = (k: string) => runs(k, root, event).join(' + ') || 'none';
      console.log(`${line} old ${o.toFixed(2)} ms, new ${w.toFixed(2)} ms (${(w - o).toFixed(2)} ms)`);
      console.log(`${''.padEnd(34)} git runs: old ${git('old')}; new ${git('new')}`);
    }
} finally {
  rmSync(work, { recursive: true, force: true });
}
