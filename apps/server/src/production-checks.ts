import { isIP } from 'node:net';
import type { ServerConfig } from './config.js';

const LOOPBACK_NAMES = /^(localhost|.*\.localhost|0\.0\.0\.0|\[::1?\])$/i;

function isLoopback(hostname: string): boolean {
  if (LOOPBACK_NAMES.test(hostname)) return true;
  return isIP(hostname) === 4 && hostname.startsWith('127.');
}

/**
 * What a production server refuses to start with, one line each: settings under which customers
 * could not pay, or messages would silently not go out. Empty in sandbox.
 * REMIT_ALLOW_NO_PROCESSOR=true, REMIT_ALLOW_NO_EMAIL=true and REMIT_ALLOW_NO_SMS=true accept the last
 * three on purpose (a trial).
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
    out.push(`PUBLIC_URL must be https in production (pay links and scripts are served from it), not ${config.publicUrl}`);
  }
  if (url && isLoopback(url.hostname)) {
    out.push(`PUBLIC_URL points at this machine (${url.hostname}): set the public address customers open pay links at`);
  }
  if (config.processor.name === 'none' && env.REMIT_ALLOW_NO_PROCESSOR !== 'true') {
    out.push('no payment processor is configured (REMIT_PROCESSOR): every payment would be refused; configure one, or set REMIT_ALLOW_NO_PROCESSOR=true for a trial without payments');
  }
  if (!env.SMTP_URL && env.REMIT_ALLOW_NO_EMAIL !== 'true') {
    out.push('SMTP_URL is not set: payment requests, card requests and receipts by email could not be sent; set SMTP_URL, or REMIT_ALLOW_NO_EMAIL=true to run without email (the API then answers that no email was sent)');
  }
  if (!env.TWILIO_ACCOUNT_SID && env.REMIT_ALLOW_NO_SMS !== 'true') {
    out.push('TWILIO_ACCOUNT_SID is not set: payment requests and card requests by SMS and the widget\'s SMS payment requests could not be sent; configure Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM), or REMIT_ALLOW_NO_SMS=true to run without SMS (the API then answers that no SMS was sent)');
  }
  return out;
}
