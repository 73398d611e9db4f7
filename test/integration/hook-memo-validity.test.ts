/**
 * The hook memo is what it says: a held memo answers as the full path would, without walking or parsing; a memo
 * that is broken, of another avp or of another key is ignored and written again; none is written while what a call
 * saw is younger than the racy window.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateBlocked, gatedProject, memoDir, parseCache, settle, writeEvent } from './hook-memo-support.ts';

describe('the hook memo is what it says', () => {
  test('a held memo answers like the full path: no walk, no parse cache, the gate still blocks', async () => {
    const p = await gatedProject();
    await Bun.sleep(2100);
    const first = await settle(p);
    // Without the parse cache, only the memo can tell this call what the validators are.
    rmSync(parseCache(p), { recursive: true, force: true });
    const second = await p.hook(writeEvent(p));
    gateBlocked(second);
    expect(second.json.reason).toBe(first.json.reason);
    expect(existsSync(parseCache(p))).toBe(false);
  }, 60_000);

  test('a memo that is broken, of another avp or of another key is ignored, and the full path answers', async () => {
    const p = await gatedProject();
    await Bun.sleep(2100);
    await settle(p);
    const [name] = readdirSync(memoDir(p));
    const path = join(memoDir(p), name!);
    const good = JSON.parse(readFileSync(path, 'utf8'));
    const { seen: _, ...noSeen } = good;
    const broken = [
      '{"format": 1, "seen": [',
      JSON.stringify({ ...good, version: '0.0.0-other' }),
      JSON.stringify({ ...good, format: 0 }),
      JSON.stringify({ ...good, key: `${good.key.slice(0, 16)}${'0'.repeat(48)}` }),
      JSON.stringify(noSeen),
      JSON.stringify({ ...good, seen: 'everything' }),
    ];
    for (const bad of broken) {
      writeFileSync(path, bad);
      rmSync(parseCache(p), { recursive: true, force: true });
      const r = await p.hook(writeEvent(p));
      gateBlocked(r);
      // The full path ran: it rebuilt the parse cache.
      expect({ bad: bad.slice(0, 60), parsed: existsSync(parseCache(p)) }).toEqual({
        bad: bad.slice(0, 60),
        parsed: true,
      });
    }
  }, 60_000);

  test('no memo is written while the files it would stand for are younger than the racy window', async () => {
    const p = await gatedProject();
    for (let i = 0; i < 3; i++) gateBlocked(await p.hook(writeEvent(p)));
    expect(existsSync(memoDir(p)) ? readdirSync(memoDir(p)) : []).toEqual([]);
    await Bun.sleep(2100);
    await settle(p);
    const path = join(memoDir(p), readdirSync(memoDir(p))[0]!);
    const before = readFileSync(path, 'utf8');
    // A new file at the project root moves the root folder's stats (its listing holds the config files): the next
    // call takes the full path, and may not stand for a folder changed a moment ago.
    p.write('notes.txt', 'x\n');
    gateBlocked(await p.hook(writeEvent(p)));
    expect(readFileSync(path, 'utf8')).toBe(before);
    await Bun.sleep(2100);
    gateBlocked(await p.hook(writeEvent(p)));
    const after = readFileSync(path, 'utf8');
    expect(after).not.toBe(before);
    // The same with the folder's mtime set back (\`touch -d\`): its ctime, which only the kernel sets, still says now.
    const old = statSync(p.root);
    p.write('more-notes.txt', 'x\n');
    utimesSync(p.root, old.atimeMs / 1000, old.mtimeMs / 1000);
    gateBlocked(await p.hook(writeEvent(p)));
    expect(readFileSync(path, 'utf8')).toBe(after);
  }, 60_000);
});
