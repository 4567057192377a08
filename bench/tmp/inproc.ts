import { randomBytes } from 'node:crypto';
import { openCore } from '@remit/core';
import { basicAuth } from '@remit/sdk';
import { buildApp } from '../../apps/server/src/app.js';
import { validOnboarding } from '../../apps/server/src/testing/fixtures.js';
let n = 0; const qs: string[] = [];
const core = await openCore({ env: 'sandbox', publicUrl: 'http://x', encryptionKey: randomBytes(32), databaseUrl: process.env.DB, logger: { logQuery(q) { n++; if (process.env.SHOW) qs.push(q.slice(0, 150)); } } });
const app = await buildApp(core);
const j = async (method: any, url: string, payload?: any, h: any = {}) => { const r = await app.inject({ method, url, payload, headers: h }); if (r.statusCode >= 300) throw new Error(r.body); return r.json(); };
const c = await j('POST', '/portal/api/credentials');
const h = { authorization: basicAuth(c.client_id, c.secret_key) };
const ob = (await j('POST', '/api/v1/onboarding', validOnboarding(), h)).data;
const ms = (await j('GET', '/api/v1/merchant', undefined, h)).data;
await j('POST', '/api/v1/approve-merchant', { merchant_id: ms[0].merchant_id }, h);
for (const [name, method, url, body] of [
  ['pay-link', 'POST', '/api/v1/pay-link', { merchant_key: ob.merchant_key, amount: '10.00' }],
  ['list', 'GET', `/api/v1/merchant/transactions?merchant_key=${ob.merchant_key}`, undefined],
] as const) {
  n = 0; qs.length = 0;
  const t0 = performance.now();
  for (let i = 0; i < 300; i++) await j(method, url, body, h);
  console.log(name, ((performance.now() - t0) / 300).toFixed(2), 'ms/req', n / 300, 'queries/req');
  if (process.env.SHOW) console.log(qs.slice(0, n / 300).join('\n'));
}
await app.close(); await core.close();
