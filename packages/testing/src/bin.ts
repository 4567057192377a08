#!/usr/bin/env node
// remit-sandbox: the same sandbox as startSandbox(), for test tools in other languages (Cypress,
// pytest, RSpec). Prints one JSON line with the address, the credentials, a ready merchant and the
// webhook receiver's address, then serves until SIGTERM or SIGINT, or until its parent is gone.
import { startSandbox } from './sandbox.js';
import { onParentGone } from './parent-watch.js';

const HELP = `Usage: remit-sandbox [--port N] [--webhooks-port N] [--host ADDRESS] [--no-merchant]

Starts a Remit sandbox (in-memory database) and prints one JSON line:
  {"url", "credentials": {"clientId", "secretKey"}, "merchant": {"merchantKey", "merchantId", "publicKey"}, "webhooksUrl"}
--webhooks-port pins the webhook receiver's port (127.0.0.1); a GET on it lists what it received.
The /testing endpoints (forced outcomes, reset, clock, next webhook or message, trigger) take
the printed credentials. Stops on SIGTERM or SIGINT, or when the process that started it exits.
PORT in the environment sets the port too.`;

function parse(argv: string[]) {
  const out = {
    port: process.env.PORT ? Number(process.env.PORT) : (undefined as number | undefined),
    host: undefined as string | undefined,
    webhooksPort: undefined as number | undefined,
    merchant: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') {
      console.log(HELP);
      process.exit(0);
    } else if (a === '--port') out.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) out.port = Number(a.slice(7));
    else if (a === '--webhooks-port') out.webhooksPort = Number(argv[++i]);
    else if (a.startsWith('--webhooks-port=')) out.webhooksPort = Number(a.slice(16));
    else if (a === '--host') out.host = argv[++i];
    else if (a.startsWith('--host=')) out.host = a.slice(7);
    else if (a === '--no-merchant') out.merchant = false;
    else {
      console.error(`remit-sandbox: unknown option ${a}\n\n${HELP}`);
      process.exit(2);
    }
  }
  for (const [flag, v] of [
    ['--port', out.port],
    ['--webhooks-port', out.webhooksPort],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v < 65536)) {
      console.error(`remit-sandbox: ${flag} must be a whole number from 0 to 65535`);
      process.exit(2);
    }
  }
  return out;
}

const args = parse(process.argv.slice(2));
// From the first moment: a signal or the parent's end during the start stops it once started.
const started = startSandbox({ port: args.port, host: args.host, webhooksPort: args.webhooksPort });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  started
    .then((sandbox) => sandbox.stop())
    .then(
      () => process.exit(0),
      (err: Error) => {
        console.error(`remit-sandbox: ${err.message}`);
        process.exit(1);
      },
    );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// `npx` killed without passing the signal on (or its shell left behind): this process is left alone.
onParentGone(stop);

let sandbox;
try {
  sandbox = await started;
} catch (err) {
  console.error(`remit-sandbox: cannot start: ${(err as Error).message}`);
  process.exit(1);
}
if (!stopping) {
  const merchant = args.merchant ? await sandbox.createMerchant() : null;
  process.stdout.write(
    `${JSON.stringify({ url: sandbox.url, credentials: sandbox.credentials, merchant, webhooksUrl: sandbox.webhooks.url })}\n`,
  );
}
