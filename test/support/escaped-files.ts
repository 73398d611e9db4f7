/**
 * Files a hostile archive entry may have written outside the install folder: every file under the sandbox roots
 * (HOME with AVP_HOME inside, the project) whose name starts with `marker` or whose bytes are exactly `payload`,
 * plus where each given entry would land relative to each given base folder if a `..` were followed. A zip-slip test
 * asserts this is empty, so it cannot pass by looking where the entry could never have landed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export function escapedFiles(opts: {
  roots: string[];
  marker: string;
  payload: string;
  entries?: string[];
  bases?: string[];
}): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(path);
      else if (
        name.startsWith(opts.marker) ||
        (st.size === opts.payload.length && readFileSync(path, 'utf8') === opts.payload)
      )
        found.add(path);
    }
  };
  for (const root of opts.roots) if (existsSync(root)) walk(root);
  for (const base of opts.bases ?? [])
    for (const entry of opts.entries ?? []) {
      const landing = resolve(base, entry);
      if (existsSync(landing) && basename(landing).startsWith(opts.marker)) found.add(landing);
    }
  return [...found].sort();
}
