import { send, basicAuth } from '@remit/sdk';
import { validOnboarding } from '../../apps/server/src/testing/fixtures.js';
const base = process.argv[2];
const c = (await send<any>({ method: 'POST', url: `${base}/portal/api/credentials` })).body;
const auth = basicAuth(c.client_id, c.secret_key);
const h = { authorization: auth };
const ob = (await send<any>({ method: 'POST', url: `${base}/api/v1/onboarding`, headers: h, json: validOnboarding() })).body.data;
const ms = (await send<any>({ method: 'GET', url: `${base}/api/v1/merchant`, headers: h })).body.data;
await send({ method: 'POST', url: `${base}/api/v1/approve-merchant`, headers: h, json: { merchant_id: ms[0].merchant_id } });
for (const [name, fn] of [
  ['healthz', () => send({ method: 'GET', url: `${base}/healthz` })],
  ['pay-link', () => send({ method: 'POST', url: `${base}/api/v1/pay-link`, headers: h, json: { merchant_key: ob.merchant_key, amount: '10.00' } })],
  ['list', () => send({ method: 'GET', url: `${base}/api/v1/merchant/transactions`, headers: h, json: { merchant_key: ob.merchant_key } })],
] as const) {
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) { const r: any = await fn(); if (r.status >= 300) throw new Error(r.text); }
  console.log(name, ((performance.now() - t0) / 200).toFixed(2), 'ms/req');
}
