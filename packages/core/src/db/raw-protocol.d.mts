import type { PGlite } from '@electric-sql/pglite';

export declare function rawRunner(db: Pick<PGlite, 'execProtocolRawStream'>): (message: Uint8Array) => Uint8Array;
