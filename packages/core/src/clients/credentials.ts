import { eq } from 'drizzle-orm';
import type { Credentials } from '@remit/contract';
import type { Ctx } from '../context.js';
import { clients } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { newId } from '../ids.js';
import { digest, digestEquals, keyEnv, newKey, type Env } from '../keys.js';

export type { Credentials };

export interface Client {
  id: string;
  env: Env;
}

/** Makes a client and its secret; the secret is returned once and kept only as a digest. */
export async function createCredentials(ctx: Pick<Ctx, 'db' | 'env'>): Promise<Credentials> {
  const id = newId.client();
  const secret = newKey.secret(ctx.env);
  await ctx.db.insert(clients).values({ id, env: ctx.env, secretHash: digest(secret) });
  return { client_id: id, secret_key: secret };
}

/**
 * A client's id, secret digest and environment never change once made, so every request after
 * the first skips the lookup. One cache per database; bounded, the oldest entry goes first.
 */
type AuthRow = { secretHash: string; env: string };
const authCaches = new WeakMap<object, Map<string, AuthRow>>();
function authRowsOf(db: object): Map<string, AuthRow> {
  let rows = authCaches.get(db);
  if (!rows) authCaches.set(db, (rows = new Map()));
  return rows;
}
const AUTH_CACHE_SIZE = 10_000;

async function loadAuthRow(ctx: Pick<Ctx, 'db'>, clientId: string) {
  const [row] = await ctx.db
    .select({ secretHash: clients.secretHash, env: clients.env })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!row) return undefined;
  const authRows = authRowsOf(ctx.db);
  if (authRows.size >= AUTH_CACHE_SIZE) authRows.delete(authRows.keys().next().value!);
  authRows.set(clientId, row);
  return row;
}

const unauthorized = (message: string) => new RemitError('unauthorized', message);

const MISSING =
  'Authentication required: send HTTP Basic credentials (username client_id, password secret_key).';
const WRONG = 'Invalid client credentials.';

/** Checks an `Authorization: Basic …` header against the stored client. */
export async function authenticateClient(ctx: Pick<Ctx, 'db' | 'env'>, header: string | undefined): Promise<Client> {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!m) throw unauthorized(MISSING);
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw unauthorized(MISSING);
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  const secretEnv = keyEnv(secret);
  if (secretEnv && secretEnv !== ctx.env) {
    throw unauthorized(
      `This secret key belongs to the ${secretEnv} environment; this server is ${ctx.env}. Use a ${ctx.env} key.`,
    );
  }
  if (clientId.length > 100) throw unauthorized(WRONG);
  const row = authRowsOf(ctx.db).get(clientId) ?? (await loadAuthRow(ctx, clientId));
  if (!row || !digestEquals(secret, row.secretHash)) throw unauthorized(WRONG);
  if (row.env !== ctx.env) {
    throw unauthorized(`These credentials belong to the ${row.env} environment; this server is ${ctx.env}.`);
  }
  return { id: clientId, env: row.env as Env };
}
