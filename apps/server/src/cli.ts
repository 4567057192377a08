import { pathToFileURL } from 'node:url';
import { createCredentials, openCore } from '@remit/core';
import { coreOptions, loadConfig } from './config.js';

export const USAGE = `Usage: npm run remit -- <command> [options]

Commands:
  credentials create [--json]   Create API credentials (client_id and secret_key) for this
                                server's environment: sk_test_ keys in sandbox, sk_live_ keys
                                in production. The secret key is shown once; only its digest is kept.
  help                          Show this help (also --help, -h).

Options:
  --json                        Print {"client_id": …, "secret_key": …} as JSON.

Reads the same configuration as the server: REMIT_ENV (sandbox|production), DATABASE_URL, or
REMIT_DATA_DIR (embedded database; default ./.remit), and REMIT_ENCRYPTION_KEY (required in
production). With the embedded database, stop the server first: one process owns the data directory
(the command refuses while a server holds it).
`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

/** Runs one command; returns the process exit code. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = process.env, io: Io = stdio): Promise<number> {
  const flags = new Set(args.filter((a) => a.startsWith('-')));
  const words = args.filter((a) => !a.startsWith('-'));
  if (flags.has('--help') || flags.has('-h') || words[0] === 'help' || words.length === 0) {
    io.out(USAGE);
    return words.length === 0 && !flags.has('--help') && !flags.has('-h') ? 1 : 0;
  }
  const unknownFlags = [...flags].filter((f) => f !== '--json');
  if (words.join(' ') !== 'credentials create' || unknownFlags.length > 0) {
    io.err(`Unknown command or option: ${args.join(' ')}\n\n${USAGE}`);
    return 2;
  }

  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    io.err(`Configuration error: ${(e as Error).message}\n`);
    return 1;
  }
  let core;
  try {
    core = await openCore({ ...coreOptions(config), poolSize: 1 });
  } catch (e) {
    // Above all: the embedded database is held by a running server. Never write beside it.
    io.err(`remit: cannot open the database: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    const creds = await createCredentials(core.ctx);
    if (flags.has('--json')) {
      io.out(`${JSON.stringify(creds)}\n`);
    } else {
      io.out(`client_id:  ${creds.client_id}\nsecret_key: ${creds.secret_key}\n`);
      io.err(`Created ${config.env} credentials. Store the secret key now: it cannot be shown again.\n`);
    }
    return 0;
  } finally {
    // Closing flushes the embedded database to disk.
    await core.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.umask(0o077);
  process.exitCode = await runCli(process.argv.slice(2));
}
