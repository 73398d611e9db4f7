import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { forgetBlockedContents } from '../../../src/session/session.ts';
import { ensureSessionDir, getBlob, putBlob } from '../../../src/session/store.ts';
import { fileChange } from '../../support/events.ts';
import { ev, tempProject } from './helpers.ts';

const KEY_TEXT = 'const k = "sk-live-flag1";\n';
const CLEAN_TEXT = 'export const ok = 1;\n';

describe('contents a blocking verdict flagged are never at rest', () => {
  test('the blob goes, and the same content is never stored again in the session', () => {
    const root = tempProject();
    const dir = ensureSessionDir(root, 's1');
    const hash = putBlob(dir, KEY_TEXT)!;
    const files = [fileChange(root, 'a.ts', { after: KEY_TEXT })];
    const failed = [{ status: 'failed', verdict: { violations: [{ file: 'a.ts' }] } }];
    expect(forgetBlockedContents(ev(root, 'PostToolUse', { files }), failed)).toBeUndefined();
    expect(getBlob(dir, hash)).toBeUndefined();
    expect(putBlob(dir, KEY_TEXT)).toBeUndefined();
    expect(existsSync(join(dir, 'blobs', hash))).toBe(false);
    expect(putBlob(dir, CLEAN_TEXT)).toBeDefined();
  });

  test('only the files a failed verdict names; all of them when it names none or another', () => {
    const root = tempProject();
    const dir = ensureSessionDir(root, 's1');
    const files = [
      fileChange(root, 'src/a.ts', { after: KEY_TEXT }),
      fileChange(root, 'src/b.ts', { after: CLEAN_TEXT }),
    ];
    const event = ev(root, 'Stop', { files });
    forgetBlockedContents(event, [{ status: 'failed', verdict: { violations: [{ file: './src/a.ts' }] } }]);
    expect([putBlob(dir, KEY_TEXT), typeof putBlob(dir, CLEAN_TEXT)]).toEqual([undefined, 'string']);
    forgetBlockedContents(event, [{ status: 'error' }, { status: 'passed' }]);
    expect(typeof putBlob(dir, CLEAN_TEXT)).toBe('string');
    forgetBlockedContents(event, [{ status: 'failed', verdict: { violations: [{ file: 'elsewhere.ts' }] } }]);
    expect(putBlob(dir, CLEAN_TEXT)).toBeUndefined();
    expect(readdirSync(join(dir, 'flagged'))).toHaveLength(2);
  });
});
