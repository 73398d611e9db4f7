/**
 * semver, for `await import('./semver.ts')`. Importing the CommonJS package dynamically compiles to
 * `.then((m) => toESM(m.default, 1))`, and Bun 1.4's minifier may name that helper `m` too, which breaks the call
 * ("m is not a function") as soon as unrelated code shifts its naming; a static import here has no such wrapper.
 */
import semver from 'semver';

export default semver;

/**
 * The version a spec names among `versions` (published, unyanked): an exact version as itself (`v1.0.0` read as
 * `1.0.0`), a range (`^1.0`, `~1.0.0`, `1.x`, `1.0`) as the highest version satisfying it; null when none does or
 * the spec is neither. The client's `avp add name@range` and the server's `GET …/{name}/{spec}` both resolve here.
 */
export function highestMatching(versions: string[], spec: string): string | null {
  const exact = semver.valid(spec);
  if (exact) return versions.includes(exact) ? exact : null;
  if (!semver.validRange(spec)) return null;
  return semver.maxSatisfying(
    versions.filter((v) => semver.valid(v)),
    spec,
  );
}
