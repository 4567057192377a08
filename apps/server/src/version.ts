import pkg from '../../../package.json' with { type: 'json' };

/** The running Remit's version: the repository's package.json, which CHANGELOG.md describes version by version. */
export const REMIT_VERSION: string = pkg.version;
