import { readFileSync } from 'node:fs';
import { startDemo } from './serve.js';

/**
 * `npm run demo`: the three demo sites against a running Remit server. `REMIT_URL` (default
 * http://127.0.0.1:8080); `REMIT_PUBLIC_KEY`, or else a sandbox merchant is made for the demo
 * through the API (credentials, onboarding, approval) and its key printed; `DEMO_PORT` (default
 * 5173) for the shop, the React app on the next port, the Vue app on the one after.
 */
const remitUrl = (process.env.REMIT_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const port = Number(process.env.DEMO_PORT ?? 5173);

async function call(path: string, init: RequestInit & { auth?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.auth) headers.authorization = `Basic ${Buffer.from(init.auth).toString('base64')}`;
  const res = await fetch(`${remitUrl}${path}`, { ...init, headers });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A sandbox merchant, as the README's curl walk-through makes one. */
async function sandboxMerchant(): Promise<string> {
  const creds = await call('/portal/api/credentials', { method: 'POST', body: '{}' });
  const auth = `${creds.client_id}:${creds.secret_key}`;
  const onboarding = readFileSync(new URL('../../../docs/examples/onboarding.json', import.meta.url), 'utf8');
  const made = await call('/api/v1/onboarding', { method: 'POST', auth, body: onboarding });
  const list = await call('/api/v1/merchant', { auth });
  const merchant = list.data.find(
    (m: { public_data: { public_key: string } }) => m.public_data.public_key === made.data.public_key,
  );
  await call('/api/v1/approve-merchant', {
    method: 'POST',
    auth,
    body: JSON.stringify({ merchant_id: merchant.merchant_id }),
  });
  return made.data.public_key;
}

let publicKey = process.env.REMIT_PUBLIC_KEY;
if (!publicKey) {
  publicKey = await sandboxMerchant();
  console.log(`No REMIT_PUBLIC_KEY: made a sandbox merchant on ${remitUrl}, public key ${publicKey}`);
}
const demo = await startDemo({ remitUrl, publicKey, ports: { shop: port, react: port + 1, vue: port + 2 } });
console.log(`Remit demo against ${remitUrl} (add ?key=pk_… to a page's address for another merchant)
  plain HTML shop  ${demo.shop}
  React app        ${demo.react}
  Vue app          ${demo.vue}`);
