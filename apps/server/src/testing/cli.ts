import { rmSync } from 'node:fs';
import { runCli } from '../cli.js';
import { createTestDatabase, testDbKind } from './harness.js';
import { emulatedStripeEnv, type StripeEmulator } from './stripe-emulator.js';
import { seededDataDir } from './data-dir.js';

/** An `io` for `runCli` that keeps what the command writes. */
export function captureIo() {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

/** The operator CLI run in this process with `env`: its exit code and what it wrote. */
export async function runCliCaptured(args: string[], env: NodeJS.ProcessEnv) {
  const io = captureIo();
  const code = await runCli(args, env, io);
  return { code, out: io.stdout, err: io.stderr };
}

/**
 * The CLI's (and a server's) environment on Stripe's emulator: a fresh data folder, or with
 * REMIT_TEST_DB=postgres a fresh database named `name`; `drop` removes it.
 */
export async function stripeCliEnv(emu: StripeEmulator, name: string, extra: Record<string, string> = {}) {
  const dataDir = await seededDataDir(name);
  const env: Record<string, string> = {
    REMIT_DATA_DIR: dataDir,
    REMIT_ENCRYPTION_KEY: 'c'.repeat(64),
    REMIT_PROCESSOR: 'stripe',
    REMIT_WORKERS: 'off',
    ...emulatedStripeEnv(emu),
    ...extra,
  };
  const db = testDbKind === 'postgres' ? await createTestDatabase(name) : null;
  if (db) env.DATABASE_URL = db.url;
  const drop = async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { env, drop };
}
