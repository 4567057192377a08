import autocannon from 'autocannon';
import { send, basicAuth } from '@remit/sdk';
import { validOnboarding } from '../../apps/server/src/testing/fixtures.js';
const base = process.argv[2]; const conns = Number(process.argv[3] ?? 50);
const c = (await send<any>({ method: 'POST', url: `${base}/portal/api/credentials` })).body;
const h = { authorization: basicAuth(c.client_id, c.secret_key) };
const ob = (await send<any>({ method: 'POST', url: `${base}/api/v1/onboarding`, headers: h, json: validOnboarding() })).body.data;
const r = await autocannon({ url: `${base}/api/v1/pay-link`, method: 'POST', connections: conns, duration: 5, headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ merchant_key: ob.merchant_key, amount: '10.00' }) });
console.log(`conns ${conns}: ${r.requests.average} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} non2xx ${r.non2xx}`);
