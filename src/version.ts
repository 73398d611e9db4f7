import pkg from '../package.json' with { type: 'json' };

/** avp's version, inlined at build time. */
export const VERSION: string = pkg.version;
