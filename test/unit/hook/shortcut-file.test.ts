/**
 * The hook shortcut's record rules (src/hook/shortcut/shortcut-file.ts), one by one: which calls may be recorded at
 * all, which before-tool calls are the guard's whatever a record says, how a call and an environment are keyed, where
 * avp's home is when the shortcut can know it, and which files count as a record. The integration tests drive them
 * through the binary; here each rule is held to its table (the mutation run of the file left these unpinned).
 */
import { describe, expect, test } from 'bun:test';
import {
  envDigest,
  guardedTool,
  recordable,
  recordHolds,
  SHORTCUT_FORMAT,
  shortcutCall,
  shortcutHome,
} from '../../../src/hook/shortcut/shortcut-file.ts';
import { VERSION } from '../../../src/version.ts';

describe('which calls may be recorded', () => {
  const KINDS = ['read', 'other', 'write', 'edit', 'shell', undefined] as const;
  const cases: [string, (typeof KINDS)[number], boolean, boolean][] = [];
  for (const installed of [false, true])
    for (const kind of KINDS) {
      const guarded = kind === 'write' || kind === 'edit' || kind === 'shell';
      // The guard reads a permission request and a file-changing or shell tool's before-tool call: never recorded.
      cases.push(['PermissionRequest', kind, installed, false]);
      cases.push(['PreToolUse', kind, installed, kind !== undefined && !guarded]);
      // After the tool ran: session tracking records file tools and shell calls once validators are installed.
      for (const event of ['PostToolUse', 'PostToolUseFailure'])
        cases.push([event, kind, installed, !installed || !guarded]);
      // Other events start turns, end them, begin sessions: the full path's alone once validators are installed.
      for (const event of ['UserPromptSubmit', 'Stop', 'SessionStart', 'Notification'])
        cases.push([event, kind, installed, !installed]);
    }
  test.each(cases)('%s of a %s tool, validators installed: %p → %p', (event, kind, installed, want) => {
    expect(recordable(event, kind, installed)).toBe(want);
  });
});

describe("the guard's before-tool calls, told by Claude Code's tool table", () => {
  test.each([
    ['Write', true],
    ['Edit', true],
    ['MultiEdit', true],
    ['NotebookEdit', true],
    ['Bash', true],
    ['Read', false],
    ['Grep', false],
    ['WebFetch', false],
    ['mcp__files__write_file', false],
    // Names an object has without owning them are tools like any other unknown one.
    ['constructor', false],
    ['__proto__', false],
    ['toString', false],
  ] as const)('%s → %p', (tool, want) => {
    expect(guardedTool(tool)).toBe(want);
  });
});

describe('keys', () => {
  test('a call: its event, tool and folder (a call without a tool has an empty one)', () => {
    expect(shortcutCall('PostToolUse', 'Read', '/p')).toBe('PostToolUse\0Read\0/p');
    expect(shortcutCall('Stop', undefined, '/p')).toBe('Stop\0\0/p');
    expect(shortcutCall('PostToolUse', 'Read', '/p')).not.toBe(shortcutCall('PostToolUse', 'Read', '/q'));
  });

  test('an environment: every name and value, in any order, the trace switch left out', () => {
    const base = { PATH: '/bin', HOME: '/h', AVP_MODEL: 'a' };
    expect(envDigest(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(envDigest({ AVP_MODEL: 'a', HOME: '/h', PATH: '/bin' })).toBe(envDigest(base));
    expect(envDigest({ ...base, AVP_MODEL: 'b' })).not.toBe(envDigest(base));
    expect(envDigest({ ...base, AVP_MODEL: '' })).not.toBe(envDigest(base));
    expect(envDigest({ ...base, AVP_JUDGE: 'x' })).not.toBe(envDigest(base));
    expect(envDigest({ ...base, AVP_SHORTCUT_TRACE: '1' })).toBe(envDigest(base));
    expect(envDigest({})).toBe(new Bun.CryptoHasher('sha256').update('').digest('hex'));
  });
});

describe("avp's home as the shortcut knows it", () => {
  test.each([
    [{ AVP_HOME: '/srv/avp' }, '/srv/avp'],
    [{ AVP_HOME: '/srv/avp', HOME: '/h' }, '/srv/avp'],
    [{ HOME: '/home/u' }, '/home/u/.avp'],
    [{ HOME: '/' }, '/.avp'],
    [{ AVP_HOME: '', HOME: '/home/u' }, '/home/u/.avp'],
    [{}, undefined],
    [{ HOME: '' }, undefined],
    [{ AVP_HOME: 'rel/avp' }, undefined],
    [{ HOME: 'rel' }, undefined],
    [{ AVP_HOME: '/srv/avp/' }, undefined],
    [{ AVP_HOME: '/srv//avp' }, undefined],
    [{ AVP_HOME: '/srv/./avp' }, undefined],
    [{ AVP_HOME: '/srv/avp/.' }, undefined],
    [{ AVP_HOME: '/srv/../avp' }, undefined],
    [{ AVP_HOME: '/srv/avp/..' }, undefined],
    [{ AVP_HOME: '/srv/a..b/.avp' }, '/srv/a..b/.avp'],
    [{ AVP_HOME: '/' }, '/'],
  ] as [NodeJS.ProcessEnv, string | undefined][])('%o → %p', (env, want) => {
    expect(shortcutHome(env)).toBe(want);
  });
});

describe('what counts as a record', () => {
  const digest = envDigest({ PATH: '/bin' });
  const record = { format: SHORTCUT_FORMAT, version: VERSION, env: digest, calls: [], seen: [], stdout: '{}\n' };
  test('one of this format, avp version and environment, with its lists and answer', () => {
    expect(recordHolds(record, digest)).toBe(true);
  });
  test.each([
    ['nothing', null],
    ['another format', { ...record, format: SHORTCUT_FORMAT + 1 }],
    ['another avp', { ...record, version: '0.0.1' }],
    ['another environment', { ...record, env: envDigest({ PATH: '/usr/bin' }) }],
    ['calls that are not a list', { ...record, calls: 'x' }],
    ['stats that are not a list', { ...record, seen: {} }],
    ['no answer', { ...record, stdout: undefined }],
    ['an answer that is not text', { ...record, stdout: 1 }],
  ])('not %s', (_, file) => {
    expect(recordHolds(file, digest)).toBe(false);
  });
});
