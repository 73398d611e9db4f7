/**
 * The duplicate-call claim (the same event from an agent's plugin hook and its settings hook at once): one avp
 * answers, its twin passes. The claim file lives under `$AVP_HOME`, which the agent's shell can write, so a claim
 * planted there for an input the agent can predict — naming a live process that is not this call's twin — must not
 * silence avp. Through the compiled hook, with real processes.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, project, sh, type Project } from './hook-support.ts';

const KEY_WRITE = (root: string) => ({
  session_id: 's-dup',
  transcript_path: join(root, 't.jsonl'),
  cwd: root,
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: join(root, 'src/a.ts'), content: 'const k = "sk-live-dup";\n' },
  tool_use_id: 'toolu_dup',
});

/** The claim file avp would take for exactly this stdin. */
function claimPath(home: string, stdin: string): string {
  return join(home, '.avp', 'cache', 'hook-calls', `${Bun.hash(stdin).toString(36)}-${stdin.length}`);
}

/** The start time (22nd field of /proc/<pid>/stat) the claim binds to. */
function startOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** `avp hook` as an agent starts it: directly, or through its own `sh -c` (Claude Code's shell stays in between). */
async function hookAs(p: Project, stdin: string, via: 'direct' | 'shell'): Promise<any> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: p.home,
    AVP_HOME: join(p.home, '.avp'),
    CLAUDE_PROJECT_DIR: p.root,
  };
  const argv = via === 'direct' ? [BIN, 'hook'] : ['sh', '-c', `"${BIN}" hook; true`];
  const proc = Bun.spawn(argv, { cwd: p.root, env, stdin: new Blob([stdin]), stdout: 'pipe' });
  return JSON.parse(await new Response(proc.stdout).text());
}

function gate() {
  const p = project();
  p.validator(
    'no-keys',
    { trigger: 'PreToolUse', match: { tools: ['Write'] } },
    sh(`cat >/dev/null; sleep 1; echo '{"passed":false,"violations":[{"rule":"k","message":"key"}],"summary":"key"}'`),
  );
  return p;
}

describe('the duplicate-call claim binds to the twin process, not to a file', () => {
  test.skipIf(process.platform !== 'linux')(
    'a planted claim naming a live process that is not the twin does not silence the call (linux: /proc)',
    async () => {
      const p = gate();
      const stdin = `${JSON.stringify(KEY_WRITE(p.root))}\n`;
      await p.accept();
      // Live processes the agent's shell could name: a sibling that is not avp, and an avp that is not a sibling
      // (started under a shell, waiting on its stdin).
      const sleeper = Bun.spawn(['sleep', '60']);
      const foreign = Bun.spawn(['sh', '-c', `sleep 60 | "${BIN}" hook; true`], {
        env: { PATH: process.env.PATH ?? '', HOME: p.home, AVP_HOME: join(p.home, '.avp') },
      });
      let children: number[] = [];
      try {
        await Bun.sleep(300);
        children = readFileSync(`/proc/${foreign.pid}/task/${foreign.pid}/children`, 'utf8')
          .trim()
          .split(' ')
          .map(Number);
        const avpPid = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('hook'));
        expect(avpPid).toBeDefined();
        mkdirSync(join(p.home, '.avp', 'cache', 'hook-calls'), { recursive: true });
        const planted = [
          String(sleeper.pid),
          `${sleeper.pid} ${startOf(sleeper.pid)}`,
          `${avpPid} ${startOf(avpPid!)}`,
        ];
        for (const claim of planted) {
          writeFileSync(claimPath(p.home, stdin), claim);
          const r = await hookAs(p, stdin, 'direct');
          expect([claim, r.hookSpecificOutput?.permissionDecision]).toEqual([claim, 'deny']);
        }
        // Through a shell, like Claude Code's hooks: the foreign avp's shell is a sibling of ours, but it started
        // long before this call — not its twin.
        await Bun.sleep(2500);
        writeFileSync(claimPath(p.home, stdin), planted[2]!);
        expect((await hookAs(p, stdin, 'shell')).hookSpecificOutput?.permissionDecision).toBe('deny');
      } finally {
        sleeper.kill();
        for (const pid of children) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone: killing the pipe's `sleep` ends the foreign avp's input, and it answers and exits
          }
        }
        foreign.kill();
      }
    },
    60_000,
  );

  for (const via of ['direct', 'shell'] as const) {
    test(`two twin calls at once (${via}, as agents start hooks): one judges, the other passes`, async () => {
      const p = gate();
      const stdin = `${JSON.stringify(KEY_WRITE(p.root))}\n`;
      await p.accept();
      const answers = await Promise.all([0, 1].map(() => hookAs(p, stdin, via)));
      const decisions = answers.map((a) => a.hookSpecificOutput?.permissionDecision ?? 'none').sort();
      expect(decisions).toEqual(['deny', 'none']);
    }, 60_000);
  }
});
