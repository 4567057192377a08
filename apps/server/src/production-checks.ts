import { isBlockedHostName, isLoopbackHost, proxyRange, workerOptionsFromEnv, type WorkerOptions } from '@remit/core';
import { readConfig, type ServerConfig } from './config.js';

/**
 * Everything that stops a server from starting with this environment, as the lines it prints:
 * settings it cannot read (`remit: configuration: …`), then what production refuses
 * (`remit: refusing to start in production: …`). All of them at once, so that one edit fixes all.
 */
export function startupCheck(env: NodeJS.ProcessEnv): {
  config: ServerConfig;
  workerOptions: WorkerOptions;
  lines: string[];
} {
  const { config, problems } = readConfig(env);
  let workerOptions: WorkerOptions = {};
  try {
    workerOptions = workerOptionsFromEnv(env);
  } catch (err) {
    problems.push((err as Error).message);
  }
  const lines = [
    ...problems.map((p) => `remit: configuration: ${p}`),
    ...productionRefusals(config, env).map((r) => `remit: refusing to start in production: ${r}`),
  ];
  return { config, workerOptions, lines };
}

/**
 * What a production server refuses to start with, one line each naming the setting and what to set
 * instead: settings under which customers could not pay or messages would silently not go out, and
 * settings that would quietly defeat a protection (test-mode keys, secrets that can be guessed, a
 * key sent in clear, trust in any proxy). Empty in sandbox.
 * REMIT_ALLOW_NO_PROCESSOR=true, REMIT_ALLOW_NO_EMAIL=true and REMIT_ALLOW_NO_SMS=true accept the
 * missing processor, email and SMS on purpose (a trial).
 */
export function productionRefusals(config: ServerConfig, env: NodeJS.ProcessEnv): string[] {
  if (config.env !== 'production') return [];
  const out: string[] = [];
  let url: URL | null = null;
  try {
    url = new URL(config.publicUrl);
  } catch {
    out.push(`PUBLIC_URL is not a URL (${config.publicUrl}): set the https address customers reach this server at`);
  }
  if (url && url.protocol !== 'https:') {
    out.push(
      `PUBLIC_URL must be https in production (pay links and scripts are served from it), not ${config.publicUrl}`,
    );
  }
  if (url && isLoopbackHost(url.hostname)) {
    out.push(`PUBLIC_URL points at this machine (${url.hostname}): set the public address customers open pay links at`);
  } else if (url && isBlockedHostName(url.hostname)) {
    out.push(
      `PUBLIC_URL is not a public address (${url.hostname} is private, link-local, unspecified or otherwise special-use): set the public address customers open pay links at`,
    );
  }
  // Named but not readable (Stripe without its keys) is a configuration problem, not "no processor".
  if ((env.REMIT_PROCESSOR || 'none') === 'none' && env.REMIT_ALLOW_NO_PROCESSOR !== 'true') {
    out.push(
      'no payment processor is configured (REMIT_PROCESSOR): every payment would be refused; configure one, or set REMIT_ALLOW_NO_PROCESSOR=true for a trial without payments',
    );
  }
  if (!env.SMTP_URL && env.REMIT_ALLOW_NO_EMAIL !== 'true') {
    out.push(
      'SMTP_URL is not set: payment requests, card requests and receipts by email could not be sent; set SMTP_URL, or REMIT_ALLOW_NO_EMAIL=true to run without email (the API then answers that no email was sent)',
    );
  }
  if (!env.TWILIO_ACCOUNT_SID && env.REMIT_ALLOW_NO_SMS !== 'true') {
    out.push(
      "TWILIO_ACCOUNT_SID is not set: payment requests and card requests by SMS and the widget's SMS payment requests could not be sent; configure Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM), or REMIT_ALLOW_NO_SMS=true to run without SMS (the API then answers that no SMS was sent)",
    );
  }
  out.push(...stripeRefusals(env), ...secretRefusals(config, env), ...networkRefusals(config, env));
  return out;
}

/** A test-mode key approves test cards (4242…) without moving money: on a live server they would "pay". */
function stripeRefusals(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  const secret = env.STRIPE_SECRET_KEY?.trim() ?? '';
  if (/^(sk|rk)_test_/.test(secret)) {
    out.push(
      `STRIPE_SECRET_KEY is a test-mode key (${secret.slice(0, 8)}…): test cards would "pay" on this live server; set the live secret key (sk_live_…, or a restricted rk_live_…)`,
    );
  }
  const publishable = env.STRIPE_PUBLISHABLE_KEY?.trim() ?? '';
  if (publishable.startsWith('pk_test_')) {
    out.push(
      'STRIPE_PUBLISHABLE_KEY is a test-mode key (pk_test_…): card entry would run in test mode; set the live publishable key (pk_live_…)',
    );
  }
  for (const name of ['REMIT_STRIPE_API_URL', 'REMIT_STRIPE_JS_URL'] as const) {
    const clear = clearToAnotherMachine(env[name]);
    if (clear)
      out.push(
        `${name} is clear http to ${clear}: ${name === 'REMIT_STRIPE_API_URL' ? 'the secret key' : 'the card entry script'} would travel unencrypted; use https (or leave it unset for Stripe's own)`,
      );
  }
  return out;
}

/** The host of an `http:` URL that is not this machine; null for https, loopback, unset or not a URL. */
function clearToAnotherMachine(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? url.hostname : null;
  } catch {
    return null; // the connector refuses a URL it cannot use
  }
}

/**
 * Whether a secret could be guessed: shorter than `min`, fewer than 8 different characters (bytes
 * of a key), one character a third of it or more, or one shorter run again and again (`ab12ab12…`).
 * Random tokens of the lengths asked for pass it with room to spare. The one rule for every secret setting.
 */
export function guessable(secret: string | Uint8Array, min: number): boolean {
  const symbols: Array<string | number> = [...secret];
  const n = symbols.length;
  if (n < min) return true;
  const counts = new Map<string | number, number>();
  for (const c of symbols) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (counts.size < 8 || Math.max(...counts.values()) * 3 >= n) return true;
  for (let run = 1; run <= n / 2; run++)
    if (n % run === 0 && symbols.every((c, i) => c === symbols[i % run])) return true;
  return false;
}

const METRICS_TOKEN_MIN = 32;
/** Stripe's signing secrets are `whsec_` and 32 characters (the CLI's: 64); Twilio's auth tokens 32 hex digits. */
const WEBHOOK_SECRET_MIN = 24;
const TWILIO_TOKEN_MIN = 32;

/**
 * The secrets Remit itself seals with or checks others against, judged by content. The previous
 * encryption key is not: a rotation is how a guessable key is replaced.
 */
function secretRefusals(config: ServerConfig, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  if (env.REMIT_ENCRYPTION_KEY && guessable(config.encryptionKey, 32)) {
    out.push(
      'REMIT_ENCRYPTION_KEY is too repetitive to keep stored data secret (a guess could find it): set 32 random bytes (openssl rand -hex 32); for a key already in use, rotate it, giving this one as REMIT_ENCRYPTION_KEY_PREVIOUS',
    );
  }
  const token = config.metricsToken;
  if (token !== undefined && guessable(token, METRICS_TOKEN_MIN)) {
    out.push(
      `REMIT_METRICS_TOKEN is too short or too repetitive to keep /metrics private: set ${METRICS_TOKEN_MIN} or more random characters (for example the output of openssl rand -hex 32), or unset it to turn /metrics off`,
    );
  }
  const whsec = env.STRIPE_WEBHOOK_SECRET;
  if (whsec && !(/^whsec_[A-Za-z0-9+/=]+$/.test(whsec) && !guessable(whsec.slice(6), WEBHOOK_SECRET_MIN))) {
    out.push(
      `STRIPE_WEBHOOK_SECRET is not a Stripe signing secret (whsec_ and at least ${WEBHOOK_SECRET_MIN} more random characters): a guessable secret lets anyone forge Stripe events; set the signing secret of this endpoint from the Stripe dashboard (Developers, Webhooks)`,
    );
  }
  const twilio = env.TWILIO_AUTH_TOKEN;
  if (twilio && guessable(twilio, TWILIO_TOKEN_MIN)) {
    out.push(
      `TWILIO_AUTH_TOKEN is too short or too repetitive to be Twilio's (${TWILIO_TOKEN_MIN} random hex digits): whoever guesses it can forge SMS status callbacks; set the auth token from the Twilio console`,
    );
  }
  return out;
}

/**
 * Ports of services a webhook could reach inside the operator's network: every system port (below
 * 1024: ssh, smtp, dns, ...) and the usual databases, caches, queues and control planes above it.
 */
const SERVICE_PORTS: Record<number, string> = {
  1433: 'SQL Server',
  1521: 'Oracle',
  2049: 'NFS',
  2375: 'Docker',
  2376: 'Docker',
  2379: 'etcd',
  2380: 'etcd',
  3306: 'MySQL',
  3389: 'RDP',
  4369: 'Erlang epmd',
  5432: 'PostgreSQL',
  5672: 'AMQP',
  5900: 'VNC',
  5984: 'CouchDB',
  6379: 'Redis',
  6443: 'Kubernetes API',
  8500: 'Consul',
  9042: 'Cassandra',
  9092: 'Kafka',
  9200: 'Elasticsearch',
  9300: 'Elasticsearch',
  10250: 'kubelet',
  11211: 'memcached',
  15672: 'RabbitMQ',
  27017: 'MongoDB',
};
const SYSTEM_PORTS: Record<number, string> = {
  21: 'FTP',
  22: 'SSH',
  23: 'telnet',
  25: 'SMTP',
  53: 'DNS',
  80: 'HTTP',
  110: 'POP3',
  111: 'rpcbind',
  135: 'RPC',
  139: 'NetBIOS',
  143: 'IMAP',
  389: 'LDAP',
  445: 'SMB',
  465: 'SMTPS',
  587: 'SMTP submission',
  636: 'LDAPS',
  993: 'IMAPS',
  995: 'POP3S',
};

function networkRefusals(config: ServerConfig, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  if (config.trustProxy === true) {
    out.push(
      "REMIT_TRUST_PROXY=true believes X-Forwarded-For from anyone, so any client picks the address the per-address limits count; set the proxy's addresses or CIDRs, comma-separated (like REMIT_TRUST_PROXY=10.0.0.2 or 10.0.0.0/24)",
    );
  }
  // A proxy with a public address (a CDN) is named on purpose: a slip there trusts strangers.
  const publicProxies = Array.isArray(config.trustProxy) ? config.trustProxy.filter((e) => proxyRange(e)?.public) : [];
  if (publicProxies.length > 0 && env.REMIT_TRUST_PUBLIC_PROXY !== 'true') {
    out.push(
      `REMIT_TRUST_PROXY names public addresses (${publicProxies.join(', ')}): whoever sends from them picks the address the per-address limits count; name your proxies' private addresses, or, if a proxy or CDN of yours really sends from these, set REMIT_TRUST_PUBLIC_PROXY=true`,
    );
  }
  const services = config.webhookPorts.filter((p) => p !== 443 && (p < 1024 || SERVICE_PORTS[p]));
  if (services.length) {
    const named = services.map((p) => `${p} (${SERVICE_PORTS[p] ?? SYSTEM_PORTS[p] ?? 'a system port'})`).join(', ');
    out.push(
      `REMIT_WEBHOOK_PORTS opens well-known service ports to clients' webhooks: ${named}; a webhook could reach those services inside your network; list only the ports your clients' receivers listen on (like 8443)`,
    );
  }
  return out;
}
