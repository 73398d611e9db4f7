/**
 * The cost of Bash change tracking on a repository of 10,000 files (1,000 directories × 10 files, ~2 KB each,
 * committed, plus 20 dirty and 20 untracked files), measured side by side in one run:
 * - avp's git mode: one `git status` (+ `rev-parse`, no session cache here) + stat of the dirty set;
 * - the naive alternative: list every file (`git ls-files -co`) and stat each from JS;
 * - the walk used outside git (same tree, no .git);
 * - a whole Bash round trip through prepareEvent (PreToolUse snapshot + PostToolUse compare, one file changed by `sed
 * -i`);
 * - the same round trip through the compiled hook (`dist/avp hook`, two processes) vs an event that matches nothing;
 * - the git run alone (one `git status` gives the dirty set, the staged entries and HEAD; the top folder, prefix and
 *   exclude path come from the session's cache), and a turn's Stop against its baseline with nothing changed vs after
 *   a commit.
 * Prints medians, ratios, snapshot size and memory.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultConfig } from '../src/config/config.ts';
import { prepareEvent } from '../src/session/session.ts';
import { snapshot } from '../src/session/fingerprint.ts';
import { gitSnapshot } from '../src/session/git-status.ts';
import type { HookEvent } from '../src/protocol/event.ts';

const FILES = 10_000;
const RUNS = 15;
const AVP = resolve(import.meta.dir, '../dist/avp');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
/** Medians of several functions run round-robin. */
async function interleaved(fns: Array<() => unknown>, runs = RUNS): Promise<number[]> {
  for (const fn of fns) await fn(); // warm
  const t: number[][] = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < fns.length; k++) {
      const s = performance.now();
      await fns[k]!();
      t[k]!.push(performance.now() - s);
    }
  }
  return t.map(median);
}
const sh = (cwd: string, cmd: string) => {
  const p = Bun.spawnSync(['bash', '-c', cmd], { cwd, stdout: 'ignore', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${cmd}: ${p.stderr}`);
};

function makeTree(root: string): void {
  const body = 'export const value = 1;\n'.repeat(90);
  for (let d = 0; d < FILES / 10; d++) {
    const dir = join(root, 'src', `m${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 10; f++) writeFileSync(join(dir, `f${f}.ts`), `// ${d}/${f}\n${body}`);
  }
}

const base = mkdtempSync(join(tmpdir(), 'avp-bench-bash-'));
// Session state lives under $AVP_HOME: the bench's own, never the user's (prepareEvent runs in this process).
process.env.AVP_HOME = join(base, '.avp-home');
const repo = join(base, 'repo');
const plain = join(base, 'plain');
try {
  mkdirSync(repo);
  makeTree(repo);
  sh(
    repo,
    'git init -q && git config user.email b@example.com && git config user.name b && git add . && git commit -qm init',
  );
  // Files written in the same second as the index are "racily clean" and git re-reads them all on every check; a
  // real working copy's index is newer than its files. Let a second pass and refresh it, as any `git status` would.
  await Bun.sleep(1100);
  sh(repo, 'git update-index -q --refresh');
  for (let i = 0; i < 20; i++) {
    writeFileSync(join(repo, 'src', `m${i}`, 'f0.ts'), `// dirty ${i}\n`);
    writeFileSync(join(repo, `untracked-${i}.ts`), `// new ${i}\n`);
  }
  mkdirSync(plain);
  makeTree(plain);

  // Interleaved, so a noisy neighbour slows all three alike and the ratios stay fair.
  const [gitMode, naive, walk] = (await interleaved([
    () => snapshot(repo, 20_000),
    () => {
      const out = Bun.spawnSync(['git', 'ls-files', '-z', '-c', '-o', '--exclude-standard'], {
        cwd: repo,
        stdout: 'pipe',
      }).stdout.toString();
      for (const rel of out.split('\0')) if (rel) statSync(join(repo, rel));
    },
    () => snapshot(plain, 20_000),
  ])) as [number, number, number];
  const snap = await snapshot(repo, 20_000);
  const snapBytes = JSON.stringify(snap).length;
  const walkBytes = JSON.stringify(await snapshot(plain, 20_000)).length;

  const config = defaultConfig();
  let n = 0;
  const ev = (event: string, id: string): HookEvent => ({
    agent: 'claude',
    event,
    tool: 'Bash',
    toolInput: { command: 'sed' },
    sessionId: 'bench',
    cwd: repo,
    projectRoot: repo,
    files: [],
    raw: { tool_use_id: id },
  });
  const rssBefore = process.memoryUsage().rss;
  let changed = 0;
  const preTimes: number[] = [];
  const postTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const id = `t${n++}`;
    let s = performance.now();
    await prepareEvent(ev('PreToolUse', id), config);
    preTimes.push(performance.now() - s);
    sh(repo, `sed -i 's/value = [0-9]*/value = ${i + 2}/' src/m500/f${i % 10}.ts`);
    s = performance.now();
    const post = await prepareEvent(ev('PostToolUse', id), config);
    postTimes.push(performance.now() - s);
    changed = post.files.length;
  }
  const rssAfter = process.memoryUsage().rss;

  // The git run of a snapshot with the session's cache of the paths, alone; and a Stop compared with the baseline.
  const cacheDir = join(base, 'paths-cache');
  mkdirSync(cacheDir);
  const [gitState] = (await interleaved([() => gitSnapshot(repo, 20_000, cacheDir)])) as [number];
  const turnEv = (event: string): HookEvent => ({ ...ev(event, 'x'), tool: undefined, sessionId: 'bench-turn' });
  const stopQuiet: number[] = [];
  const stopCommit: number[] = [];
  let committedSeen = 0;
  for (let i = 0; i < RUNS; i++) {
    await prepareEvent(turnEv('UserPromptSubmit'), config);
    let s = performance.now();
    await prepareEvent(turnEv('Stop'), config);
    stopQuiet.push(performance.now() - s);
    await prepareEvent(turnEv('UserPromptSubmit'), config);
    sh(repo, `echo "// turn ${i}" >> src/m700/f1.ts && git commit -qam turn${i}`);
    s = performance.now();
    committedSeen = (await prepareEvent(turnEv('Stop'), config)).files.length;
    stopCommit.push(performance.now() - s);
  }

  // Through the compiled binary: a Bash PreToolUse + PostToolUse pair vs an event that matches nothing.
  let hookNote = 'dist/avp not built: run `bun run build.ts` for the hook numbers';
  try {
    statSync(AVP);
    mkdirSync(join(repo, '.avp', 'validators', 'bash-watch'), { recursive: true });
    writeFileSync(
      join(repo, '.avp', 'validators', 'bash-watch', 'VALIDATOR.md'),
      '---\nname: bash-watch\ndescription: matches Bash so that tracking runs\nseverity: info\ntrigger: Stop\n---\nNever runs in this bench.\n',
    );
    const env = { PATH: process.env.PATH!, HOME: base, AVP_HOME: join(base, '.avp-home'), CLAUDE_PROJECT_DIR: repo };
    // Accepted as a user would (acceptance does not settle files younger than 2 s), then a pause: the hook memo is
    // written only once the acceptance logs are 2 s old. Else the first seconds of rounds accept on the first call,
    // re-hash the fresh validator and run without the memo.
    await Bun.sleep(2100);
    const accepted = Bun.spawnSync([AVP, 'accept'], { cwd: repo, env, stdout: 'pipe', stderr: 'pipe' });
    if (accepted.exitCode !== 0) throw new Error(`avp accept failed: ${accepted.stderr.toString()}`);
    await Bun.sleep(2100);
    // CPU time (user + system of the hook process and its git children) is robust to a loaded machine; wall is not.
    const cpu: { pair: number[]; none: number[] } = { pair: [], none: [] };
    let lastCpu = 0;
    const hook = (input: object) => {
      const s = performance.now();
      const p = Bun.spawnSync([AVP, 'hook', '--agent', 'claude'], {
        cwd: repo,
        env,
        stdin: Buffer.from(JSON.stringify(input)),
        stdout: 'pipe',
        stderr: 'pipe',
      });
      // Nothing here may block, warn or fail: every call must be the plain pass it stands for.
      if (p.exitCode !== 0 || p.stdout.toString().trim() !== '{}')
        throw new Error(`avp hook (${p.exitCode}): ${p.stdout.toString()}${p.stderr.toString()}`);
      lastCpu = Number(p.resourceUsage?.cpuTime.total ?? 0) / 1000;
      return performance.now() - s;
    };
    const common = { session_id: 'bench-hook', transcript_path: '/dev/null', cwd: repo };
    const noMatches: number[] = [];
    const pairs: number[] = [];
    for (let i = -1; i < RUNS; i++) {
      const b = { ...common, tool_name: 'Bash', tool_input: { command: 'true' }, tool_use_id: `h${i}` };
      let wall = hook({ ...b, hook_event_name: 'PreToolUse' });
      const c = lastCpu;
      wall += hook({ ...b, hook_event_name: 'PostToolUse', tool_response: { stdout: '' } });
      const cPair = c + lastCpu;
      const none = hook({ ...common, hook_event_name: 'Notification', message: 'x', notification_type: 'idle_prompt' });
      if (i < 0) continue; // the warm-up round: page cache, discovery's parse cache
      pairs.push(wall);
      cpu.pair.push(cPair);
      noMatches.push(none);
      cpu.none.push(lastCpu);
    }
    const noMatch = median(noMatches);
    const pair = median(pairs);
    const cpuPair = median(cpu.pair);
    const cpuNone = median(cpu.none);
    hookNote =
      `dist/avp hook, Bash Pre+Post pair (2 processes): wall ${pair.toFixed(1)} ms, cpu ${cpuPair.toFixed(1)} ms; ` +
      `a no-match event: wall ${noMatch.toFixed(1)} ms, cpu ${cpuNone.toFixed(1)} ms\n` +
      `  tracking adds per Bash call: wall ${(pair - 2 * noMatch).toFixed(1)} ms, cpu ${(cpuPair - 2 * cpuNone).toFixed(1)} ms`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }

  console.log(
    `Bash change tracking — ${FILES.toLocaleString()} committed files, 20 dirty + 20 untracked, median of ${RUNS}`,
  );
  console.log(
    `  snapshot, git mode (avp):            ${gitMode.toFixed(1)} ms   (${Object.keys(snap.files).length} entries, ${(snapBytes / 1024).toFixed(1)} KiB on disk)`,
  );
  console.log(
    `  snapshot, list + stat every file:    ${naive.toFixed(1)} ms   (${(naive / gitMode).toFixed(1)}× avp's git mode)`,
  );
  console.log(
    `  snapshot, walk outside git:          ${walk.toFixed(1)} ms   (${(walkBytes / 1024).toFixed(0)} KiB on disk; ${(walk / gitMode).toFixed(1)}× git mode)`,
  );
  console.log(`  PreToolUse (snapshot + save):        ${median(preTimes).toFixed(1)} ms`);
  console.log(`  PostToolUse (snapshot + compare + diff, ${changed} file changed): ${median(postTimes).toFixed(1)} ms`);
  console.log(`  git status alone (paths from the session's cache): ${gitState.toFixed(1)} ms`);
  console.log(
    `  Stop vs the turn's baseline: nothing changed ${median(stopQuiet).toFixed(1)} ms; ` +
      `after a commit (${committedSeen} file seen) ${median(stopCommit).toFixed(1)} ms`,
  );
  console.log(`  load average while measuring: ${loadavg()[0]!.toFixed(1)} (2 cores)`);
  console.log(
    `  memory: rss ${(rssAfter / 1048576).toFixed(0)} MiB after ${RUNS} round trips (+${((rssAfter - rssBefore) / 1048576).toFixed(1)} MiB)`,
  );
  console.log(`  ${hookNote}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
