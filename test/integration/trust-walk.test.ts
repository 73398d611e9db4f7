/**
 * The accepted-state check is cheap (a stat per control file, shared with discovery) and still cannot be fooled:
 * an edit that keeps a validator's size and sets its mtime back, or a prepared twin moved over it, is caught
 * (ctime and inode are in the fingerprint, and only the kernel sets them); and one no-match hook call lists each
 * validators folder and stats each file once, not once for the check and again for discovery (counted by strace).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';

const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);
/** A whole second a minute ago: `utimes` can restore it exactly (a sub-millisecond mtime it could not). */
const OLD = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
/** Past the 2 s window in which a freshly changed file is hashed whatever its stat says. */
const settle = () => Bun.sleep(2100);

function writeEvent(p: Project) {
  const file = join(p.root, 'src/a.ts');
  return {
    session_id: 's1',
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content: 'const a = 1;\n' },
    tool_response: { type: 'create', filePath: file, content: 'const a = 1;\n' },
    tool_use_id: 't1',
  };
}

/** A project whose accepted `gate` validator blocks every Write; its VALIDATOR.md has a whole-second mtime. */
async function gated(): Promise<{ p: Project; path: string; text: string }> {
  const p = project();
  p.validator('gate', { match: { tools: ['Write', 'Edit'] } }, FAILS);
  const path = join(p.root, '.avp/validators/gate/VALIDATOR.md');
  utimesSync(path, OLD, OLD);
  await settle(); // accepted with a settled stat, so an unchanged stat is taken as unchanged (no hashing)
  await p.accept();
  expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  return { p, path, text: readFileSync(path, 'utf8') };
}

/** The same bytes count, `severity: "error"` (blocks) turned into `severity: "info" ` (never blocks). */
const weakened = (text: string) => {
  const out = text.replace('severity: "error"', 'severity: "info" ');
  expect(out).not.toBe(text);
  expect(out.length).toBe(text.length);
  return out;
};

async function expectStillBlocked(p: Project) {
  const r = await p.hook(writeEvent(p));
  expect(r.json.decision).toBe('block');
  expect(r.json.systemMessage).toContain('changed .avp/validators/gate/VALIDATOR.md');
  expect(r.json.systemMessage).toContain('avp accept');
}

describe('an edit that keeps the stat an attacker can set is caught', () => {
  test('edited in place, same size, mtime set back (touch -d): still pending, still runs as accepted', async () => {
    const { p, path, text } = await gated();
    const before = statSync(path);
    writeFileSync(path, weakened(text));
    utimesSync(path, OLD, OLD);
    const after = statSync(path);
    // The attack is what it claims: everything a user-level process controls is as accepted.
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
    await settle();
    await expectStillBlocked(p);
  }, 60_000);

  test('a twin prepared beside the project, mtime set back, moved over the validator', async () => {
    const { p, path, text } = await gated();
    const twin = join(tempDir('avp-e-twin-'), 'VALIDATOR.md');
    writeFileSync(twin, weakened(text));
    utimesSync(twin, OLD, OLD);
    renameSync(twin, path);
    expect(statSync(path).mtimeMs).toBe(OLD.getTime());
    await settle();
    await expectStillBlocked(p);
  }, 60_000);
});

describe("avp's caches cannot vouch for a changed validator", () => {
  test('a parse cache holding the edited file, under its new stats, still runs the accepted validator', async () => {
    const { p, path, text } = await gated();
    writeFileSync(path, weakened(text));
    utimesSync(path, OLD, OLD);
    await settle(); // the parse cache takes only settled files
    // The agent's shell runs discovery on the live files: the parse cache now holds the weakened validator.
    const list = await runAvp(['list', '--json'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp') },
    });
    expect(list.stdout).toContain('"info"');
    const caches = join(p.home, '.avp/cache/discovery');
    expect(readdirSync(caches).some((f) => readFileSync(join(caches, f), 'utf8').includes('"severity":"info"'))).toBe(
      true,
    );
    await expectStillBlocked(p);
  }, 60_000);
});

describe('a record written before the inode was part of the fingerprint', () => {
  test('is honoured as it is (nothing pending, nothing re-hashed) and still catches the touch -d edit', async () => {
    const { p, path, text } = await gated();
    const projects = join(p.home, '.avp/trust/projects');
    const record = join(projects, readdirSync(projects)[0]!, 'accepted.json');
    const data = JSON.parse(readFileSync(record, 'utf8'));
    for (const f of Object.values(data.files) as Array<{ fp: string }>) f.fp = f.fp.replace(/:\d+$/, '');
    writeFileSync(record, JSON.stringify(data));
    const quiet = await p.hook(writeEvent(p));
    expect(quiet.json.decision).toBe('block');
    expect(quiet.json.systemMessage ?? '').not.toContain('not in effect');
    // Matched on the old fingerprint: no file needed hashing, so none was remembered as verified.
    expect(existsSync(join(record, '..', 'verified.json'))).toBe(false);
    writeFileSync(path, weakened(text));
    utimesSync(path, OLD, OLD);
    await settle();
    await expectStillBlocked(p);
  }, 60_000);
});

/** strace on the compiled binary, when this machine has it and allows ptrace. */
const hasStrace = Bun.spawnSync(['strace', '-qq', '-o', '/dev/null', 'true'], { stderr: 'pipe' }).exitCode === 0;

describe('one walk per hook call', () => {
  test.skipIf(!hasStrace)(
    'a no-match call lists each validator folder and stats each file once',
    async () => {
      const p = project();
      for (const name of ['alpha', 'beta', 'gamma']) {
        p.validator(name, { match: { tools: ['Write'], files: ['**/*.py'] } }, sh('exit 0'));
        p.write(`.avp/validators/${name}/references/notes.md`, 'notes\n');
      }
      await settle(); // so the parse cache takes the files (it never caches files changed in the last 2 s)
      expect((await p.hook(writeEvent(p))).stdout).toBe('{}\n'); // accepts, warms the parse cache
      const trace = join(tempDir('avp-e-strace-'), 'trace');
      const run = Bun.spawnSync(
        ['strace', '-f', '-qq', '-e', 'trace=openat,open,stat,lstat,newfstatat,statx', '-o', trace, BIN, 'hook'],
        {
          cwd: p.root,
          stdin: new TextEncoder().encode(JSON.stringify(writeEvent(p))),
          env: { PATH: process.env.PATH, HOME: p.home, AVP_HOME: join(p.home, '.avp'), CLAUDE_PROJECT_DIR: p.root },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      );
      expect(run.stdout.toString()).toBe('{}\n');
      const lines = readFileSync(trace, 'utf8').split('\n');
      const count = (call: RegExp, path: string) => lines.filter((l) => call.test(l) && l.includes(`"${path}"`)).length;
      const v = join(p.root, '.avp/validators');
      for (const name of ['alpha', 'beta', 'gamma']) {
        // Listed: the folder and its references/ opened once each.
        expect(count(/openat?\(.*O_DIRECTORY/, join(v, name))).toBe(1);
        expect(count(/openat?\(.*O_DIRECTORY/, join(v, name, 'references'))).toBe(1);
        // Stat'ed: VALIDATOR.md, its reference and its script once each (the check and discovery share the stat).
        for (const file of ['VALIDATOR.md', 'references/notes.md', 'scripts/check.sh'])
          expect(count(/stat/, join(v, name, file))).toBe(1);
      }
    },
    60_000,
  );
});
