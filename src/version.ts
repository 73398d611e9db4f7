import { version } from '../package.json' with { type: 'json' };

/** avp's version, inlined at build time (a named import: the bundle keeps this one field of package.json). */
export const VERSION: string = version;
