import { exampleOnboarding } from '@remit/core';
import type { TestServer } from './harness.js';

/** A complete, valid onboarding submission; override parts per test. The core owns the example. */
export const validOnboarding = exampleOnboarding;

export interface TestMerchant {
  auth: [string, string];
  merchant_key: string;
  merchant_id: string;
  public_key: string;
}

/**
 * Onboards a merchant through the API (new credentials unless `auth` is given) and, unless
 * `approve: false`, approves it through the sandbox endpoint.
 */
export async function newMerchant(
  s: TestServer,
  opts: { auth?: [string, string]; approve?: boolean; business_name?: string } = {},
): Promise<TestMerchant> {
  const auth = opts.auth ?? (await s.credentials());
  const res = await s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: validOnboarding(opts) });
  if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${res.text}`);
  const { merchant_key, public_key } = res.body.data;
  const list = await s.http({ method: 'GET', path: '/api/v1/merchant', auth });
  const merchant = list.body.data.find(
    (m: { public_data: { public_key: string } }) => m.public_data.public_key === public_key,
  );
  if (opts.approve !== false) {
    const ap = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth,
      json: { merchant_id: merchant.merchant_id },
    });
    if (ap.status !== 200) throw new Error(`approve failed: ${ap.status} ${ap.text}`);
  }
  return { auth, merchant_key, merchant_id: merchant.merchant_id, public_key };
}
