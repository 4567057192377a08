/**
 * The types Drizzle reads from text itself (timestamp, timestamptz, interval, date, and the arrays
 * of those and of numeric): both drivers are told to leave them as text, as Drizzle's own queries
 * ask node-postgres and PGlite to.
 */
export const DRIZZLE_TEXT_TYPES: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

/** A result parser that leaves the value as the database's text. */
export const asText = (value: string) => value;

/** Result parsers by type OID (PGlite's `parsers` option) that leave each of `types` as text. */
export const textParsers = (types: readonly number[]): Record<number, typeof asText> =>
  Object.fromEntries(types.map((t) => [t, asText]));
