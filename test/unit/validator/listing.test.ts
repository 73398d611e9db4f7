/**
 * The shared listing: a snapshot lists and stats each path once and then answers from memory (one hook call's view,
 * shared by the accepted-state check and discovery); discovery through a snapshot finds exactly what it finds live.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discover } from '../../../src/validator/discover.ts';
import { liveListing, snapshotListing } from '../../../src/validator/listing.ts';
import { projectControlFiles } from '../../../src/trust/control-files.ts';
import { tree, valid } from './helpers.ts';

describe('snapshotListing', () => {
  test('remembers what it saw first; the live listing sees the change', () => {
    const root = tree({ 'a.md': 'a' });
    const snap = snapshotListing();
    expect(snap.entries(root).map((e) => e.name)).toEqual(['a.md']);
    expect(snap.stat(join(root, 'b.md'))).toBeNull();
    writeFileSync(join(root, 'b.md'), 'b');
    expect(snap.entries(root).map((e) => e.name)).toEqual(['a.md']);
    expect(snap.stat(join(root, 'b.md'))).toBeNull();
    expect(liveListing.entries(root).map((e) => e.name)).toEqual(['a.md', 'b.md']);
    expect(liveListing.stat(join(root, 'b.md'))).not.toBeNull();
  });

  test('entries come in name order; a missing folder lists as empty; an unstat-able path is an error', () => {
    const root = tree({ 'c.md': 'c', 'a.md': 'a', 'b/x.md': 'x' });
    expect(liveListing.entries(root).map((e) => e.name)).toEqual(['a.md', 'b', 'c.md']);
    expect(snapshotListing().entries(join(root, 'missing'))).toEqual([]);
    symlinkSync('loop', join(root, 'loop'));
    expect(liveListing.stat(join(root, 'loop'))).toBe('error'); // ELOOP: not "missing", never equal to a stat
  });
});

describe('the same answers through a snapshot as live', () => {
  test('discovery and the control files, symlinked validators and nesting included', async () => {
    const base = tree();
    const projectRoot = join(base, 'repo');
    const home = join(base, 'home');
    const v = join(projectRoot, '.avp/validators');
    mkdirSync(join(home, 'validators'), { recursive: true });
    const files: Record<string, string> = {
      'one.md': valid('one'),
      'team/two/VALIDATOR.md': `${valid('two')}See \`references/r.md\`.\n`,
      'team/two/references/r.md': 'r',
      'style/VALIDATOR.md': valid('style'),
      'style/rules/a.md': 'A.',
      'broken/scripts/x.sh': 'echo',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(v, rel, '..'), { recursive: true });
      writeFileSync(join(v, rel), text);
    }
    const linked = tree({ 'VALIDATOR.md': valid('linked') });
    symlinkSync(linked, join(v, 'linked'));
    writeFileSync(join(home, 'validators', 'user-one.md'), valid('user-one'));
    const env = { AVP_HOME: home, HOME: home };
    const live = await discover({ projectRoot, env, noCache: true });
    const snap = snapshotListing();
    expect(projectControlFiles(projectRoot, snap)).toEqual(projectControlFiles(projectRoot));
    const shared = await discover({ projectRoot, env, noCache: true, listing: snap });
    expect(shared).toEqual(live);
    expect(live.validators.map((x) => x.name).sort()).toEqual(['linked', 'one', 'style', 'two', 'user-one']);
    expect(live.errors.length).toBe(1); // broken/: scripts/ without VALIDATOR.md
  });
});
