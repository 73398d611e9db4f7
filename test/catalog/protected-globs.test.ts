/**
 * The protected list's pattern language as docs/catalog.md states it (gitignore-style: `name` at any depth, `dir/` a
 * directory, `a/b` or `/a/b` from the project root, `~/a` in the home directory, `!x` an exception, last match wins,
 * `# reason:` shown to the agent) plus the glob forms (`**`, `*`, `?`, `[…]`, `{a,b}`), each tested both ways, and
 * case folding where the file system folds. An unclosed `[` or `{` is literal (it once made the glob translation loop
 * forever: the first test runs the script as a process under a deadline, so that hang fails instead of stalling).
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parsePatterns, protectedBy } from '../../validators/protected-files/scripts/check.ts';
import { tempDir } from '../support/run-avp.ts';

const HOME = homedir();
/** Whether `rel` (project-relative, or absolute outside the project) is protected by `list`. */
function hits(list: string, rel: string, nocase = false): boolean {
  const abs = rel.startsWith('/') ? rel : join('/work/project', rel);
  return protectedBy(parsePatterns(list), rel, abs, nocase) !== undefined;
}
const both = (list: string, yes: string[], no: string[]) => {
  for (const rel of yes) expect({ list, rel, hit: hits(list, rel) }).toEqual({ list, rel, hit: true });
  for (const rel of no) expect({ list, rel, hit: hits(list, rel) }).toEqual({ list, rel, hit: false });
};

test('an unclosed [ or { in a user list is literal: the script answers within its deadline, judging by it', () => {
  const dir = tempDir('avp-pf-unclosed-');
  mkdirSync(join(dir, 'references'));
  writeFileSync(join(dir, 'references/protected.txt'), '# typos\nkeys[1\nconf{a,b\n');
  const judge = (rel: string) => {
    const event = { tool: 'Write', toolInput: { file_path: join('/work/project', rel) }, projectRoot: '/work/project' };
    const r = Bun.spawnSync(
      [process.execPath, join(import.meta.dir, '../../validators/protected-files/scripts/check.ts')],
      {
        stdin: Buffer.from(JSON.stringify(event)),
        env: { ...process.env, AVP_VALIDATOR_DIR: dir },
        timeout: 20_000,
      },
    );
    return { rel, code: r.exitCode, passed: r.exitCode === 0 ? JSON.parse(r.stdout.toString()).passed : undefined };
  };
  expect(judge('keys[1')).toEqual({ rel: 'keys[1', code: 0, passed: false });
  expect(judge('a/conf{a,b')).toEqual({ rel: 'a/conf{a,b', code: 0, passed: false });
  expect(judge('keys1')).toEqual({ rel: 'keys1', code: 0, passed: true });
  expect(judge('confa')).toEqual({ rel: 'confa', code: 0, passed: true });
});

describe('where a pattern applies', () => {
  test('a name matches at any depth, whole names only', () => {
    both(
      'secrets.json',
      ['secrets.json', 'a/b/secrets.json'],
      ['my-secrets.json', 'secrets.json.bak', 'secrets.jsonx'],
    );
  });
  test('dir/ matches what is inside that directory, at any depth', () => {
    both('build/', ['build/x', 'a/build/y/z'], ['build', 'builder/x', 'rebuild/x']);
  });
  test('a/b and /a/b are anchored at the project root; nothing outside the project matches them', () => {
    both('/conf/app.yml', ['conf/app.yml'], ['x/conf/app.yml', '/conf/app.yml']);
    both('conf/app.yml', ['conf/app.yml'], ['x/conf/app.yml']);
  });
  test('~/a is in the home directory only', () => {
    both('~/.ssh/', [join(HOME, '.ssh/id_rsa')], ['.ssh/id_rsa', '/elsewhere/.ssh/id_rsa']);
  });
  test('!x is an exception, and the last match wins', () => {
    both('*.key\n!public.key', ['a.key', 'x/private.key'], ['public.key', 'x/public.key']);
    both('!public.key\n*.key', ['public.key'], []);
  });
});

describe('glob forms', () => {
  test('* and ? stay within one folder; ? is exactly one character', () => {
    both('*.pem', ['a.pem', 'x/y.pem'], ['a.pem.txt']);
    both('/conf/*.yml', ['conf/a.yml'], ['conf/sub/a.yml']);
    both('id_?sa', ['id_rsa', 'id_dsa'], ['id_sa', 'id_ecdsa', 'id_/sa']);
  });
  test('** spans folders, also none; a/** everything below', () => {
    both('/deploy/**/secret.txt', ['deploy/secret.txt', 'deploy/a/b/secret.txt'], ['other/secret.txt']);
    both('/vault/**', ['vault/a', 'vault/a/b'], ['vaults/a']);
  });
  test('[…] is one character of a set; {a,b} alternates', () => {
    both('key[0-9].txt', ['key1.txt'], ['keya.txt', 'key10.txt']);
    both('*.{crt,pem}', ['a.crt', 'b.pem'], ['c.key', 'a.crt,pem']);
  });
  test('an unclosed [ or { is literal, before and after a closed one, and widens nothing', () => {
    both('key[1', ['key[1', 'x/key[1'], ['key1', 'key[1x', 'key']);
    both('a{b,c', ['a{b,c'], ['ab', 'ac', 'a{b']);
    both('[ab]x[', ['ax[', 'bx['], ['cx[', 'ax']);
    both('{a,b}x{', ['ax{', 'bx{'], ['ax', 'cx{']);
    both('x[a-', ['x[a-'], ['xa', 'x-']);
    both('v]1 w}2', ['v]1 w}2'], ['v1 w2']);
  });
  test('regex characters in a name are literal', () => {
    both('a+b.(x)', ['a+b.(x)'], ['aab.(x)', 'a+bx(x)', 'aaab.x']);
  });
});

describe('the list itself', () => {
  test('blank lines and comments are skipped; # reason: travels with the patterns below it; lines are numbered', () => {
    const ps = parsePatterns('# plain comment\n\n# reason: keys stay out\n*.key\n  id_rsa  \n');
    expect(ps.map((p) => [p.glob, p.line, p.reason])).toEqual([
      ['*.key', 4, 'keys stay out'],
      ['id_rsa', 5, 'keys stay out'],
    ]);
  });
  test('a pattern that does not compile names its file and line', () => {
    expect(() => parsePatterns('ok\nbad[z-a]', 'mine.txt')).toThrow('mine.txt:2: invalid pattern "bad[z-a]"');
  });
  test('case folded only where the file system folds', () => {
    expect(hits('.env', '.ENV', true)).toBe(true);
    expect(hits('.env', '.ENV', false)).toBe(false);
    expect(hits('/conf/app.yml', 'CONF/App.yml', true)).toBe(true);
    expect(hits('/conf/app.yml', 'CONF/App.yml', false)).toBe(false);
    expect(hits('~/.ssh/', join(HOME, '.SSH/id'), true)).toBe(true);
    expect(hits('~/.ssh/', join(HOME, '.SSH/id'), false)).toBe(false);
  });
});

describe('the home folder of `~/` patterns is the one node:os reports (the scripts load node:os only without HOME)', () => {
  const saved = process.env.HOME;
  const withHome = <T>(home: string | undefined, run: () => T): T => {
    if (home === undefined) delete process.env.HOME;
    else process.env.HOME = home;
    try {
      return run();
    } finally {
      process.env.HOME = saved;
    }
  };
  test('HOME set: that folder, not the account database', () => {
    expect(withHome('/srv/agent', () => hits('~/.ssh/', '/srv/agent/.ssh/id_rsa'))).toBe(true);
    expect(withHome('/srv/agent', () => hits('~/.ssh/', join(HOME, '.ssh/id_rsa')))).toBe(HOME === '/srv/agent');
  });
  test('HOME empty or unset: the account database home, as node:os falls back to it', () => {
    const home = withHome(undefined, () => homedir());
    for (const value of ['', undefined])
      expect(withHome(value, () => hits('~/.ssh/', join(home, '.ssh/id_rsa')))).toBe(true);
  });
});
