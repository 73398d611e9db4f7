/**
 * A check of a known bug: `test.failing` (it passes while the bug is there and fails once it is fixed) with a tag in
 * its name, so scripts/test.sh can name every known bug above the suite's closing line (bun's report shows a
 * passing `test.failing` as an ordinary pass).
 */
import { test } from 'bun:test';

export const KNOWN_BUG_TAG = '[known bug: test.failing]';

/** `test`, or the tagged `test.failing` when `known`. */
export function checkOrKnownBug(known: boolean): (name: string, fn: () => void | Promise<void>) => void {
  return known ? (name, fn) => test.failing(`${name} ${KNOWN_BUG_TAG}`, fn) : (name, fn) => test(name, fn);
}
