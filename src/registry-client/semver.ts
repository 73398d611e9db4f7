/**
 * semver, for `await import('./semver.ts')`. Importing the CommonJS package dynamically compiles to
 * `.then((m) => toESM(m.default, 1))`, and Bun 1.4's minifier may name that helper `m` too, which breaks the call
 * ("m is not a function") as soon as unrelated code shifts its naming; a static import here has no such wrapper.
 */
import semver from 'semver';

export default semver;
