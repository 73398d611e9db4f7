/**
 * A small deterministic PRNG for the hook fuzzer. Every case gets its own stream derived from (run seed, case
 * number), so one failing case can be regenerated alone (`AVP_FUZZ_SEED=… AVP_FUZZ_CASE=…`) without replaying the
 * cases before it.
 */

/** The default seed: fixed, so CI runs the same inputs every time (a date-derived seed would make failures flaky). */
export const DEFAULT_SEED = 0x5eed_a1f0;

/** The run's seed: `AVP_FUZZ_SEED` (decimal or 0x-hex) when set, else the fixed default. */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.AVP_FUZZ_SEED?.trim();
  if (!given) return DEFAULT_SEED;
  const n = Number(given);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`AVP_FUZZ_SEED must be a non-negative integer, got "${given}"`);
  return n >>> 0;
}

/** Mixes two 32-bit numbers into one (murmur3's finalizer), so neighbouring case numbers get unrelated streams. */
export function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: tiny, fast, and good enough to spread choices; not for cryptography. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of items) if ((x -= w) < 0) return v;
    return items[items.length - 1]![1];
  }
}
