/**
 * Gemini CLI's continuation after a blocked Stop (avp's reason sent back as a prompt) is told from a user's prompt by
 * the reason avp recorded at that Stop.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteStopReason, takeStopContinuation } from '../../../src/session/continuation.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const session = () => {
  const d = mkdtempSync(join(tmpdir(), 'avp-continuation-'));
  dirs.push(d);
  return d;
};
const REASON = 'avp: 1 validator failed at Stop.\n[always-fail-stop] never satisfied — give up';

test('the prompt that is avp’s last Stop reason is the continuation, once', () => {
  const dir = session();
  noteStopReason(dir, REASON);
  expect(takeStopContinuation(dir, `${REASON}\n`)).toBe(true);
  expect(takeStopContinuation(dir, REASON)).toBe(false);
});

test('a reason joined with another hook’s is still found; a short one only whole', () => {
  const dir = session();
  noteStopReason(dir, REASON);
  expect(takeStopContinuation(dir, `other hook: fix lint\n${REASON}`)).toBe(true);
  noteStopReason(dir, 'fix it');
  expect(takeStopContinuation(dir, 'please fix it now')).toBe(false);
  expect(takeStopContinuation(dir, 'fix it')).toBe(true);
});

test('a user prompt is no continuation, nor anything after a Stop avp let through', () => {
  const dir = session();
  expect(takeStopContinuation(dir, REASON)).toBe(false);
  noteStopReason(dir, REASON);
  expect(takeStopContinuation(dir, 'Now add a test.')).toBe(false);
  expect(takeStopContinuation(dir, '')).toBe(false);
  expect(takeStopContinuation(dir, undefined)).toBe(false);
  noteStopReason(dir, undefined);
  expect(takeStopContinuation(dir, REASON)).toBe(false);
});
