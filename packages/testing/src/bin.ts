#!/usr/bin/env node
// remit-sandbox: the same sandbox as startSandbox(), for test tools in other languages (Cypress,
// pytest, RSpec). Prints one JSON line with the address, the credentials, a ready merchant and the
// webhook receiver's address, then serves until SIGTERM or SIGINT.
import { startSandbox } from './sandbox.js';

const HELP = `Usage: remit-sandbox [--port N] [--host ADDRESS] [--no-merchant]

Starts a Remit sandbox (in-memory database) and prints one JSON line:
  {"url", "credentials": {"clientId", "secretKey"}, "merchant": {"merchantKey", "merchantId", "publicKey"}, "webhooksUrl"}
Stops on SIGTERM or SIGINT. PORT in the environment sets the port too.`;

function parse(argv: string[]) {
  const out = {
    port: process.env.PORT ? Number(process.env.PORT) : (undefined as number | undefined),
    host: undefined as string | undefined,
    merchant: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') {
      console.log(HELP);
      process.exit(0);
    } else if (a === '--port') out.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) out.port = Number(a.slice(7));
    else if (a === '--host') out.host = argv[++i];
    else if (a.startsWith('--host=')) out.host = a.slice(7);
    else if (a === '--no-merchant') out.merchant = false;
    else {
      console.error(`remit-sandbox: unknown option ${a}\n\n${HELP}`);
      process.exit(2);
    }
  }
  if (out.port !== undefined && !(Number.isInteger(out.port) && out.port >= 0 && out.port < 65536)) {
    console.error('remit-sandbox: --port must be a whole number from 0 to 65535');
    process.exit(2);
  }
  return out;
}

const args = parse(process.argv.slice(2));
let sandbox;
try {
  sandbox = await startSandbox({ port: args.port, host: args.host });
} catch (err) {
  console.error(`remit-sandbox: cannot start: ${(err as Error).message}`);
  process.exit(1);
}
const merchant = args.merchant ? await sandbox.createMerchant() : null;
process.stdout.write(
  `${JSON.stringify({ url: sandbox.url, credentials: sandbox.credentials, merchant, webhooksUrl: sandbox.webhooks.url })}\n`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  sandbox.stop().then(
    () => process.exit(0),
    (err: Error) => {
      console.error(`remit-sandbox: ${err.message}`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
