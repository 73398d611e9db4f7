/**
 * The first hour with avp, through the compiled binary: avp never destroys the user's work (edited or hand-written
 * validators, read-only settings), says which scope it looked in, shares a portable hook without running twice per
 * event, and lint points at validators that would never fire or always fire.
 */
import { describe, expect, test } from 'bun:test';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { AVP_BIN, runAvp, tempDir } from '../support/run-avp.ts';

/** A git project; `onPath` puts avp on PATH (as the README's Install step says). */
function project(onPath = true) {
  const root = tempDir('avp-first-hour-');
  const home = tempDir('avp-first-hour-home-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  if (onPath) symlinkSync(AVP_BIN, join(bin, 'avp'));
  Bun.spawnSync(['git', 'init', '-q'], { cwd: root });
  const env = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: `${bin}:/usr/bin:/bin` };
  return {
    root,
    home,
    env,
    run: (args: string[], extra: Record<string, string> = {}) => runAvp(args, { cwd: root, env: { ...env, ...extra } }),
    pv: (...p: string[]) => join(root, '.avp', 'validators', ...p),
  };
}

const read = (p: string) => readFileSync(p, 'utf8');
const AS_ROOT = process.getuid?.() === 0 ? ' [skipped: running as root, which writes anywhere]' : '';

describe('never destroy the user’s work', () => {
  test('an edited validator is not replaced by add, install or update, nor deleted by remove, without --force', async () => {
    const p = project();
    expect((await p.run(['init'])).code).toBe(0);
    const file = p.pv('protected-files', 'VALIDATOR.md');
    appendFileSync(file, '\nAlso protect deploy/prod.env.\n');
    const edited = read(file);
    for (const args of [
      ['add', 'catalog:protected-files', '--project'],
      ['add', 'protected-files', '--project', '--offline'],
      ['install'],
      ['update', '--project'],
      ['update', 'protected-files', '--project'],
      ['remove', 'protected-files', '--project'],
    ]) {
      const r = await p.run(args);
      expect(`${args.join(' ')} → ${r.code}`).toBe(`${args.join(' ')} → 1`);
      expect(r.stderr).toContain('edited after avp installed');
      expect(r.stderr).toContain('--force');
      expect(read(file)).toBe(edited);
    }
    // Same package: the edited file is named.
    expect((await p.run(['add', 'catalog:protected-files', '--project'])).stderr).toContain('(VALIDATOR.md)');
    // Unedited siblings are still managed normally.
    expect((await p.run(['remove', 'no-debug-leftovers', '--project'])).code).toBe(0);
    // --force: the user chose to lose the edit.
    const forced = await p.run(['install', '--force']);
    expect(forced.code).toBe(0);
    expect(read(file)).not.toContain('deploy/prod.env');
    expect((await p.run(['remove', 'protected-files', '--project'])).code).toBe(0);
  });

  test('install after a pull that moved the lockfile replaces an unedited older copy (the marker says what was installed)', async () => {
    const p = project();
    expect((await p.run(['init'])).code).toBe(0);
    const lockPath = join(p.root, '.avp', 'avp-lock.json');
    const lock = JSON.parse(read(lockPath));
    // A teammate's lockfile pins a different tree for no-secrets: what is installed here is unedited, only older.
    const pinned = { ...lock.packages['no-secrets'], treeIntegrity: 'sha512-AAAA' };
    lock.packages['no-secrets'] = pinned;
    writeFileSync(lockPath, JSON.stringify(lock, null, 2));
    expect((await p.run(['accept'])).code).toBe(0);
    const r = await p.run(['install']);
    expect(r.stderr).not.toContain('edited after');
    expect(r.code).toBe(0);
  });

  test('remove refuses a hand-written validator (directory or file) and says where it looked', async () => {
    const p = project();
    expect((await p.run(['init', '--no-validators'])).code).toBe(0);
    mkdirSync(p.pv('mine'), { recursive: true });
    const mine = '---\nname: mine\ndescription: m\nseverity: warn\ntrigger: Stop\n---\nCheck the turn.\n';
    writeFileSync(p.pv('mine', 'VALIDATOR.md'), mine);
    writeFileSync(p.pv('solo.md'), mine.replace('name: mine', 'name: solo'));
    const dir = await p.run(['remove', 'mine', '--project']);
    expect(dir.code).toBe(1);
    expect(dir.stderr).toContain('was not installed by avp');
    expect(read(p.pv('mine', 'VALIDATOR.md'))).toBe(mine);
    const solo = await p.run(['remove', 'solo', '--project']);
    expect(solo.code).toBe(1);
    expect(solo.stderr).toContain('solo.md was not installed by avp');
    // The default scope is the user's: the error names it and the project's copy.
    const scope = await p.run(['remove', 'mine']);
    expect(scope.code).toBe(1);
    expect(scope.stderr).toContain('not installed in the user scope (avp looked in');
    expect(scope.stderr).toContain('avp remove mine --project');
    const forced = await p.run(['remove', 'mine', '--project', '--force']);
    expect(forced.code).toBe(0);
  });

  test('update names the scope it looked in and finds the validator in the other one', async () => {
    const p = project();
    expect((await p.run(['init'])).code).toBe(0);
    const one = await p.run(['update', 'no-secrets']);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('not in the user lockfile (avp looked in');
    expect(one.stderr).toContain('avp update no-secrets --project');
    const all = await p.run(['update']);
    expect(all.code).toBe(0);
    expect(all.stderr).toContain('nothing installed in the user scope');
    expect(all.stderr).toContain('avp update --project');
  });
});

describe('avp init: settings files', () => {
  test('a read-only settings file is refused before anything changes; a writable one keeps its mode', async () => {
    const p = project();
    const settings = join(p.root, '.claude', 'settings.json');
    mkdirSync(join(p.root, '.claude'));
    writeFileSync(settings, '{ "permissions": {} }\n');
    chmodSync(settings, 0o444);
    const r = await p.run(['init']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('read-only (mode 0444)');
    expect(r.stderr).toContain('chmod u+w');
    expect(read(settings)).toBe('{ "permissions": {} }\n');
    expect(statSync(settings).mode & 0o777).toBe(0o444);
    expect(statSync(join(p.root, '.avp'), { throwIfNoEntry: false })).toBeUndefined();
    chmodSync(settings, 0o600);
    expect((await p.run(['init'])).code).toBe(0);
    expect(statSync(settings).mode & 0o777).toBe(0o600);
    expect(read(settings)).toContain('avp hook --agent claude');
    chmodSync(settings, 0o640);
    expect((await p.run(['deinit'])).code).toBe(0);
    expect(statSync(settings).mode & 0o777).toBe(0o640);
  });

  // root writes anywhere: the permission error cannot be produced (the read-only test above covers root).
  test.skipIf(process.getuid?.() === 0)(
    `a settings folder avp may not write into: the error names the file and the fix${AS_ROOT}`,
    async () => {
      const p = project();
      mkdirSync(join(p.root, '.claude'));
      writeFileSync(join(p.root, '.claude', 'settings.json'), '{}\n');
      chmodSync(join(p.root, '.claude'), 0o555);
      const r = await p.run(['init', '--no-validators']);
      chmodSync(join(p.root, '.claude'), 0o755);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('could not be written (EACCES)');
    },
  );

  test('shared settings get the portable command; this machine’s path only goes to settings.local.json; never twice', async () => {
    // avp not on PATH: the absolute path, in the unshared file only.
    const off = project(false);
    const first = await off.run(['init', '--no-validators']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('avp is not on PATH');
    expect(read(join(off.root, '.claude', 'settings.local.json'))).toContain(`${AVP_BIN} hook --agent claude`);
    expect(statSync(join(off.root, '.claude', 'settings.json'), { throwIfNoEntry: false })).toBeUndefined();
    // --project on purpose without avp on PATH: refused (the shared file must stay portable).
    const shared = await off.run(['init', '--project', '--no-validators']);
    expect(shared.code).toBe(1);
    expect(shared.stderr).toContain('not on PATH');

    // Now avp is on PATH: the shared file gets `avp hook`, the older local entry goes (avp would run twice).
    symlinkSync(AVP_BIN, join(off.home, 'bin', 'avp'));
    const second = await off.run(['init', '--no-validators']);
    expect(second.code).toBe(0);
    const sharedText = read(join(off.root, '.claude', 'settings.json'));
    expect(sharedText).toContain('"command": "avp hook --agent claude"');
    expect(sharedText).not.toContain(AVP_BIN);
    expect(read(join(off.root, '.claude', 'settings.local.json'))).not.toContain('hook');
    expect(second.stdout).toContain("remove avp's older entry");
    expect(second.stdout).toContain('git add .claude/settings.json .avp/');
    expect(second.stdout).toMatch(/next:\n {2}1\. restart Claude Code/);
    // Nothing waits for `avp accept`: both settings files were the user's own change.
    expect(JSON.parse((await off.run(['accept', '--dry-run', '--json'])).stdout).changes).toEqual([]);

    // A teammate without avp on PATH: a local entry beside the shared one would run avp twice later: refused.
    const mate = project(false);
    mkdirSync(join(mate.root, '.claude'));
    writeFileSync(join(mate.root, '.claude', 'settings.json'), sharedText);
    const refused = await mate.run(['init', '--no-validators']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('would run avp twice per event');
    expect(statSync(join(mate.root, '.claude', 'settings.local.json'), { throwIfNoEntry: false })).toBeUndefined();

    // A user-wide entry with another command: said, not silently doubled.
    const user = project(false);
    expect((await user.run(['init', '--user', '--no-validators'])).code).toBe(0);
    symlinkSync(AVP_BIN, join(user.home, 'bin', 'avp'));
    const both = await user.run(['init', '--no-validators']);
    expect(both.code).toBe(0);
    expect(both.stdout).toContain('avp runs more than once per event here');
  });
});

describe('avp lint: validators that never fire, always fire, or check nothing', () => {
  test('warnings at their lines; exit 0', async () => {
    const p = project();
    mkdirSync(p.pv(), { recursive: true });
    writeFileSync(
      p.pv('cased.md'),
      '---\nname: cased\ndescription: d\nseverity: error\ntrigger: PostToolUse\nmatch:\n  tools: [write, "Edit|multiedit"]\n---\nCheck it.\n',
    );
    writeFileSync(p.pv('empty.md'), '---\nname: empty\ndescription: d\nseverity: error\ntrigger: Stop\n---\n');
    expect((await p.run(['new', 'fresh', '--project', '--force'])).code).toBe(0);
    const r = await p.run(['lint']);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain('.avp/validators/cased.md:7:');
    expect(out).toContain('`write` never matches: tool names are case-sensitive (Claude Code calls it `Write`)');
    expect(out).toContain('`multiedit` never matches');
    expect(out).not.toContain('`Edit` never');
    expect(out).toMatch(/empty\.md:7:1: warning: the prompt is empty/);
    expect(out).toMatch(/fresh\.md:3:\d+: warning: the description is still the placeholder/);
    expect(out).toMatch(/fresh\.md:\d+:\d+: warning: placeholder rule left from `avp new`/);
  });

  test("a single-file validator's missing reference suggests the directory form; a .md without frontmatter is broken", async () => {
    const p = project();
    expect((await p.run(['init', '--no-validators'])).code).toBe(0);
    writeFileSync(
      p.pv('api-errors.md'),
      '---\nname: api-errors\ndescription: d\nseverity: error\ntrigger: Stop\n---\nSee references/errors.md.\n',
    );
    const lint = await p.run(['lint']);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(
      `make it a directory validator (move ${p.pv('api-errors.md')} to ${p.pv('api-errors', 'VALIDATOR.md')})`,
    );
    expect(lint.stdout).toContain(`create ${p.pv('api-errors', 'references', 'errors.md')}`);
    expect(lint.stdout).not.toContain(`create ${p.pv('references', 'errors.md')}`);

    // The old advice followed anyway: a reference in a references/ folder is a warning, a README is documentation.
    writeFileSync(p.pv('api-errors.md'), read(p.pv('api-errors.md')).replace('See references/errors.md.', 'Check.'));
    mkdirSync(p.pv('references'));
    writeFileSync(p.pv('references', 'errors.md'), '# Errors\n\nUse ApiError.\n');
    writeFileSync(p.pv('README-team.md'), 'Ideas for more validators.\n');
    writeFileSync(p.pv('ReadMe.md'), 'How we write validators.\n');
    const stray = await p.run(['lint']);
    expect(stray.code).toBe(0);
    expect(stray.stdout).toMatch(/references\/errors\.md:1:1: warning: not a validator \(no frontmatter\): ignored/);
    expect(stray.stdout).toContain('<name>/references/errors.md');
    expect(stray.stdout).not.toContain('README');
    expect(stray.stdout).not.toContain('ReadMe');
    // Any other .md without frontmatter is a broken validator: with validator keys and no fence, or none at all (an
    // agent that empties a validator's frontmatter must not switch it off), in a file or a directory validator.
    const broken: Array<[string, string]> = [
      ['broken.md', 'name: broken\ntrigger: Stop\n'],
      ['notes.md', 'Ideas for more validators.\n'],
      ['gutted/VALIDATOR.md', 'Block hard-coded keys.\n'],
      ['emptied/VALIDATOR.md', ''],
    ];
    for (const [rel, text] of broken) {
      mkdirSync(join(p.pv(rel), '..'), { recursive: true });
      writeFileSync(p.pv(rel), text);
      const lint = await p.run(['lint']);
      expect([rel, lint.code]).toEqual([rel, 1]);
      expect(lint.stdout).toContain('no YAML frontmatter');
      rmSync(p.pv(rel));
    }
    writeFileSync(p.pv('gutted', 'VALIDATOR.md'), '# Keys\n\nBlock hard-coded keys.\n');
    expect((await p.run(['accept'])).code).toBe(0);
    const file = join(p.root, 'a.ts');
    const answer = await runAvp(['hook', '--agent', 'claude'], {
      cwd: p.root,
      env: { ...p.env, CLAUDE_PROJECT_DIR: p.root },
      stdin: JSON.stringify({
        session_id: 's',
        transcript_path: '/dev/null',
        cwd: p.root,
        hook_event_name: 'PostToolUse',
        tool_name: 'Write',
        tool_input: { file_path: file, content: 'x\n' },
        tool_response: { filePath: file, success: true },
      }),
    });
    expect(answer.code).toBe(0);
    const out = JSON.parse(answer.stdout);
    expect(out.decision).toBe('block');
    expect(out.reason).toContain('gutted');
  });
});
