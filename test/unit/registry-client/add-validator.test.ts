import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listCatalog } from '../../../src/catalog/index.ts';
import { addValidator, removeValidator } from '../../../src/registry-client/install.ts';

describe('addValidator (the contract avp init uses)', () => {
  test('offline installs every catalog validator into the project, recorded as catalog with a tree integrity', async () => {
    const root = mkdtempSync(join(tmpdir(), 'avp-rc-lib-'));
    try {
      const env = { AVP_HOME: join(root, 'home') };
      const catalog = await listCatalog();
      expect(catalog.length).toBeGreaterThan(0);
      for (const entry of catalog) {
        const r = await addValidator(entry.name, { scope: 'project', projectRoot: root, offline: true, env });
        expect(r).toMatchObject({
          name: entry.name,
          version: entry.version,
          source: 'catalog',
          dir: join(root, '.avp', 'validators', entry.name),
        });
        expect(existsSync(join(r.dir, 'VALIDATOR.md'))).toBe(true);
      }
      const lock = JSON.parse(readFileSync(join(root, '.avp', 'avp-lock.json'), 'utf8'));
      expect(Object.keys(lock.packages).sort()).toEqual(catalog.map((c) => c.name).sort());
      for (const e of Object.values(lock.packages) as Array<{ resolved: string; integrity: string }>) {
        expect(e.resolved).toMatch(/^catalog:[a-z0-9-]+@\d+\.\d+\.\d+/);
        expect(e.integrity).toMatch(/^sha512-/);
      }
      expect(existsSync(join(root, 'home'))).toBe(false); // project installs never touch the user home
      await removeValidator(catalog[0]!.name, { scope: 'project', projectRoot: root, env });
      expect(existsSync(join(root, '.avp', 'validators', catalog[0]!.name))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
