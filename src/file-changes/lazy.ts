/**
 * A property computed on its first read — how a created file's diff is carried (diff.ts `setCreateDiff`) — and kept so
 * in the copies that in-process scripts get (judges/builtin-script.ts `jsonCopy`).
 */

/** Defines `key` on `target` as an enumerable property computed once, on first read; assigning it makes it plain. */
export function lazyProperty<T>(target: object, key: string, compute: () => T): void {
  let done = false;
  let value: T | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!done) [value, done] = [compute(), true];
      return value;
    },
    set(this: object, next: unknown) {
      Object.defineProperty(this, key, { value: next, enumerable: true, configurable: true, writable: true });
    },
  });
}
