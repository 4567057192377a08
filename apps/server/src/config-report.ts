import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Vault } from '@remit/core';
import type { ServerConfig } from './config.js';

/** A URL with its password (and any secret-looking query value) replaced by `***`. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const k of [...u.searchParams.keys()]) if (/pass|secret|token|key/i.test(k)) u.searchParams.set(k, '***');
    return u.toString();
  } catch {
    return '*** (not a URL)';
  }
}

const days = (d: number | null) => (d === null ? 'off (kept forever)' : `${d} days`);
const hhmm = (ms: number) =>
  `${String(Math.floor(ms / 3_600_000)).padStart(2, '0')}:${String(Math.floor(ms / 60_000) % 60).padStart(2, '0')} UTC`;

function rule(v: unknown): string {
  if (v === null || v === undefined) return 'off';
  const r = v as { limit?: number; windowMs?: number };
  if (typeof r.limit === 'number' && typeof r.windowMs === 'number') return `${r.limit}/${r.windowMs / 1000}s`;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

const section = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, rule(v)]));

/**
 * The configuration a server started with this environment runs with, every default resolved, for
 * `remit config`. No secret appears: the encryption key is shown by its fingerprint (the one the
 * database records), passwords in URLs and tokens as `***`.
 */
export function configReport(config: ServerConfig, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const keyFile = join(config.dataDir, 'encryption.key');
  const fingerprint = new Vault(config.encryptionKey).fingerprint().slice(0, 12);
  return {
    environment: config.env,
    listen: `${config.host}:${config.port}`,
    public_url: config.publicUrl,
    database: config.databaseUrl ? maskUrl(config.databaseUrl) : `embedded PGlite in ${config.dataDir}`,
    data_dir: config.dataDir,
    encryption_key: `${env.REMIT_ENCRYPTION_KEY ? 'REMIT_ENCRYPTION_KEY' : existsSync(keyFile) ? keyFile : 'generated'} (fingerprint ${fingerprint})`,
    ...(config.previousEncryptionKey
      ? {
          encryption_key_previous: `REMIT_ENCRYPTION_KEY_PREVIOUS (fingerprint ${new Vault(config.previousEncryptionKey).fingerprint().slice(0, 12)}, opens only)`,
        }
      : {}),
    processor: config.processor.name,
    check_deposits: config.checkDeposits?.name ?? 'none',
    check_images: config.checkImageStore?.name ?? 'database',
    settlement_cutoff: hhmm(config.settlementCutoffMs),
    email: env.SMTP_URL
      ? `${maskUrl(env.SMTP_URL)} from ${env.REMIT_EMAIL_FROM || 'Remit <no-reply@remit.local>'}`
      : config.env === 'sandbox'
        ? 'sandbox inbox'
        : 'none',
    workers: env.REMIT_WORKERS === 'off' ? 'off' : 'on',
    metrics_token: config.metricsToken ? '***' : 'unset',
    trust_proxy: Array.isArray(config.trustProxy) ? config.trustProxy.join(', ') : String(config.trustProxy),
    private_webhooks: config.privateWebhooks,
    webhook_ports: [443, ...config.webhookPorts].join(', '),
    idempotency_lease_ms: config.idempotencyLeaseMs ?? 60_000,
    shutdown_timeout_ms: config.shutdownTimeoutMs,
    retention: {
      events: days(config.retention.eventsDays),
      messages: days(config.retention.messagesDays),
      sessions: days(config.retention.sessionsDays),
      csp_reports: days(config.retention.cspReportsDays),
      purge_interval_ms: config.retention.intervalMs,
    },
    time_limits_ms: config.timeLimits,
    rate_limits: section(config.rateLimits),
    widget_limits: section(config.widgetLimits),
  };
}

/** `key: value` lines, nested sections indented under their name. */
export function reportLines(report: Record<string, unknown>, indent = ''): string {
  return Object.entries(report)
    .map(([k, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? `${indent}${k}:\n${reportLines(v as Record<string, unknown>, `${indent}  `)}`
        : `${indent}${k}: ${v}\n`,
    )
    .join('');
}
