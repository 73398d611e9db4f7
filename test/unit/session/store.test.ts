import { describe, expect, test } from 'bun:test';
import { appendFileSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureProjectLayout } from '../../../src/session/layout.ts';
import {
  appendRecords,
  ensureSessionDir,
  pruneSessions,
  readRecords,
  sessionDir,
  stateRoot,
} from '../../../src/session/store.ts';
import { gitRepo, tempProject, TEST_AVP_HOME } from './helpers.ts';

describe('state store', () => {
  test('session ids are one safe path segment', () => {
    const root = tempProject();
    expect(sessionDir(root, '../../etc/passwd')).toBe(join(stateRoot(root), '__.._etc_passwd'));
    expect(sessionDir(root, '')).toBe(join(stateRoot(root), '_'));
  });

  test('a torn last line (a writer killed mid-write) is skipped', () => {
    const root = tempProject();
    const dir = ensureSessionDir(root, 's');
    writeFileSync(join(dir, 'events.jsonl'), '{"t":"turn","ts":1,"reason":"prompt"}\n{"t":"change","ts":2,"pa');
    expect(readRecords(dir)).toEqual([{ t: 'turn', ts: 1, reason: 'prompt' }]);
  });

  test('sessions idle for longer than the max age are pruned, at most once an hour', () => {
    const root = tempProject();
    const old = ensureSessionDir(root, 'old');
    const fresh = ensureSessionDir(root, 'fresh');
    appendFileSync(join(fresh, 'events.jsonl'), '{}\n');
    const longAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(old, longAgo, longAgo);
    expect(pruneSessions(root)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    const again = ensureSessionDir(root, 'old2');
    utimesSync(again, longAgo, longAgo);
    expect(pruneSessions(root)).toBe(0); // pruned less than an hour ago
  });

  test("pruning also removes other projects' old sessions, and a project folder left empty", () => {
    const gone = tempProject();
    const kept = tempProject();
    const idle = ensureSessionDir(gone, 'idle');
    const live = ensureSessionDir(kept, 'live');
    const longAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(idle, longAgo, longAgo);
    expect(pruneSessions(tempProject())).toBe(0); // a project with no state yet prunes nothing
    ensureSessionDir(kept, 'other');
    // At least `idle` (other tests of this process may have left old sessions of their own projects).
    expect(pruneSessions(kept)).toBeGreaterThanOrEqual(1);
    expect([existsSync(stateRoot(gone)), existsSync(live)]).toEqual([false, true]);
  });

  test('session state lives under $AVP_HOME, keyed by project, private to the user; nothing in the project', () => {
    const root = tempProject();
    gitRepo(root);
    const dir = ensureSessionDir(root, 's1');
    appendRecords(dir, [{ t: 'turn', ts: 1, reason: 'prompt' }]);
    expect(dir.startsWith(join(TEST_AVP_HOME, 'sessions'))).toBe(true);
    expect(stateRoot(root)).not.toBe(stateRoot(tempProject()));
    expect(existsSync(join(root, '.avp'))).toBe(false);
    for (const d of [join(TEST_AVP_HOME, 'sessions'), stateRoot(root), dir])
      expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'events.jsonl')).mode & 0o777).toBe(0o600);
    const status = Bun.spawnSync(['git', 'status', '--porcelain', '-uall'], { cwd: root }).stdout.toString();
    expect(status).toBe('');
  });

  test('init layout: validators/ and a .gitignore, missing lines appended to an existing one', () => {
    const root = tempProject();
    expect(ensureProjectLayout(root, true)).toHaveLength(2);
    expect(existsSync(join(root, '.avp'))).toBe(false); // dry run
    ensureProjectLayout(root);
    expect(readFileSync(join(root, '.avp', '.gitignore'), 'utf8')).toContain('logs/\ncache/\n.staging/\n');
    expect(ensureProjectLayout(root)).toEqual([]);
    writeFileSync(join(root, '.avp', '.gitignore'), 'state/');
    ensureProjectLayout(root);
    expect(readFileSync(join(root, '.avp', '.gitignore'), 'utf8')).toBe('state/\nlogs/\ncache/\n.staging/\n');
  });
});
