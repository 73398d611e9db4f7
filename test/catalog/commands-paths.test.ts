/**
 * dangerous-commands' path resolution (validators/dangerous-commands/scripts/paths.ts) at its edges: unknown
 * directories and variables, an empty project or home, a project at `/` or under /tmp, `cd` forms, and what each
 * resolved target is called. The common spellings are in test/catalog/commands-files.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import {
  catastrophic,
  cdTarget,
  deleteVerdict,
  resolvePath,
} from '../../validators/dangerous-commands/scripts/paths.ts';

const ctx = { project: '/work/app', home: '/home/dev' };
const at = (dir: string | undefined, fromCd = false) => ({ dir, fromCd });
const app = at('/work/app');

describe('dangerous-commands: resolving path words', () => {
  test('unknown directories and variables leave the target unknown; known spellings resolve', () => {
    expect(resolvePath('~alice/x', app, ctx)?.abs).toBe('/home/alice/x');
    expect(resolvePath('$OLDPWD/etc', app, ctx)).toBeUndefined();
    expect(resolvePath('$CLAUDE_PROJECT_DIR/x', app, { project: '', home: '/home/dev' })).toBeUndefined();
    expect(resolvePath('~', app, { project: '/work/app', home: '' })).toBeUndefined();
    expect(resolvePath('', app, ctx)).toEqual({ abs: '/work/app', below: true, partial: false, climbed: false });
    // Below an unknown directory (after `cd "$X"`): relative words stay below it, climbing ones are unknown.
    expect(resolvePath('../x', at(undefined), ctx)).toBeUndefined();
    expect(resolvePath('x', at(undefined), ctx)?.abs).toBe('/\0below/x');
    expect(resolvePath('build/', at(undefined), ctx)?.abs).toBe('/\0below/build');
    expect(resolvePath('/x/../y', at(undefined), ctx)?.abs).toBe('/y');
  });

  test('climbing is counted against the words own depth', () => {
    expect(resolvePath('a/../b', app, ctx)).toEqual({
      abs: '/work/app/b',
      below: true,
      partial: false,
      climbed: false,
    });
    expect(resolvePath('a/../../b', app, ctx)).toEqual({ abs: '/work/b', below: false, partial: false, climbed: true });
  });
});

describe('dangerous-commands: what a delete destroys', () => {
  const verdict = (w: string, place = app, c = ctx) => deleteVerdict(w, place, c);
  test('system directories of Linux and macOS, homes of others, root, a glob at /', () => {
    expect(verdict('/Library')).toBe('the system directory /Library');
    expect(verdict('/Users/sam')).toBe('a home directory');
    expect(verdict('/home/sam')).toBe('a home directory');
    expect(verdict('/root')).toBe('a home directory');
    expect(verdict('/e*')).toBe('most of the file system (a glob at /)');
    expect(verdict('e*', at('/'))).toBeUndefined();
    expect(verdict('/build')).toBe('/build, outside the project');
    expect(verdict('/srv/repo/.git')).toBe('/srv/repo/.git, outside the project');
    expect(verdict('/work/app/src')).toBeUndefined();
  });

  test('below an unknown directory only .git itself counts', () => {
    const unknown = at(undefined);
    expect(verdict('.git', unknown)).toBe('a repository history (.git)');
    expect(verdict('.git/*', unknown)).toBe('a repository history (.git)');
    expect(verdict('.git/*.pack', unknown)).toBeUndefined();
    expect(verdict('*', unknown)).toBeUndefined();
    expect(verdict('x', at(undefined, true))).toBeUndefined();
    expect(
      catastrophic({ abs: '/.git', below: false, partial: false, climbed: false }, { project: '', home: '/h' }),
    ).toBe(undefined);
  });

  test('an empty home, a project at /, a home or a project in /tmp', () => {
    expect(verdict('/srv/x', app, { project: '/work/app', home: '' })).toBe('/srv/x, outside the project');
    expect(verdict('/srv/x', at('/'), { project: '/', home: '/home/dev' })).toBeUndefined();
    const tmpHome = { project: '/work/app', home: '/tmp/h' };
    expect(verdict('/tmp/h/docs', app, tmpHome)).toBe('/tmp/h/docs, outside the project in the home directory');
    expect(verdict('/tmp/scratch', app, tmpHome)).toBeUndefined();
    expect(verdict('../x', at('/tmp/p'), { project: '/tmp/p', home: '/home/dev' })).toBe('/tmp/x, outside the project');
  });
});

describe('dangerous-commands: where cd leads', () => {
  test('home, unknown, partial globs and relative steps keep or set the cd origin', () => {
    expect(cdTarget(undefined, app, ctx)).toEqual({ dir: '/home/dev', fromCd: true });
    expect(cdTarget('-', app, ctx)).toEqual({ dir: undefined, fromCd: false });
    expect(cdTarget('/e*', app, ctx)).toEqual({ dir: undefined, fromCd: false });
    expect(cdTarget('$X', app, ctx)).toEqual({ dir: undefined, fromCd: false });
    expect(cdTarget('sub', at('/etc', true), ctx)).toEqual({ dir: '/etc/sub', fromCd: true });
    expect(cdTarget('sub', app, ctx)).toEqual({ dir: '/work/app/sub', fromCd: false });
    expect(cdTarget('/srv', app, ctx)).toEqual({ dir: '/srv', fromCd: true });
  });
});
