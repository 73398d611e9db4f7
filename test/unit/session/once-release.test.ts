import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { onceState } from '../../../src/session/session.ts';
import { stateRoot } from '../../../src/session/store.ts';
import { tempDir } from '../../support/run-avp.ts';
// Session state lives under $AVP_HOME: the helpers set a throwaway one, never the user's.
import './helpers.ts';

describe('once claims: only an evaluated run is done', () => {
  test('a released claim can be won again; an unreleased one cannot', async () => {
    const root = tempDir('avp-once-');
    const a = await onceState(root, 's1');
    expect(await a.claim(['lint', 'setup'])).toEqual(['lint', 'setup']);
    await a.release(['setup']);
    expect(a.isDone('setup')).toBe(false);
    const b = await onceState(root, 's1');
    expect(b.isDone('lint')).toBe(true);
    expect(b.isDone('setup')).toBe(false);
    expect(await b.claim(['lint', 'setup'])).toEqual(['setup']);
  });

  test('releasing what was never claimed, or without a session, is a no-op', async () => {
    const root = tempDir('avp-once-');
    const a = await onceState(root, 's1');
    await a.release(['never']);
    const none = await onceState(root, undefined);
    await none.release(['x']);
    expect(await (await onceState(root, 's1')).claim(['never'])).toEqual(['never']);
  });

  test('while a claim is held, racing claimers lose; after release exactly one of them wins', async () => {
    const root = tempDir('avp-once-');
    const holder = await onceState(root, 's1');
    expect(await holder.claim(['v'])).toEqual(['v']);
    const racers = await Promise.all(Array.from({ length: 8 }, () => onceState(root, 's1')));
    expect((await Promise.all(racers.map((r) => r.claim(['v'])))).flat()).toEqual([]);
    await holder.release(['v']);
    const again = await Promise.all(Array.from({ length: 8 }, () => onceState(root, 's1')));
    expect((await Promise.all(again.map((r) => r.claim(['v'])))).flat()).toEqual(['v']);
    expect(readdirSync(join(stateRoot(root), 's1', 'once')).length).toBeGreaterThan(0);
  });
});
