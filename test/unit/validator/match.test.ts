/** Matching: trigger, match.tools (anchored, case-sensitive), match.files, triggerMatcher, once, load-error scoping. */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChange, HookEvent } from '../../../src/protocol/event.ts';
import { loadErrorsForEvent, matchedFiles, matchValidators, toolFiles } from '../../../src/validator/match.ts';
import type { LoadError, Validator, ValidatorSpec } from '../../../src/validator/types.ts';
import { normalizeClaudeEvent } from '../../../src/agents/claude/index.ts';
import { tempDir } from '../../support/run-avp.ts';
import { specValidator } from './helpers.ts';

const ROOT = '/home/dev/project';

const v = (id: string, spec: Partial<ValidatorSpec> = {}): Validator => specValidator(id, spec, ROOT);

function file(rel: string): FileChange {
  const inProject = !rel.startsWith('/');
  return { path: inProject ? `${ROOT}/${rel}` : rel, relPath: rel, inProject, kind: 'update' };
}

function ev(event: string, extra: Partial<HookEvent> = {}): HookEvent {
  return { agent: 'claude', event, cwd: ROOT, projectRoot: ROOT, files: [], raw: {}, ...extra };
}

const ids = (vs: Validator[]) => vs.map((x) => x.id);
const write = (...paths: string[]) => ev('PostToolUse', { tool: 'Write', files: paths.map(file) });
const matches = (spec: Partial<ValidatorSpec>, event: HookEvent) => matchValidators([v('x', spec)], event).length === 1;

describe('trigger', () => {
  test('the trigger must equal the event name', () => {
    const vs = [v('post'), v('pre', { trigger: 'PreToolUse' }), v('stop', { trigger: 'Stop' })];
    expect(ids(matchValidators(vs, write('a.ts')))).toEqual(['post']);
    expect(ids(matchValidators(vs, ev('Stop')))).toEqual(['stop']);
    expect(ids(matchValidators(vs, ev('SomeFutureEvent')))).toEqual([]);
  });
  test('no matchers: every event of the trigger', () => {
    expect(matches({}, ev('PostToolUse', { tool: 'WebFetch' }))).toBe(true);
  });
});

describe('match.tools', () => {
  const on = (tool: string | undefined, tools: string[]) =>
    matches({ match: { tools } }, ev('PostToolUse', { ...(tool ? { tool } : {}) }));
  test('names and alternations are anchored over the whole tool name', () => {
    expect(on('Write', ['Write'])).toBe(true);
    expect(on('Edit', ['Write|Edit'])).toBe(true);
    expect(on('MultiEdit', ['Write|Edit'])).toBe(false); // not a substring match
    expect(on('WriteFile', ['Write'])).toBe(false);
    expect(on('Edit', ['Write', 'Edit'])).toBe(true);
  });
  test('regexes such as mcp__memory__.*', () => {
    expect(on('mcp__memory__create_entities', ['mcp__memory__.*'])).toBe(true);
    expect(on('mcp__github__create_issue', ['mcp__memory__.*'])).toBe(false);
    expect(on('NotebookEdit', ['.*Edit'])).toBe(true);
  });
  test('case-sensitive: write does not match Write', () => {
    expect(on('Write', ['write'])).toBe(false);
    expect(on('Write', ['(?:w|W)rite'])).toBe(true);
  });
  test('an event without a tool does not match a validator that lists tools', () => {
    expect(on(undefined, ['Write'])).toBe(false);
  });
});

describe('match.files', () => {
  const f = (files: string[], ...paths: string[]) => matches({ match: { files } }, write(...paths));
  test('a pattern without / also matches the basename anywhere', () => {
    expect(f(['*.ts'], 'src/utils/helper.ts')).toBe(true);
    expect(f(['*.ts'], 'helper.ts')).toBe(true);
    expect(f(['*.ts'], 'src/helper.js')).toBe(false);
    expect(f(['package.json'], 'packages/a/package.json')).toBe(true);
  });
  test('globs with / are relative to the project root', () => {
    expect(f(['src/**/*.js'], 'src/a/b/c.js')).toBe(true);
    expect(f(['src/**/*.js'], 'src/c.js')).toBe(true);
    expect(f(['src/**/*.js'], 'lib/src/c.js')).toBe(false);
    expect(f(['src/*.js'], 'src/a/c.js')).toBe(false);
    expect(f(['src/api/**'], 'src/api/users.ts')).toBe(true);
  });
  test('dotfiles and dot-folders match', () => {
    expect(f(['*.yml'], '.github/workflows/ci.yml')).toBe(true);
    expect(f(['**/*'], '.env')).toBe(true);
    expect(f(['.env*'], 'config/.env.local')).toBe(true);
  });
  test('any changed file matching is enough', () => {
    expect(f(['*.py'], 'a.ts', 'b/c.py')).toBe(true);
    expect(f(['*.py'], 'a.ts', 'b.js')).toBe(false);
  });
  test('!patterns exclude; only exclusions means every other file', () => {
    expect(f(['*.ts', '!*.test.ts'], 'src/a.test.ts')).toBe(false);
    expect(f(['*.ts', '!*.test.ts'], 'src/a.test.ts', 'src/a.ts')).toBe(true);
    expect(f(['!docs/**'], 'docs/x.md')).toBe(false);
    expect(f(['!docs/**'], 'src/x.md')).toBe(true);
  });
  test('files outside the project: basename, any-depth (`**`) and absolute patterns only', () => {
    expect(f(['*.ts'], '/tmp/scratch/x.ts')).toBe(true);
    expect(f(['src/**/*.ts'], '/tmp/src/x.ts')).toBe(false);
    expect(f(['**/*.ts'], '/tmp/x.ts')).toBe(true);
    expect(f(['**/*'], '/tmp/a/b/x.md')).toBe(true);
    expect(f(['**'], '/tmp/x.md')).toBe(true);
    expect(f(['*'], '/tmp/x.md')).toBe(true);
    expect(f(['**/*.ts'], '/tmp/x.md')).toBe(false);
    expect(f(['/etc/**'], '/etc/hosts')).toBe(true);
    expect(f(['/etc/**'], 'etc/hosts')).toBe(false);
  });
  test('a file system that ignores case: `.CLAUDE/settings.json` is `.claude/settings.json`', () => {
    const upper = { ...file('.CLAUDE/settings.json'), caseInsensitive: true };
    const spec = { match: { files: ['.claude/**'] } };
    expect(matches(spec, ev('PostToolUse', { tool: 'Write', files: [upper] }))).toBe(true);
    expect(
      matches(
        { match: { files: ['*.env', '.env'] } },
        ev('PostToolUse', { tool: 'Write', files: [{ ...file('.ENV'), caseInsensitive: true }] }),
      ),
    ).toBe(true);
    // Where the file system tells case apart, so does matching.
    expect(matches(spec, ev('PostToolUse', { tool: 'Write', files: [file('.CLAUDE/settings.json')] }))).toBe(false);
  });
  test('a path a non-file tool names is resolved through symlinks before matching', () => {
    const root = realpathSync(tempDir('avp-match-'));
    mkdirSync(join(root, '.claude'));
    symlinkSync('.claude', join(root, 'cc'));
    const event: HookEvent = {
      ...ev('PreToolUse', { tool: 'Read', toolInput: { file_path: 'cc/settings.json' } }),
      cwd: root,
      projectRoot: root,
    };
    expect(matches({ trigger: 'PreToolUse', match: { files: ['.claude/**'] } }, event)).toBe(true);
    expect(toolFiles(event)[0]).toMatchObject({
      relPath: '.claude/settings.json',
      namedPath: join(root, 'cc/settings.json'),
    });
  });
  test('tools AND files', () => {
    const spec = { match: { tools: ['Write|Edit'], files: ['*.ts'] } };
    expect(matches(spec, ev('PostToolUse', { tool: 'Write', files: [file('a.ts')] }))).toBe(true);
    expect(matches(spec, ev('PostToolUse', { tool: 'Write', files: [file('a.md')] }))).toBe(false);
    expect(matches(spec, ev('PostToolUse', { tool: 'Bash', files: [file('a.ts')] }))).toBe(false);
  });
  test('files is ignored for a tool that touches no file (Bash without changes, WebFetch)', () => {
    expect(
      matches({ match: { files: ['*.ts'] } }, ev('PostToolUse', { tool: 'Bash', toolInput: { command: 'ls' } })),
    ).toBe(true);
    expect(
      matches({ match: { files: ['*.ts'] } }, ev('PostToolUse', { tool: 'WebFetch', toolInput: { url: 'https://x' } })),
    ).toBe(true);
    // Bash whose changes were detected is matched on them.
    expect(
      matches({ match: { files: ['*.ts'] } }, ev('PostToolUse', { tool: 'Bash', files: [file('gen/out.json')] })),
    ).toBe(false);
  });
  test('a tool event without detected changes is matched on the file its input names (PreToolUse Write)', () => {
    const pre = (p: string) => ev('PreToolUse', { tool: 'Write', toolInput: { file_path: p, content: 'x' } });
    expect(matches({ trigger: 'PreToolUse', match: { files: ['src/**/*.ts'] } }, pre(`${ROOT}/src/a/b.ts`))).toBe(true);
    expect(matches({ trigger: 'PreToolUse', match: { files: ['src/**/*.ts'] } }, pre(`${ROOT}/lib/b.ts`))).toBe(false);
    expect(matches({ trigger: 'PreToolUse', match: { files: ['src/**/*.ts'] } }, pre('src/rel.ts'))).toBe(true);
    expect(matches({ trigger: 'PreToolUse', match: { files: ['*.ts'] } }, pre('/elsewhere/b.ts'))).toBe(true);
    // The named path is normalized: `..` cannot walk a file past a folder pattern, nor into one.
    const read = (p: string) => ev('PreToolUse', { tool: 'Read', toolInput: { file_path: p } });
    expect(
      matches({ trigger: 'PreToolUse', match: { files: ['secrets/**'] } }, read(`${ROOT}/src/../secrets/key`)),
    ).toBe(true);
    expect(matches({ trigger: 'PreToolUse', match: { files: ['secrets/**'] } }, read('src/../secrets/key'))).toBe(true);
    expect(matches({ trigger: 'PreToolUse', match: { files: ['src/**'] } }, read(`${ROOT}/src/../lib/b.ts`))).toBe(
      false,
    );
  });
  test('Stop / SubagentStop: a file changed in the turn must match; no change → no run', () => {
    const stop = { trigger: 'Stop' as const, match: { files: ['*.ts'] } };
    expect(matches(stop, ev('Stop', { files: [file('README.md'), file('src/a.ts')] }))).toBe(true);
    expect(matches(stop, ev('Stop', { files: [file('README.md')] }))).toBe(false);
    expect(matches(stop, ev('Stop'))).toBe(false);
    expect(
      matches({ trigger: 'SubagentStop', match: { files: ['*.ts'] } }, ev('SubagentStop', { files: [file('x.ts')] })),
    ).toBe(true);
    expect(matches({ trigger: 'Stop' }, ev('Stop'))).toBe(true); // without files: every Stop
  });
  test('events that carry no files ignore match.files', () => {
    expect(matches({ trigger: 'UserPromptSubmit', match: { files: ['*.ts'] } }, ev('UserPromptSubmit'))).toBe(true);
  });
  test('matchedFiles returns the files a validator selects', () => {
    const e = write('a.ts', 'b.md', 'c/d.ts');
    expect(matchedFiles(v('x', { match: { files: ['*.ts'] } }), e).map((x) => x.relPath)).toEqual(['a.ts', 'c/d.ts']);
    expect(matchedFiles(v('x'), e)).toHaveLength(3);
  });
});

describe('triggerMatcher', () => {
  const cases: Array<[string, string, string | undefined, boolean]> = [
    ['SessionStart', 'startup|resume', 'startup', true],
    ['SessionStart', 'startup|resume', 'clear', false],
    ['SessionStart', 'startup', 'startup-ish', false],
    ['SessionEnd', 'logout', 'logout', true],
    ['SessionEnd', 'logout', 'other', false],
    ['Setup', 'init', 'init', true],
    ['Setup', 'init', 'maintenance', false],
    ['PreCompact', 'auto', 'auto', true],
    ['PreCompact', 'auto', 'manual', false],
    ['Notification', 'permission_prompt|idle_prompt', 'idle_prompt', true],
    ['Notification', 'permission_prompt', 'auth_success', false],
    ['SubagentStart', 'Explore', 'Explore', true],
    ['SubagentStop', 'Plan', 'general-purpose', false],
    ['SessionStart', 'Startup', 'startup', false], // case-sensitive
    ['SessionStart', 'startup', undefined, false], // no value: cannot confirm
  ];
  for (const [trigger, tm, value, want] of cases) {
    test(`${trigger} ${tm} vs ${value} → ${want}`, () => {
      expect(
        matches(
          { trigger: trigger as 'Stop', triggerMatcher: tm },
          ev(trigger, value === undefined ? {} : { matcherValue: value }),
        ),
      ).toBe(want);
    });
  }
  test('no triggerMatcher: every value', () => {
    expect(matches({ trigger: 'SessionStart' }, ev('SessionStart', { matcherValue: 'compact' }))).toBe(true);
  });
});

describe('once', () => {
  test('matching is stateless: a once validator matches like any other (the hook claims it per session)', () => {
    const vs = [v('once', { once: true }), v('always')];
    expect(ids(matchValidators(vs, write('a.ts')))).toEqual(['once', 'always']);
  });
});

describe('load errors', () => {
  const err = (trigger?: LoadError['trigger']): LoadError => ({
    source: 'project',
    path: '/x.md',
    message: 'm',
    fix: 'f',
    ...(trigger ? { trigger } : {}),
  });
  test('concern events of their trigger, and every event when the trigger is unknown', () => {
    const errors = [err('PostToolUse'), err('Stop'), err()];
    expect(loadErrorsForEvent(errors, write('a.ts'))).toEqual([errors[0]!, errors[2]!]);
    expect(loadErrorsForEvent(errors, ev('Stop'))).toEqual([errors[1]!, errors[2]!]);
    expect(loadErrorsForEvent(errors, ev('SessionStart'))).toEqual([errors[2]!]);
  });
});

describe('real Claude Code inputs', () => {
  const fixture = (name: string) =>
    JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/hook/claude-code', name), 'utf8'));
  test('PostToolUse Edit of src/config.ts through the Claude adapter', () => {
    const event = normalizeClaudeEvent(fixture('hook-input-PostToolUse-Edit.json'), { CLAUDE_PROJECT_DIR: ROOT });
    const vs = [
      v('ts', { match: { tools: ['Write|Edit|MultiEdit'], files: ['*.ts'] } }),
      v('src-js', { match: { files: ['src/**/*.js'] } }),
      v('abs', { match: { files: ['/home/dev/project/src/*.ts'] } }),
      v('writes-only', { match: { tools: ['Write'] } }),
    ];
    expect(ids(matchValidators(vs, event))).toEqual(['ts', 'abs']);
  });
});
