/**
 * Every environment variable the server and the CLI read: its default and what it does. The
 * settings tables in docs/operations.md are written from this list (`npm run docs:settings`), and a
 * test fails when the doc, this list or the names the code reads differ.
 */
export interface Setting {
  /** Which table of docs/operations.md shows it. */
  table: SettingsTable;
  /** The variables of one row (a pair such as PORT and HOST shares a row). */
  names: string[];
  /** The row's first cell when the names alone do not say it. */
  label?: string;
  default: string;
  meaning: string;
}

export type SettingsTable = 'main' | 'twilio' | 'rate' | 'time';

/** Each table's header row. */
export const TABLE_HEADERS: Record<SettingsTable, [string, string, string]> = {
  main: ['variable', 'default', 'meaning'],
  twilio: ['variable', 'default', 'meaning'],
  rate: ['variable', 'default', 'counts'],
  time: ['variable', 'default', 'meaning'],
};

export const SETTINGS: Setting[] = [
  {
    table: 'main',
    names: ['PORT', 'HOST'],
    default: '`8080` / `127.0.0.1`',
    meaning:
      'where the server listens. On loopback only (`127.0.0.1`, `localhost`, `::1`), it answers only to the host of `PUBLIC_URL`, `localhost`, `127.0.0.1` and `[::1]` in `Host` (421 `misdirected_request` otherwise: [security](security.md#requests-under-another-name-dns-rebinding))',
  },
  {
    table: 'main',
    names: ['PUBLIC_URL'],
    default: '`http://$HOST:$PORT` (`http://127.0.0.1:8080`; `HOST` `0.0.0.0` or `::` gives `127.0.0.1`)',
    meaning:
      'the address customers and merchant pages reach: the base of `payment_link`, `pay_link`, the script tag; the API is `{PUBLIC_URL}/api/v1`. The default opens on this machine only: set it whenever another machine must reach the server. A page may load the script tag from another address of the same server (`localhost` or `127.0.0.1`): the pay modal still works',
  },
  {
    table: 'main',
    names: ['REMIT_ENV'],
    default: '`sandbox`',
    meaning: '`sandbox` or `production` ([the differences](concepts.md#sandbox-and-production))',
  },
  {
    table: 'main',
    names: ['DATABASE_URL'],
    default: 'unset',
    meaning:
      '`postgres://…`: use that PostgreSQL instead of PGlite. On the same host, its Unix socket is faster than TCP: `postgres://postgres@%2Fvar%2Frun%2Fpostgresql/remit`. Several hosts as libpq takes them (`postgres://u@db1:5432,db2:5432/remit`, `target_session_attrs=read-write` the default): each is tried in turn and only a writable one is used ([scaling](scaling.md#a-primary-failover))',
  },
  {
    table: 'main',
    names: ['DATABASE_DIRECT_URL'],
    default: 'unset',
    meaning:
      'the database itself when `DATABASE_URL` is a transaction pooler (PgBouncer `pool_mode = transaction`): migrations run over it, and set, statements through `DATABASE_URL` go unnamed (no prepared statement outlives its transaction) ([scaling](scaling.md#a-connection-pooler))',
  },
  {
    table: 'main',
    names: ['DATABASE_REPLICA_URL'],
    default: 'unset',
    meaning:
      'read replicas (streaming standbys), one or more `postgres://` URLs, comma-separated: transaction lists, single reads and portal views read there; money and state decisions read the primary. A client reads its own writes (by WAL position) ([scaling](scaling.md#read-replicas))',
  },
  {
    table: 'main',
    names: ['REMIT_REPLICA_MAX_LAG_MS'],
    default: '`10000`',
    meaning:
      'a replica further behind the primary than this is skipped (one warn line; its reads go to the primary) until it catches up. `remit_db_replica_lag_seconds` in `/metrics` shows each one',
  },
  {
    table: 'main',
    names: ['REMIT_DATA_DIR'],
    default: '`./.remit`',
    meaning:
      "PGlite's data (without `DATABASE_URL`) and the generated sandbox encryption key (check images of earlier versions move from here into the database at start: [check deposits](#check-deposits)). Kept owner-only (mode 0700); one process at a time holds it ([one process per embedded database](#one-process-per-embedded-database))",
  },
  {
    table: 'main',
    names: ['REMIT_ENCRYPTION_KEY'],
    default: 'generated in sandbox',
    meaning:
      "32 bytes, as 64 hex digits or base64: AES-256-GCM encryption at rest of SSN, EIN, bank and card numbers, the owner's personal details, merchant keys, webhook secrets and stored idempotent answers. Required in production. In sandbox without it a key is made once into `$REMIT_DATA_DIR/encryption.key` (mode 600): keep it with the data. Values are sealed naming the key (its fingerprint's first 12 hex digits): to rotate it, see [Rotating the encryption key](#rotating-the-encryption-key)",
  },
  {
    table: 'main',
    names: ['REMIT_ENCRYPTION_KEY_PREVIOUS'],
    default: 'unset',
    meaning:
      'during a [key rotation](#rotating-the-encryption-key): the old key, in the same form. Used only to open values it sealed (and to compare MACs it made), never to seal. Remove it once `npm run remit -- keys reseal` reports nothing sealed with it is left; a start without it before then is refused',
  },
  {
    table: 'main',
    names: ['REMIT_PROCESSOR'],
    default: '`simulator` in sandbox, `none` in production',
    meaning:
      'the card and ACH processor: `stripe` (the `STRIPE_*` settings below; [going-live-stripe.md](going-live-stripe.md)), `simulator` (sandbox only: production refuses it) or `none`. With `none` every charge, preauthorization, ACH debit and card entry answers 503 `processor_unavailable` and nothing is written; production starts with it only beside `REMIT_ALLOW_NO_PROCESSOR=true`',
  },
  {
    table: 'main',
    names: ['REMIT_CHECK_DEPOSITS'],
    default: '`simulator` in sandbox, `none` in production',
    meaning:
      'the check-deposit provider behind `POST /merchant/remote_deposit_capture`. `simulator` is refused in production. With `none` every deposit answers 400 `ach_account_not_found` and nothing is written ([check deposits](#check-deposits))',
  },
  {
    table: 'main',
    names: ['REMIT_CHECK_IMAGES_S3_BUCKET'],
    default: 'unset',
    meaning:
      'an S3 or S3-compatible bucket for check images instead of the database ([check deposits](#check-deposits)). Unset: the database (`check_images`)',
  },
  {
    table: 'main',
    names: ['REMIT_CHECK_IMAGES_S3_ENDPOINT'],
    default: 'unset (AWS S3)',
    meaning:
      "an S3-compatible service's URL (MinIO, Cloudflare R2, …), addressed path-style (`<endpoint>/<bucket>/<key>`). Production refuses `http://` to any host but this machine (`localhost`, `127.x`, `[::1]`): the signed requests and the images would cross the network in clear",
  },
  {
    table: 'main',
    names: ['REMIT_CHECK_IMAGES_S3_REGION', 'AWS_REGION'],
    label: '`REMIT_CHECK_IMAGES_S3_REGION` (`AWS_REGION`)',
    default: '`AWS_REGION`, else `us-east-1`',
    meaning: "the bucket's region (R2: `auto`)",
  },
  {
    table: 'main',
    names: ['REMIT_CHECK_IMAGES_S3_PREFIX'],
    default: 'empty',
    meaning: 'put before every object key, e.g. `remit/checks/`: images are `<prefix><txn_id>/front` and `/back`',
  },
  {
    table: 'main',
    names: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'],
    default: 'unset',
    meaning:
      "the bucket's credentials, both or neither; neither: the AWS SDK's own chain (instance or task role). The key needs `s3:PutObject`, `s3:GetObject` and `s3:DeleteObject` on the prefix",
  },
  {
    table: 'main',
    names: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
    default: 'unset',
    meaning:
      'with `REMIT_PROCESSOR=stripe`: the secret key (`sk_…`) and the webhook signing secret (`whsec_…`, required in production); see [going-live-stripe.md](going-live-stripe.md)',
  },
  {
    table: 'main',
    names: ['STRIPE_PUBLISHABLE_KEY'],
    default: 'unset',
    meaning:
      "with `REMIT_PROCESSOR=stripe`: the publishable key (`pk_…`, required in production) the pay and add-card pages give Stripe.js; card numbers are typed into Stripe's fields, never sent to Remit",
  },
  {
    table: 'main',
    names: ['REMIT_STRIPE_JS_URL'],
    default: '`https://js.stripe.com/v3/`',
    meaning:
      "where the pages load Stripe.js from (its origin is the one the pages' CSP allows beside their own); tests point it at the Stripe emulator",
  },
  {
    table: 'main',
    names: ['REMIT_STRIPE_API_URL'],
    default: "Stripe's own",
    meaning: 'the Stripe API base (tests point it at the emulator)',
  },
  {
    table: 'main',
    names: ['REMIT_SETTLEMENT_CUTOFF'],
    default: '`00:00`',
    meaning: 'the daily settlement cutoff, `HH` or `HH:MM` UTC',
  },
  {
    table: 'main',
    names: ['LOG_LEVEL'],
    default: '`info`',
    meaning: 'pino level',
  },
  {
    table: 'main',
    names: ['SMTP_URL', 'REMIT_EMAIL_FROM'],
    default: 'unset / `Remit <no-reply@remit.local>`',
    meaning: 'email transport (`smtp://user:pass@mail.example:587`) and sender',
  },
  {
    table: 'main',
    names: ['REMIT_TRUST_PROXY'],
    default: 'unset',
    meaning:
      "whose `X-Forwarded-For` names the client address: unset, none; a comma-separated list of proxy addresses or CIDRs, none wider than a /8 of IPv4 or a /32 of IPv6, and in production none public unless `REMIT_TRUST_PUBLIC_PROXY=true`; `true`, any proxy (sandbox only: production refuses it). A count of hops is refused: it could not tell that the nearest peer is a proxy. Behind a reverse proxy set it, or every client counts as the proxy's address in the per-address limits ([security](security.md#trusted-proxies))",
  },
  {
    table: 'main',
    names: ['REMIT_TRUST_PUBLIC_PROXY'],
    default: 'unset',
    meaning:
      '`true`: let production trust proxies at public addresses named in `REMIT_TRUST_PROXY` (a CDN in front of the server); without it production refuses them',
  },

  {
    table: 'main',
    names: ['REMIT_ALLOW_PRIVATE_WEBHOOKS'],
    default: '`true` when `HOST` and `PUBLIC_URL` are both on loopback in sandbox; else `false`',
    meaning:
      '`true`: webhooks may target loopback and private addresses (a receiver on this machine or in your network). Sandbox only: production refuses `true`, its webhooks reach public `https` hosts alone ([security](security.md#where-webhooks-may-go))',
  },
  {
    table: 'main',
    names: ['REMIT_WEBHOOK_PORTS'],
    default: 'unset (443 only)',
    meaning:
      'ports, comma-separated (`8443,9443`), that production webhook URLs may name besides 443. System ports and well-known services (SSH, SMTP, databases, caches, …) are refused at start ([going live](#going-live))',
  },
  {
    table: 'main',
    names: ['REMIT_WORKERS'],
    default: 'on',
    meaning: '`off` runs an API-only process (no webhook or message sending)',
  },
  {
    table: 'main',
    names: ['REMIT_WEBHOOK_TIMEOUT_MS', 'REMIT_WEBHOOK_LEASE_MS'],
    default: '`10000` / timeout + 30 s',
    meaning:
      "a delivery try's deadline (request to the answer's last byte), and how long a process holds a claimed delivery",
  },
  {
    table: 'main',
    names: ['REMIT_WEBHOOK_RETRY_SCALE'],
    default: '`1`',
    meaning: 'factor on the retry schedule (tests use 0.001)',
  },
  {
    table: 'main',
    names: ['REMIT_WAKE_ON_COMMIT', 'REMIT_WAKE_GAP_MS'],
    default: 'on / `10`',
    meaning:
      'the dispatchers wake when an operation commits an event (`off`: poll only, every 50 ms); woken passes start at least this far apart under load',
  },
  {
    table: 'main',
    names: ['REMIT_IDEMPOTENCY_LEASE_MS'],
    default: '`60000`',
    meaning:
      'how long an `Idempotency-Key` whose request never finished stays "in progress"; keep it above the longest request',
  },
  {
    table: 'main',
    names: ['REMIT_PAY_DIR', 'REMIT_PORTAL_DIR'],
    default: '`apps/pay/dist` / `apps/portal/dist`',
    meaning: 'the built pay page and portal (`npm run build` makes them)',
  },
  {
    table: 'main',
    names: ['REMIT_SHUTDOWN_TIMEOUT_MS'],
    default: '`20000`',
    meaning: 'the longest a SIGTERM drain may take before the process exits 1',
  },
  {
    table: 'main',
    names: ['REMIT_METRICS_TOKEN'],
    default: 'unset',
    meaning:
      'the bearer token of `GET /metrics`; in production `/metrics` exists only with it, and it must be 32 or more random characters (`openssl rand -hex 32`)',
  },
  {
    table: 'main',
    names: ['REMIT_ALLOW_NO_PROCESSOR'],
    default: 'unset',
    meaning: '`true`: let production start without a processor (a trial: every payment answers 503)',
  },
  {
    table: 'main',
    names: ['REMIT_ALLOW_NO_EMAIL'],
    default: 'unset',
    meaning: '`true`: let production start without `SMTP_URL` (no email is sent, and API answers say so)',
  },

  {
    table: 'main',
    names: ['REMIT_ALLOW_NO_SMS'],
    default: 'unset',
    meaning:
      '`true`: let production start without Twilio (no SMS is sent, and API answers say so); see [SMS with Twilio](#sms-with-twilio)',
  },
  {
    table: 'main',
    names: [
      'REMIT_RETENTION_EVENTS_DAYS',
      'REMIT_RETENTION_MESSAGES_DAYS',
      'REMIT_RETENTION_SESSIONS_DAYS',
      'REMIT_RETENTION_CSP_REPORTS_DAYS',
      'REMIT_RETENTION_PURGE_INTERVAL_MS',
    ],
    label: '`REMIT_RETENTION_*`',
    default: 'see [retention](#retention)',
    meaning: "how long events, messages, sessions, challenges and merchants' CSP violation reports are kept",
  },
  {
    table: 'main',
    names: ['REMIT_CHROMIUM'],
    default: '`/usr/bin/chromium`',
    meaning:
      'the Chromium `npm run remit -- check-page` opens merchant pages in ([operator commands](#operator-commands)); the server itself never starts one',
  },
  {
    table: 'main',
    names: ['REMIT_OPERATOR_NAME', 'REMIT_OPERATOR_CONTACT'],
    default: 'unset',
    meaning:
      "who runs this server, and how to reach them (an email or an address): the provider named in the merchants' SAQ A document (`GET /api/v1/merchant/saq-a`, [embedding](embedding.md#your-pci-scope-saq-a)); unset, the document says to set them",
  },
  {
    table: 'twilio',
    names: ['TWILIO_ACCOUNT_SID'],
    default: 'unset',
    meaning: 'the account SID (`AC…`); setting it turns Twilio on',
  },
  {
    table: 'twilio',
    names: ['TWILIO_AUTH_TOKEN'],
    default: 'unset',
    meaning: "the account's auth token: authenticates the API calls and verifies Twilio's status callbacks",
  },
  {
    table: 'twilio',
    names: ['TWILIO_FROM'],
    default: 'unset',
    meaning: 'the sending number in E.164 (`+14155550100`) or an alphanumeric sender id',
  },
  {
    table: 'twilio',
    names: ['TWILIO_MESSAGING_SERVICE_SID'],
    default: 'unset',
    meaning: 'a messaging service (`MG…`) instead of `TWILIO_FROM`; used when both are set',
  },
  {
    table: 'twilio',
    names: ['REMIT_TWILIO_API_URL'],
    default: '`https://api.twilio.com`',
    meaning: 'another base for the API (a Twilio emulator in tests)',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS'],
    default: '`10/5m`',
    meaning:
      'failed API authentications and portal sign-ins per claimed `client_id` from one address. Past it even the right secret gets 429 from that address until the window ends; other addresses are not affected ([security](security.md#failed-authentications))',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_AUTH_FAILURES_PER_ADDRESS'],
    default: '`30/5m`',
    meaning: 'failed or missing authentications per client address, over all client ids',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_CREDENTIALS_PER_ADDRESS'],
    default: '`20/1h`',
    meaning: '`POST /portal/api/credentials` per address',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_API_PER_CLIENT'],
    default: '`6000/1m`',
    meaning: 'authenticated `/api/v1` and `/sandbox` requests per client',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_PAY_PER_ADDRESS'],
    default: '`300/10m`',
    meaning: 'pay page calls per address',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_PAY_CARDS_PER_ADDRESS'],
    default: '`30/10m`',
    meaning:
      'card numbers sent from one address, across all links: payments by card and cards saved through add-card links. Bank payments are not counted. Stops card testing spread over many links.',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_PAY_PAGES_PER_ADDRESS'],
    default: '`120/1m`',
    meaning:
      'hosted pages opened from one address (`GET /pay/{id}`, `/pay/card/{token}`, unknown ids included). Past it the page answers a short plain-text 429.',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_AGREEMENT_PER_ADDRESS'],
    default: '`120/1m`',
    meaning:
      'merchant agreement and verification pages viewed or answered from one address (`GET` and `POST /agreement/{token}`, `/verify/{token}` and its return, unknown tokens included), counted together. Past it the page answers a short 429 page.',
  },
  {
    table: 'rate',
    names: ['REMIT_RATE_LIMIT_PAY_WRITES_PER_LINK'],
    default: '`30/10m`',
    meaning: 'pay attempts, 3-D Secure answers and card saves per link or add-card token (card testing)',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_PER_KEY'],
    default: '`3000/1m`',
    meaning: 'widget backend calls per public key (counted after the address limits pass)',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_PER_ADDRESS'],
    default: '`120/1m`',
    meaning: 'widget backend calls per address',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_PAY_LINKS_PER_ADDRESS'],
    default: '`30/1m`',
    meaning: 'widget pay links opened per address',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE'],
    default: '`3/1h`',
    meaning: 'payment-request SMS per recipient phone, per merchant',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_SMS_PER_ADDRESS'],
    default: '`10/1h`',
    meaning: 'payment-request SMS per address',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_SMS_PER_KEY'],
    default: '`50/1h`',
    meaning: 'payment-request SMS per public key',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_RATE_LIMIT_CSP_REPORTS_PER_ADDRESS'],
    default: '`60/1m`',
    meaning: 'CSP violation reports (`POST /csp-reports/{public_key}`) per address',
  },
  {
    table: 'rate',
    names: ['REMIT_WIDGET_MAX_AMOUNT'],
    default: 'unset',
    meaning:
      "the highest amount (`500.00`) any public key may ask for, on top of the merchant's and the widget's limits; over it 400 `amount_over_limit`",
  },
  {
    table: 'time',
    names: ['REMIT_REQUEST_TIMEOUT_MS'],
    default: '`30000`',
    meaning: 'the whole request, headers and body, must arrive within this',
  },
  {
    table: 'time',
    names: ['REMIT_HEADERS_TIMEOUT_MS'],
    default: '`10000`',
    meaning: 'the request line and headers must arrive within this (at most the request limit)',
  },
  {
    table: 'time',
    names: ['REMIT_KEEP_ALIVE_TIMEOUT_MS'],
    default: '`5000`',
    meaning: 'an idle kept-alive connection is closed after this',
  },
  {
    table: 'time',
    names: ['REMIT_IDLE_TIMEOUT_MS'],
    default: '`60000`',
    meaning: 'a connection with no bytes either way for this long is closed',
  },
];

/** Read by tests only, never by a server: they need no row. */
export const TEST_ONLY_SETTINGS = ['REMIT_TEST_DB', 'TEST_POSTGRES_URL'];

/** One table as markdown, rows in the list's order. */
export function settingsTable(table: SettingsTable): string {
  const [a, b, c] = TABLE_HEADERS[table];
  const rows = SETTINGS.filter((s) => s.table === table).map(
    (s) => `| ${s.label ?? s.names.map((n) => `\`${n}\``).join(' / ')} | ${s.default} | ${s.meaning} |`,
  );
  return [`| ${a} | ${b} | ${c} |`, '|---|---|---|', ...rows].join('\n');
}
