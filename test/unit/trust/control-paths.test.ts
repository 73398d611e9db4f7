/**
 * The control table a shell command is judged against (control-paths.ts): which paths are avp's and the agents' hook
 * switches, which folders are areas (anything under them), which of avp's own folders stay open, and how a path is
 * compared — through symlinks, hard links and folders that hold a control file.
 */
import { describe, expect, test } from 'bun:test';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlTable, folding, inside, mentionedControlName } from '../../../src/trust/control-paths.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'avp-control-')));
const root = join(base, 'project');
const home = join(base, 'home');
const bin = join(base, 'bin');
for (const d of [join(root, '.claude'), join(home, '.claude'), bin, join(base, 'codex'), join(base, 'claude-config')])
  mkdirSync(d, { recursive: true });
writeFileSync(join(root, '.claude/settings.json'), '{}\n');
writeFileSync(join(bin, 'avp'), '#!/bin/sh\n');
const env = {
  HOME: home,
  AVP_HOME: join(home, '.avp'),
  PATH: `:${bin}:/usr/bin`,
  CODEX_HOME: join(base, 'codex'),
  CLAUDE_CONFIG_DIR: join(base, 'claude-config'),
};
const table = controlTable(root, env);
const fold = folding();
const check = (path: string, tree = false) => table.check(fold(path), tree);

describe('controlTable.check', () => {
  test('hook settings, Codex config where CODEX_HOME says, plugins where CLAUDE_CONFIG_DIR says', () => {
    expect(check(join(root, '.claude/settings.json'))).toContain('hook settings');
    expect(check(join(base, 'codex/config.toml'))).toBe("~/.codex/config.toml switches Codex's hooks on and off");
    expect(check(join(root, '.codex/config.toml'))).toBe(".codex/config.toml switches Codex's hooks on and off");
    expect(check(join(home, '.codex/config.toml'))).toBeUndefined();
    expect(check(join(base, 'claude-config/plugins/avp/hooks/hooks.json'))).toContain('holds installed plugins');
    expect(check(join(base, 'codex/plugins/x'))).toContain('holds installed plugins');
    expect(check(join(home, '.claude/plugins/x'))).toBeUndefined();
  });

  test("avp's home is an area but for its validators and config; the project's .avp state folders are areas", () => {
    expect(check(join(home, '.avp/trust/projects/x/accepted.json'))).toContain("avp's own state");
    expect(check(join(home, '.avp'))).toContain("avp's own state");
    expect(check(join(home, '.avp/validators/x/VALIDATOR.md'))).toBeUndefined();
    expect(check(join(home, '.avp/config.json'))).toBeUndefined();
    for (const owned of ['state', 'cache', 'logs', 'trust'])
      expect(check(join(root, '.avp', owned, 'x'))).toBe(`.avp/${owned} is avp's own state`);
    expect(check(join(root, '.avp/validators/x/VALIDATOR.md'))).toBeUndefined();
  });

  test('every avp on PATH (an empty PATH entry is none), and not a file beside it', () => {
    expect(check(join(bin, 'avp'))).toBe(`${join(bin, 'avp')} is the avp that agents' hooks run`);
    expect(check(join(bin, 'avpx'))).toBeUndefined();
    expect(check(join(bin, 'avp/x'))).toBeUndefined();
    expect(check(join(process.cwd(), 'avp'))).toBeUndefined();
  });

  test('a folder holding a control file is one only for a change to the whole tree, and only when the file exists', () => {
    expect(check(join(root, '.claude'))).toBeUndefined();
    expect(check(join(root, '.claude'), true)).toBe(
      `it holds ${join(root, '.claude/settings.json')}, and .claude/settings.json holds the agent's hook settings, ` +
        "where avp's hooks live",
    );
    mkdirSync(join(home, '.avp'), { recursive: true });
    expect(check(home, true)).toBe(
      `it holds ${join(home, '.avp')}, and that is avp's own state (the accepted state, caches, credentials)`,
    );
    expect(check(root, true)).toContain('it holds');
    expect(check(join(home, '.codex'), true)).toBeUndefined();
  });

  test('a symlink to a control file is compared where it leads; a hard link by its identity', () => {
    symlinkSync(join(root, '.claude'), join(base, 'cc'));
    expect(check(join(base, 'cc/settings.json'))).toContain('hook settings');
    linkSync(join(root, '.claude/settings.json'), join(base, 'twin.json'));
    expect(table.sameFile(fold(join(base, 'twin.json')))).toContain('hook settings');
    writeFileSync(join(base, 'other.json'), '{}');
    expect(table.sameFile(fold(join(base, 'other.json')))).toBeUndefined();
    expect(table.sameFile(join(base, 'missing.json'))).toBeUndefined();
  });

  test('holds: a folder directly holding a control file (an area is no file)', () => {
    expect(table.holds(fold(join(root, '.claude')))).toBe(true);
    expect(table.holds(fold(root))).toBe(false);
    expect(table.holds(fold(join(root, '.avp')))).toBe(false);
    expect(table.holds(fold(bin))).toBe(true);
  });

  test('within: the control paths under a folder', () => {
    expect(table.within(fold(join(root, '.claude')))).toContain(join(root, '.claude/settings.json'));
    expect(table.within(fold(join(root, 'src')))).toEqual([]);
  });
});

describe('controlTable entries that do not exist yet', () => {
  test('a control path whose folders are symlinks resolves through them, however deep', () => {
    const real = join(base, 'real-home');
    mkdirSync(real);
    symlinkSync(real, join(base, 'link-home'));
    const t = controlTable(root, { ...env, AVP_HOME: join(base, 'link-home', '.avp') });
    expect(t.check(fold(join(real, '.avp/trust/x')), false)).toContain("avp's own state");
  });
});

describe('inside and names', () => {
  test('inside: the folder itself and what is under it, not a sibling with the same prefix or a parent', () => {
    expect(inside('/a/b', '/a/b')).toBe(true);
    expect(inside('/a/b/c', '/a/b')).toBe(true);
    expect(inside('/a/bc', '/a/b')).toBe(false);
    expect(inside('/a', '/a/b')).toBe(false);
    expect(inside('/a/..b', '/a')).toBe(true);
  });

  test('mentionedControlName: the name as written, without the character before it', () => {
    expect(mentionedControlName('rm -rf ~/.claude')).toBe('/.claude');
    expect(mentionedControlName('x=.avp')).toBe('.avp');
    expect(mentionedControlName('/usr/local/bin/avp --help')).toBe('/avp');
    expect(mentionedControlName('.claudex')).toBeUndefined();
  });
});

describe('the rest of the table', () => {
  test("the hook files avp writes whole, in the project and the user's config folders", () => {
    expect(check(join(root, '.opencode/plugins/avp.ts'))).toBe(".opencode/plugins/avp.ts is avp's hook");
    expect(check(join(home, '.config/amp/plugins/avp.ts'))).toBe("~/.config/amp/plugins/avp.ts is avp's hook");
    expect(check(join(root, '.opencode/plugins/other.ts'))).toBeUndefined();
  });

  test("without CLAUDE_CONFIG_DIR or CODEX_HOME, the plugins and Codex's config are under the home folder", () => {
    const t = controlTable(root, { HOME: home, PATH: '/usr/bin' });
    expect(t.check(fold(join(home, '.claude/plugins/avp/hooks/hooks.json')), false)).toContain('installed plugins');
    expect(t.check(fold(join(home, '.codex/config.toml')), false)).toBe(
      "~/.codex/config.toml switches Codex's hooks on and off",
    );
    expect(t.check(fold(join(home, '.codex/plugins/x')), false)).toContain('installed plugins');
  });

  test('a control path under a link to a folder not made yet, or under a loop of links, is still answered', () => {
    symlinkSync(join(base, 'not-yet'), join(base, 'dangling'));
    const t = controlTable(root, { ...env, AVP_HOME: join(base, 'dangling', '.avp') });
    expect(t.check(join(base, 'not-yet/.avp/trust/x'), false)).toContain("avp's own state");
    symlinkSync(join(base, 'loop-b'), join(base, 'loop-a'));
    symlinkSync(join(base, 'loop-a'), join(base, 'loop-b'));
    const looped = controlTable(root, { ...env, AVP_HOME: join(base, 'loop-a', '.avp') });
    expect(looped.check(join(base, 'elsewhere'), false)).toBeUndefined();
  });

  test('on a file system that tells case apart, another case of a control path is another file', () => {
    const upper = join(base, 'CaseProject');
    mkdirSync(join(upper, '.claude'), { recursive: true });
    const t = controlTable(upper, env);
    expect(t.check(fold(join(upper, '.claude/settings.json')), false)).toContain('hook settings');
    expect(t.check(join(base, 'caseproject/.claude/settings.json'), false)).toBeUndefined();
  });
});
