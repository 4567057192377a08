import { sql } from 'drizzle-orm';
import type { TestServer } from './harness.js';
import { validOnboarding, type TestMerchant } from './fixtures.js';
import { rows } from './payments.js';
import type { StripeEmulator } from './stripe-emulator.js';

/** A merchant onboarded with REMIT_PROCESSOR=stripe: its connected account and agreement page beside its keys. */
export interface StripeMerchant extends TestMerchant {
  agreement_link: string;
  account: string;
}

/** Onboards through the API (a Custom account at the emulator); not approved until Stripe says so. */
export async function onboardStripeMerchant(
  s: TestServer,
  auth: [string, string],
  business_name = `Shop ${Math.random().toString(36).slice(2, 8)}`,
): Promise<StripeMerchant> {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/onboarding',
    auth,
    json: validOnboarding({ business_name }),
  });
  if (res.status !== 201) throw new Error(`onboarding failed: ${res.status} ${res.text}`);
  const [row] = await rows<{ id: string; stripe_account_id: string }>(
    s,
    sql`select id, stripe_account_id from merchants where public_key = ${res.body.data.public_key}`,
  );
  return {
    auth,
    merchant_key: res.body.data.merchant_key,
    public_key: res.body.data.public_key,
    merchant_id: row!.id,
    agreement_link: res.body.data.agreement_link,
    account: row!.stripe_account_id,
  };
}

/** POSTs a Stripe event to `/stripe/webhooks` as Stripe would, signed (or with `sign`'s signature). */
export async function deliverStripeEvent(
  s: TestServer,
  emu: StripeEmulator,
  event: object,
  sign: (payload: string) => string = (p) => emu.sign(p),
): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(event);
  const res = await fetch(`${s.url}/stripe/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as any };
}
