/**
 * `avp accept` from inside the agent, tried as the agent would from its shell (a node process named `claude` is the
 * agent here): every way we know around the ancestry check is refused, and what cannot be
 * refused is never silent — each acceptance is logged and every session of the project hears of it once, and a
 * record edited outside avp is announced. Before: `( env -u CLAUDECODE avp accept & )` and `setsid -f avp accept`
 * accepted the agent's `disabled: true`, and a `sed` of accepted.json accepted it without a word.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';

const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);

function writeEvent(p: Project, session = 's1') {
  const file = join(p.root, 'src/a.ts');
  const content = 'const a = 1;\n';
  return {
    session_id: session,
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content },
    tool_response: { type: 'create', filePath: file, content },
    tool_use_id: 't1',
  };
}

/** An accepted project whose `gate` blocks every Write, then the agent's pending `disabled: true`. */
async function gatedWithPendingKillSwitch(): Promise<Project> {
  const p = project();
  p.validator('gate', { match: { tools: ['Write'] } }, FAILS);
  expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  p.write('avp.config.json', '{"disabled": true}');
  return p;
}

const userEnv = (p: Project) => ({ HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root });

/**
 * Runs `script` (sh) as the agent's shell would: under a process named `claude`, with Claude Code's markers set.
 * Waits for `done` (a file the script's last step writes) when the command detaches itself.
 */
async function asAgent(p: Project, script: string, done?: string): Promise<{ code: number; stderr: string }> {
  // The agent is a program named `claude` (node, as Claude Code is) that runs the command in a shell of its own.
  const bin = tempDir('avp-agent-bin-');
  symlinkSync(Bun.which('node')!, join(bin, 'claude'));
  const run = 'require("child_process").spawnSync("sh", ["-c", process.env.SCRIPT], { stdio: "inherit" })';
  const proc = Bun.spawn([join(bin, 'claude'), '-e', run], {
    cwd: p.root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...userEnv(p),
      CLAUDECODE: '1',
      AVP: BIN,
      NO_COLOR: '1',
      SCRIPT: script,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (done) {
    for (let i = 0; i < 200 && !existsSync(join(p.root, done)); i++) await Bun.sleep(50);
    expect(existsSync(join(p.root, done))).toBe(true);
  }
  return { code, stderr };
}

const read = (p: Project, rel: string) => readFileSync(join(p.root, rel), 'utf8');

describe('avp accept run by the agent is refused, however it is started', () => {
  const direct: Array<[string, string]> = [
    ['plain', '"$AVP" accept'],
    ['env -u of the markers', 'env -u CLAUDECODE -u CLAUDE_CODE_ENTRYPOINT "$AVP" accept'],
    ['env -i', 'env -i PATH="$PATH" HOME="$HOME" AVP_HOME="$AVP_HOME" "$AVP" accept'],
    ['setsid', 'env -u CLAUDECODE setsid -w "$AVP" accept'],
    ['nohup', 'env -u CLAUDECODE nohup "$AVP" accept 2>&1'],
    ['script (a new terminal)', 'env -u CLAUDECODE script -qec "\\"$AVP\\" accept" /dev/null 2>&1'],
  ];
  for (const [name, cmd] of direct) {
    test(name, async () => {
      const p = await gatedWithPendingKillSwitch();
      const r = await asAgent(p, `${cmd}; echo "rc=$?" >&2`);
      expect(r.stderr).not.toContain('rc=0');
      expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
    });
  }

  const detached: Array<[string, string]> = [
    [
      '( env -u … avp accept & ): the parent exits, avp is handed to init',
      '( sleep 0.3; env -u CLAUDECODE -u CLAUDE_CODE_ENTRYPOINT "$AVP" accept >out.txt 2>err.txt; echo $? >rc.txt ) &',
    ],
    [
      'setsid -f (avp leads its own session)',
      'env -u CLAUDECODE setsid -f sh -c \'sleep 0.3; exec "$AVP" accept >out.txt 2>err.txt\'; sleep 0',
    ],
    [
      'setsid -f sh -c (a detached shell runs avp)',
      'env -u CLAUDECODE setsid -f sh -c \'sleep 0.3; "$AVP" accept >out.txt 2>err.txt; echo $? >rc.txt\'',
    ],
    [
      'detached node (a new session, parent gone)',
      'env -u CLAUDECODE node -e \'require("child_process").spawn("sh", ["-c", "sleep 0.3; \\"$AVP\\" accept >out.txt 2>err.txt; echo $? >rc.txt"], {detached: true, stdio: "ignore"}).unref()\'',
    ],
  ];
  for (const [name, cmd] of detached) {
    test(name, async () => {
      const p = await gatedWithPendingKillSwitch();
      const waitFor = cmd.includes('rc.txt') ? 'rc.txt' : 'err.txt';
      await asAgent(p, cmd, waitFor);
      if (waitFor === 'err.txt') for (let i = 0; i < 100 && !read(p, 'err.txt'); i++) await Bun.sleep(50);
      if (waitFor === 'rc.txt') expect(read(p, 'rc.txt').trim()).toBe('1');
      expect(read(p, 'err.txt')).toContain('refuses to run inside a coding agent');
      expect(read(p, 'out.txt')).not.toContain('Accepted');
      expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
    });
  }

  test("an agent marker left in an ancestor's environment refuses it (a tmux server the agent started)", async () => {
    const p = await gatedWithPendingKillSwitch();
    // `sh` started with the marker, then avp without it: the ancestor still carries CLAUDECODE.
    const proc = Bun.spawn(['/bin/sh', '-c', 'env -u CLAUDECODE "$AVP" accept'], {
      cwd: p.root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...userEnv(p), CLAUDECODE: '1', AVP: BIN, NO_COLOR: '1' },
      stderr: 'pipe',
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(1);
    expect(stderr).toContain('CLAUDECODE in the environment of process');
  });
});

describe('every acceptance is logged and told to every session of the project', () => {
  test('two running sessions each hear of an acceptance once, with when and what', async () => {
    const p = await gatedWithPendingKillSwitch();
    // Two sessions already running (each made a call before the acceptance).
    expect((await p.hook(writeEvent(p, 'A'))).json.decision).toBe('block');
    expect((await p.hook(writeEvent(p, 'B'))).json.decision).toBe('block');
    const ok = await runAvp(['accept'], { bin: BIN, cwd: p.root, env: userEnv(p) });
    expect(ok.code).toBe(0);
    for (const session of ['A', 'B']) {
      const r = await p.hook(writeEvent(p, session));
      expect(r.json.systemMessage).toContain('`avp accept` accepted avp files of');
      expect(r.json.systemMessage).toContain('added avp.config.json');
      expect(r.json.systemMessage).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      const again = await p.hook(writeEvent(p, session));
      expect(again.json?.systemMessage ?? '').not.toContain('accepted avp files');
    }
    // The log says who: the command, its process chain, terminal and whether an agent marker was seen.
    const trust = join(p.home, '.avp/trust/projects');
    const [dir] = readdirSync(trust).filter((n) => !n.endsWith('.lock'));
    const lines = readFileSync(join(trust, dir!, 'acceptances.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const last = JSON.parse(lines.at(-1)!);
    expect(last.by).toBe('avp accept');
    expect(last.changes).toEqual([{ key: 'avp.config.json', change: 'added' }]);
    expect(last.origin.chain.length).toBeGreaterThan(0);
    expect(last.origin).toHaveProperty('tty');
    expect(last.origin.marker).toBeUndefined();
  });
});

describe('a record changed outside avp is announced', () => {
  test("a shell edit of accepted.json that accepts the agent's kill switch is announced, and not obeyed", async () => {
    const p = await gatedWithPendingKillSwitch();
    // The agent's shell: compute the digest of its config and write it into the record, as `avp accept` would.
    const trust = join(p.home, '.avp/trust/projects');
    const [dir] = readdirSync(trust).filter((n) => !n.endsWith('.lock'));
    const recordPath = join(trust, dir!, 'accepted.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    const sha = new Bun.CryptoHasher('sha256').update(read(p, 'avp.config.json')).digest('hex');
    record.files['avp.config.json'] = { sha, fp: '0:0:0:0' };
    writeFileSync(recordPath, JSON.stringify(record, null, 1));
    const r = await p.hook(writeEvent(p));
    expect(r.json.systemMessage).toContain('was changed outside avp');
    expect(r.json.decision).toBe('block');
    // The user reviews every file and accepts: the record is avp's again, and the notice stops.
    const dry = await runAvp(['accept', '--dry-run'], { bin: BIN, cwd: p.root, env: userEnv(p) });
    expect(dry.stdout).toContain('changed outside avp');
    expect(dry.stdout).toContain('.avp/validators/gate/VALIDATOR.md');
    expect((await runAvp(['accept'], { bin: BIN, cwd: p.root, env: userEnv(p) })).code).toBe(0);
    const after = await p.hook(writeEvent(p, 'later'));
    expect(after.json?.systemMessage ?? '').not.toContain('changed outside avp');
  });

  test('a removed record is said to be removed, not a first run', async () => {
    const p = await gatedWithPendingKillSwitch();
    const trust = join(p.home, '.avp/trust/projects');
    const [dir] = readdirSync(trust).filter((n) => !n.endsWith('.lock'));
    Bun.spawnSync(['rm', join(trust, dir!, 'accepted.json')]);
    const r = await p.hook(writeEvent(p));
    expect(r.json.systemMessage).toContain('was removed outside avp');
  });
});
