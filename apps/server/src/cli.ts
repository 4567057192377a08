import { pathToFileURL } from 'node:url';
import {
  createCredentials,
  failedDeliveries,
  failedMessages,
  embedPolicy,
  isRemitError,
  openCore,
  operatorMerchant,
  operatorMerchants,
  purgeNow,
  reconcilePayments,
  recordCheckDepositAccount,
  refusedCalls,
  reinstateMerchant,
  resealAll,
  resealOutcome,
  rotateClientSecret,
  rotateWebhookSecret,
  suspendMerchant,
  walletDomainOf,
  type Core,
  type OperatorMerchant,
  type Refusal,
} from '@remit/core';
import { coreOptions, loadConfig, type ServerConfig } from './config.js';
import { configReport, maskUrl, reportLines } from './config-report.js';
import { REMIT_VERSION } from './version.js';
import { checkPage, findChromium, reportText } from './check-page.js';
import { builtLoader } from './routes/widget-assets.js';

export const USAGE = `Usage: npm run remit -- <command> [options]

Commands:
  credentials create [--json]       Create API credentials (client_id and secret_key) for this
                                    server's environment: sk_test_ keys in sandbox, sk_live_ keys
                                    in production. The secret key is shown once; only its digest is kept.
  credentials rotate <client_id> [--overlap <duration>] [--json]
                                    Give a client a new secret key, shown once. Without --overlap the
                                    old one stops working at once; with it (15s, 30m, 24h, 7d) the old
                                    one keeps working that long beside the new one.
  keys reseal [--json]              Seal every encrypted value again with REMIT_ENCRYPTION_KEY, in
                                    batches, beside a serving server (safe to stop and run again).
                                    Prints the values resealed and left per table; once nothing
                                    sealed with REMIT_ENCRYPTION_KEY_PREVIOUS is left, says it can be
                                    removed (docs/operations.md "Rotating the encryption key").
  merchants list [--status pending|approved|suspended] [--json]
                                    Every client's merchants, newest first.
  merchants show <merchant_id> [--json]
                                    One merchant: its client, status, dates, transaction count.
  merchants suspend <merchant_id>   Refuse the merchant's new payments (merchant_suspended) until
                                    it is reinstated. Refunds and voids still work.
  merchants reinstate <merchant_id> Lift the suspension (back to approved, or pending if it never was).
  merchants check-deposit-account <merchant_id> <account> [--json]
                                    Record the merchant's account at the check-deposit provider
                                    (REMIT_CHECK_DEPOSITS), as the provider opened it: remote deposit
                                    capture needs it. Replaces an earlier one.
  purge [--json]                    Delete now what is past its retention (docs/operations.md
                                    "Retention"); prints the rows deleted per table.
  payments reconcile [--json]       Ask the processor (Stripe) about payments whose outcome it never
                                    gave: processing ones, ACH debits and 3-D Secure challenges waiting
                                    over an hour for their webhook; settles each as the processor says.
                                    With Stripe, also lists every PaymentIntent Remit created for a link
                                    over two days and prints those that do not match (money kept without
                                    a record: recorded or refunded; a record without money).
                                    The server also runs this at start and every 5 minutes.
                                    Exits 1 when the processor refused a capture, void or refund
                                    Remit had answered as done (each printed; see payments refused).
  payments refused [--json]         Captures, voids and refunds the processor refused after Remit had
                                    answered them as done, newest first: their records are failed.
  wallets register-domain [<domain>] [--json]
                                    Register the pay page's domain (default: the host of PUBLIC_URL)
                                    with Stripe, so Apple Pay and Google Pay can show in its Payment
                                    Element. Once: a domain Stripe has is left as it is (enabled again
                                    if it was disabled). The server also does it at start.
  messages failed [--json]          SMS and email that failed (given up) or are being retried after a
                                    failure, newest first: channel, recipient, tries and the last error.
  webhooks failed [--json]          Webhook deliveries that failed, were disabled (410) or are being
                                    retried, newest first: URL, tries, the last answer or error.
  webhooks rotate-secret <client_id> [--overlap <duration>] [--json]
                                    Give a client's webhooks a new signing secret (whsec_), shown once.
                                    Without --overlap deliveries are signed with the new one only, at
                                    once; with it (15s, 30m, 24h, 7d) each delivery carries both
                                    signatures, new first, until the overlap ends.
  check-page <url> --public-key <pk> [--json]
                                    Open a merchant's payment page in headless Chromium (/usr/bin/chromium,
                                    or REMIT_CHROMIUM) and check it against its SAQ A instructions:
                                    Remit's loader present and pinned by integrity, the page's CSP present
                                    and enough for the widgets (and what more it allows), no other party's
                                    script running, the pay frame's origin and allow="payment". Exit 0
                                    when it meets them, 1 with each failing point named.
  config [--json]                   Show the configuration in force, defaults resolved; secrets masked.
  version                           Print the version of Remit this is (also --version); CHANGELOG.md
                                    says what each version changes.
  help                              Show this help (also --help, -h).

Options:
  --json                            Print the answer as JSON.

Reads the same configuration as the server: REMIT_ENV (sandbox|production), DATABASE_URL, or
REMIT_DATA_DIR (embedded database; default ./.remit), REMIT_ENCRYPTION_KEY (required in production)
and REMIT_ENCRYPTION_KEY_PREVIOUS (during a key rotation). With the embedded database, stop the
server first: one process owns the data directory (the command refuses while a server holds it).
Exit codes: 0 done, 1 refused or failed (configuration, database, unknown merchant or client, a
reseal that left values, a reconciliation that found refused calls), 2 unknown command or option.
`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

interface Parsed {
  words: string[];
  json: boolean;
  status?: string;
  /** `--overlap`: how long a rotated secret keeps working. */
  overlapMs?: number;
  /** `--public-key`: the merchant whose page `check-page` checks. */
  publicKey?: string;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `15s`, `30m`, `24h`, `7d`: a whole number of one unit, above 0; else null. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2]!]! : 0;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

/** One command: the words it is called by, how many arguments follow, and what it does. */
interface Command {
  words: string[];
  args: number;
  /** Needs no database (config). */
  offline?: boolean;
  /** Answers the exit code when it is not 0 (a number; anything else counts as 0). */
  run(c: {
    core: Core;
    config: ServerConfig;
    env: NodeJS.ProcessEnv;
    io: Io;
    p: Parsed;
    arg: string /** Every argument after the command's words. */;
    args: string[];
  }): Promise<unknown> | unknown;
}

/** One refused call: when, what, which record (now failed) of which payment, and the processor's answer. */
const refusalLine = (r: Refusal) =>
  `${(r.refused_at ?? r.created_at).slice(0, 19)}Z  ${r.operation.padEnd(7)}  ${r.transaction_id ?? '-'} of ${r.original_transaction_id ?? '-'}  ${r.merchant_id ?? '-'}  ${r.amount ?? 'all'}  ${r.gateway_ref}  ${r.cause}\n`;

const merchantLine = (m: OperatorMerchant) =>
  `${m.merchant_id}  ${m.status.padEnd(9)}  ${m.client_id}  ${m.join_date.slice(0, 10)}  ${m.businessname} <${m.email}>\n`;

function printMerchant(io: Io, p: Parsed, m: object) {
  io.out(p.json ? `${JSON.stringify(m)}\n` : reportLines(m as Record<string, unknown>));
}

const COMMANDS: Command[] = [
  {
    words: ['credentials', 'create'],
    args: 0,
    async run({ core, config, io, p }) {
      const creds = await createCredentials(core.ctx);
      if (p.json) return io.out(`${JSON.stringify(creds)}\n`);
      io.out(`client_id:  ${creds.client_id}\nsecret_key: ${creds.secret_key}\n`);
      io.err(`Created ${config.env} credentials. Store the secret key now: it cannot be shown again.\n`);
    },
  },
  {
    words: ['credentials', 'rotate'],
    args: 1,
    async run({ core, io, p, arg }) {
      const creds = await rotateClientSecret(core.ctx, arg, { overlapMs: p.overlapMs });
      if (p.json) return io.out(`${JSON.stringify(creds)}\n`);
      io.out(`client_id:  ${creds.client_id}\nsecret_key: ${creds.secret_key}\n`);
      const old = creds.previous_valid_until
        ? `The old secret key keeps working until ${creds.previous_valid_until}.`
        : 'The old secret key no longer works.';
      io.err(`${old} Store the new one now: it cannot be shown again.\n`);
    },
  },
  {
    words: ['merchants', 'list'],
    args: 0,
    async run({ core, io, p }) {
      const list = await operatorMerchants(core.ctx, { status: p.status });
      if (p.json) return io.out(`${JSON.stringify(list)}\n`);
      for (const m of list) io.out(merchantLine(m));
      io.err(`${list.length} merchant${list.length === 1 ? '' : 's'}${p.status ? ` ${p.status}` : ''}.\n`);
    },
  },
  {
    words: ['merchants', 'show'],
    args: 1,
    async run({ core, io, p, arg }) {
      printMerchant(io, p, await operatorMerchant(core.ctx, arg));
    },
  },
  {
    words: ['merchants', 'suspend'],
    args: 1,
    async run({ core, io, p, arg }) {
      const { merchant, changed } = await suspendMerchant(core.ctx, arg);
      printMerchant(io, p, merchant);
      io.err(
        changed
          ? `Suspended ${arg}: its payments are refused (merchant_suspended) until it is reinstated.\n`
          : `${arg} was already suspended.\n`,
      );
    },
  },
  {
    words: ['merchants', 'reinstate'],
    args: 1,
    async run({ core, io, p, arg }) {
      const { merchant, changed } = await reinstateMerchant(core.ctx, arg);
      printMerchant(io, p, merchant);
      io.err(
        changed
          ? `Reinstated ${arg}: it is ${merchant.status} again.\n`
          : `${arg} was not suspended; nothing changed.\n`,
      );
    },
  },
  {
    words: ['merchants', 'check-deposit-account'],
    args: 2,
    async run({ core, io, p, args: [merchantId, account] }) {
      const done = await recordCheckDepositAccount(core.ctx, merchantId!, account!);
      if (p.json) return io.out(`${JSON.stringify(done)}\n`);
      io.out(`merchant_id: ${done.merchant_id}\nprovider:    ${done.provider}\naccount:     ${done.account}\n`);
      io.err(
        done.previous
          ? `Replaced ${done.previous}.\n`
          : `Recorded: ${done.merchant_id} can take check deposits once approved.\n`,
      );
    },
  },
  {
    words: ['keys', 'reseal'],
    args: 0,
    async run({ core, io, p }) {
      const report = await resealAll(core.ctx);
      if (p.json) io.out(`${JSON.stringify(report)}\n`);
      else
        for (const [table, t] of Object.entries(report.tables))
          io.out(
            `${table}: ${t.resealed} resealed, ${t.left} left${t.unreadable ? `, ${t.unreadable} no key given opens` : ''}\n`,
          );
      io.err(`${resealOutcome(report)}\n`);
      return report.done ? 0 : 1;
    },
  },
  {
    words: ['purge'],
    args: 0,
    async run({ core, config, io, p }) {
      const counts = await purgeNow(core.ctx, config.retention);
      if (p.json) return io.out(`${JSON.stringify(counts)}\n`);
      for (const [table, n] of Object.entries(counts)) io.out(`${table}: ${n}\n`);
    },
  },
  {
    words: ['payments', 'reconcile'],
    args: 0,
    async run({ core, io, p }) {
      const report = await reconcilePayments(core.ctx);
      const c = report.calls;
      // Refused calls are the operator's to look at: the exit code says so, with --json too.
      if (p.json) {
        io.out(`${JSON.stringify(report)}\n`);
        return c.refused ? 1 : 0;
      }
      io.out(`checked: ${report.checked}\nsettled: ${report.settled}\nfailed: ${report.failed}\n`);
      io.out(`calls confirmed: ${c.confirmed}\ncalls refused: ${c.refused}\ncalls unanswered: ${c.left}\n`);
      for (const r of report.refusals) io.err(`refused: ${refusalLine(r)}`);
      const i = report.intents;
      io.out(`payment intents listed: ${i.listed}\npayment intents not matching: ${i.mismatches.length}\n`);
      for (const m of i.mismatches)
        io.out(
          `  ${m.payment_intent} link ${m.link_id ?? '-'} ${m.amount} cents ${m.status}: ${m.problem}, ${m.action}\n`,
        );
      if (!core.ctx.processor.lookupPayment)
        io.err(`The ${core.ctx.processor.name} processor has no outcomes to ask about.\n`);
      if (c.refused) {
        io.err(
          `${c.refused} capture, void or refund refused by the processor: its record is failed (payments refused).\n`,
        );
        return 1;
      }
    },
  },
  {
    words: ['payments', 'refused'],
    args: 0,
    async run({ core, io, p }) {
      const list = await refusedCalls(core.ctx);
      if (p.json) return io.out(`${JSON.stringify(list)}\n`);
      for (const r of list) io.out(refusalLine(r));
      io.err(`${list.length} call${list.length === 1 ? '' : 's'} refused by the processor.\n`);
    },
  },
  ...[0, 1].map(
    (args): Command => ({
      words: ['wallets', 'register-domain'],
      args,
      async run({ core, config, io, p, arg }) {
        const processor = core.ctx.processor;
        const domain = walletDomainOf(args ? `https://${arg}` : config.publicUrl);
        if (!processor.registerWalletDomain) {
          io.err(`The ${processor.name} processor has no wallet domains to register (Stripe has).\n`);
          return 1;
        }
        if (!domain) {
          const named = args ? arg : `PUBLIC_URL (${config.publicUrl})`;
          io.err(`${named} names no domain wallets can run on${args ? '' : ': give one'}.\n`);
          return 1;
        }
        const d = await processor.registerWalletDomain(domain);
        if (p.json) return io.out(`${JSON.stringify(d)}\n`);
        io.out(`${d.domain}: ${d.outcome} (${d.id}); Apple Pay ${d.apple_pay}, Google Pay ${d.google_pay}\n`);
      },
    }),
  ),
  {
    words: ['messages', 'failed'],
    args: 0,
    async run({ core, io, p }) {
      const list = await failedMessages(core.ctx, { retrying: true });
      if (p.json) return io.out(`${JSON.stringify(list)}\n`);
      for (const m of list) {
        io.out(
          `${m.message_id}  ${m.status.padEnd(8)}  ${m.channel.padEnd(5)}  ${m.created_at.slice(0, 19)}Z  tries ${m.attempts}  ${m.merchant_id}  ${m.recipient}  ${m.last_error ?? '-'}\n`,
        );
      }
      io.err(`${list.length} message${list.length === 1 ? '' : 's'} failed or retrying.\n`);
    },
  },
  {
    words: ['webhooks', 'failed'],
    args: 0,
    async run({ core, io, p }) {
      const list = await failedDeliveries(core.ctx, { retrying: true });
      if (p.json) return io.out(`${JSON.stringify(list)}\n`);
      for (const d of list) {
        const last = d.last_error ?? (d.last_status_code === null ? '-' : `HTTP ${d.last_status_code}`);
        io.out(
          `${d.delivery_id}  ${d.status.padEnd(8)}  ${d.event_type}  ${d.created_at.slice(0, 19)}Z  tries ${d.tries}  ${d.client_id}  ${maskUrl(d.url)}  ${last}\n`,
        );
      }
      io.err(`${list.length} webhook deliver${list.length === 1 ? 'y' : 'ies'} failed, disabled or retrying.\n`);
    },
  },
  {
    words: ['webhooks', 'rotate-secret'],
    args: 1,
    async run({ core, io, p, arg }) {
      const r = await rotateWebhookSecret(core.ctx, arg, { overlapMs: p.overlapMs });
      if (p.json) return io.out(`${JSON.stringify(r)}\n`);
      io.out(`client_id:      ${r.client_id}\nsigning_secret: ${r.signing_secret}\n`);
      const old = r.previous_valid_until
        ? `Deliveries are signed with the old secret too until ${r.previous_valid_until}.`
        : 'Deliveries are no longer signed with the old secret.';
      io.err(`${old} Give the new one to the client's webhook receivers now: this command does not show it again.\n`);
    },
  },
  {
    words: ['check-page'],
    args: 1,
    offline: true,
    async run({ config, env, io, p, arg }) {
      const refuse = (message: string, code: number) => {
        io.err(`${message}\n`);
        return code;
      };
      if (!/^https?:\/\//.test(arg)) return refuse(`check-page needs the page's http(s) address, not ${arg}`, 2);
      if (!p.publicKey?.startsWith('pk_')) return refuse('check-page needs --public-key pk_…', 2);
      const chromium = findChromium(env);
      if (!chromium)
        return refuse(
          'No Chromium found: install one at /usr/bin/chromium (apt-get install chromium) or set REMIT_CHROMIUM to its path.',
          1,
        );
      const loader = await builtLoader().catch((e: Error) => e);
      if (loader instanceof Error) return refuse(loader.message, 1);
      const policy = embedPolicy(config.publicUrl, p.publicKey, loader);
      const report = await checkPage({ url: arg, policy, remit: new URL(config.publicUrl).origin, chromium });
      io.out(p.json ? `${JSON.stringify(report)}\n` : reportText(report));
      return report.ok ? 0 : 1;
    },
  },
  {
    words: ['config'],
    args: 0,
    offline: true,
    run({ config, env, io, p }) {
      const report = configReport(config, env);
      io.out(p.json ? `${JSON.stringify(report, null, 2)}\n` : reportLines(report));
    },
  },
];

const STATUSES = ['pending', 'approved', 'suspended'];
/** The commands that take `--overlap`. */
const OVERLAPPING = ['credentials rotate', 'webhooks rotate-secret'];

/** Words, `--json`, and `--status <s>` (or `--status=s`); anything else is an unknown option. */
function parse(args: string[]): Parsed | string {
  const p: Parsed = { words: [], json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') p.json = true;
    else if (a === '--status' || a.startsWith('--status=')) {
      const v = a === '--status' ? args[++i] : a.slice('--status='.length);
      if (!v || !STATUSES.includes(v)) return `--status must be one of ${STATUSES.join(', ')}`;
      p.status = v;
    } else if (a === '--overlap' || a.startsWith('--overlap=')) {
      const v = a === '--overlap' ? args[++i] : a.slice('--overlap='.length);
      const ms = v === undefined ? null : parseDuration(v);
      if (ms === null) return `--overlap must be a duration like 15s, 30m, 24h or 7d, not ${v ?? 'nothing'}`;
      p.overlapMs = ms;
    } else if (a === '--public-key' || a.startsWith('--public-key=')) {
      const v = a === '--public-key' ? args[++i] : a.slice('--public-key='.length);
      if (!v) return "--public-key needs the merchant's public key (pk_…)";
      p.publicKey = v;
    } else if (a.startsWith('-')) return `Unknown option: ${a}`;
    else p.words.push(a);
  }
  return p;
}

/** Runs one command; returns the process exit code. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = process.env, io: Io = stdio): Promise<number> {
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help' || args.length === 0) {
    io.out(USAGE);
    return args.length === 0 ? 1 : 0;
  }
  if (args.length === 1 && (args[0] === '--version' || args[0] === 'version')) {
    io.out(`${REMIT_VERSION}\n`);
    return 0;
  }
  const p = parse(args);
  const command =
    typeof p === 'string'
      ? undefined
      : COMMANDS.find((c) => c.words.every((w, i) => p.words[i] === w) && p.words.length === c.words.length + c.args);
  const misplaced =
    typeof p !== 'string' &&
    command &&
    ((p.status && command.words.join(' ') !== 'merchants list') ||
      (p.overlapMs && !OVERLAPPING.includes(command.words.join(' '))) ||
      (p.publicKey && command.words[0] !== 'check-page'));
  if (typeof p === 'string' || !command || misplaced) {
    io.err(`${typeof p === 'string' ? p : `Unknown command or option: ${args.join(' ')}`}\n\n${USAGE}`);
    return 2;
  }
  const operands = p.words.slice(command.words.length);
  const arg = operands[0] ?? '';

  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    io.err(`Configuration error: ${(e as Error).message}\n`);
    return 1;
  }
  if (command.offline) {
    const code = await command.run({ core: null as unknown as Core, config, env, io, p, arg, args: operands });
    return typeof code === 'number' ? code : 0;
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
    // Commands return `io.out(…)` at times (a write's boolean): only a number is an exit code.
    const code = await command.run({ core, config, env, io, p, arg, args: operands });
    return typeof code === 'number' ? code : 0;
  } catch (e) {
    if (!isRemitError(e)) throw e;
    io.err(`remit: ${e.message}\n`);
    return 1;
  } finally {
    // Closing flushes the embedded database to disk.
    await core.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.umask(0o077);
  process.exitCode = await runCli(process.argv.slice(2));
}
