/** Ajv, for `await import('./ajv.ts')`: why a static import, see src/registry/semver.ts. */
import Ajv from 'ajv';

export default Ajv;
