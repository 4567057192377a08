import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Env, OpenOptions } from '@remit/core';

export interface ServerConfig {
  port: number;
  host: string;
  env: Env;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  encryptionKey: Buffer;
  logLevel: string;
  /** The built pay page; unset: `apps/pay/dist` of this repository. */
  payDir?: string;
}

/**
 * Reads the operator contract of DESIGN.md from the environment. The encryption key comes from
 * REMIT_ENCRYPTION_KEY (32 bytes, base64 or hex); in sandbox without it, one is made once and
 * kept in the data directory so restarts can still read what they stored.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const remitEnv = (env.REMIT_ENV ?? 'sandbox') as Env;
  if (remitEnv !== 'sandbox' && remitEnv !== 'production') {
    throw new Error(`REMIT_ENV must be sandbox or production, not ${remitEnv}`);
  }
  const dataDir = resolve(env.REMIT_DATA_DIR ?? '.remit');
  return {
    port,
    host,
    env: remitEnv,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    encryptionKey: encryptionKey(env.REMIT_ENCRYPTION_KEY, dataDir, remitEnv),
    logLevel: env.LOG_LEVEL ?? 'info',
    payDir: env.REMIT_PAY_DIR ? resolve(env.REMIT_PAY_DIR) : undefined,
  };
}

/** The `openCore` options for this configuration: Postgres when DATABASE_URL is set, else the data directory. */
export function coreOptions(config: ServerConfig): OpenOptions {
  return {
    env: config.env,
    publicUrl: config.publicUrl,
    encryptionKey: config.encryptionKey,
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    filesDir: config.dataDir,
  };
}

function encryptionKey(given: string | undefined, dataDir: string, env: Env): Buffer {
  if (given) {
    const key = /^[0-9a-f]{64}$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.from(given, 'base64');
    if (key.length !== 32) throw new Error('REMIT_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64');
    return key;
  }
  if (env === 'production') throw new Error('REMIT_ENCRYPTION_KEY is required in production');
  const file = join(dataDir, 'encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}
