import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, digest, openPayload } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, validOnboarding } from '../testing/fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const SECRETS = ['123-45-6789', '123456789', '12-3456789', '000123456789'];
const MERCHANT_FIELDS = [
  'businessname',
  'email',
  'first_name',
  'join_date',
  'last_name',
  'merchant_id',
  'phonenumber',
  'public_data',
  'status',
  'verification',
  'website',
];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await s.core.ctx.db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

const merchantRow = async (id: string) => (await rows(sql`select * from merchants where id = ${id}`))[0]!;
const eventsOf = (merchantId: string, type: string) =>
  rows<{ client_id: string; merchant_id: string; payload: Record<string, unknown> }>(
    sql`select * from events where merchant_id = ${merchantId} and event_type = ${type}`,
  );

async function onboard(auth: [string, string], body: unknown = validOnboarding()) {
  return s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: body });
}

async function idOf(auth: [string, string], publicKey: string): Promise<string> {
  const list = await s.http({ method: 'GET', path: '/api/v1/merchant', auth });
  return list.body.data.find((m: { public_data: { public_key: string } }) => m.public_data.public_key === publicKey)
    .merchant_id;
}

describe('POST /onboarding', () => {
  it('201 with the onboarding result; the merchant starts pending with the default pricing', async () => {
    const auth = await s.credentials();
    const res = await onboard(auth);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.result).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect(Object.keys(res.body.data).sort()).toEqual([
      'agreement_link',
      'businessname',
      'email',
      'merchant_key',
      'public_key',
    ]);
    expect(res.body.data.businessname).toBe('Acme Coffee LLC');
    expect(res.body.data.email).toBe('owner@acme.example');
    expect(res.body.data.merchant_key).toMatch(/^mk_test_[0-9A-Za-z]{32}$/);
    expect(res.body.data.public_key).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);

    const id = await idOf(auth, res.body.data.public_key);
    expect(id).toMatch(/^m_[0-9A-Za-z]{20}$/);
    const row = await merchantRow(id);
    expect(row).toMatchObject({
      client_id: auth[0],
      status: 'pending',
      approved_at: null,
      ach_provider_id: null,
      card_fee_rate_e7: 29_000_000,
      card_fee_fixed_cents: 30,
      ach_fee_rate_e7: 10_000_000,
      ach_fee_cap_cents: 1000,
      account_last4: '6789',
      routing_number: '011000015',
      phonenumber: '+14155550100',
    });
    expect(Number(row.max_amount_cents)).toBe(99_999_999);
  });

  it('keeps SSN, EIN and account number only encrypted, and the merchant_key only as digest + ciphertext', async () => {
    const auth = await s.credentials();
    const res = await onboard(auth);
    const key = res.body.data.merchant_key as string;
    const row = await merchantRow(await idOf(auth, res.body.data.public_key));
    const stored = JSON.stringify(row);
    for (const secret of [...SECRETS, key]) expect(stored).not.toContain(secret);
    expect(row.merchant_key_hash).toBe(digest(key));
    const { vault } = s.core.ctx;
    expect(vault.decrypt(row.merchant_key_enc as string)).toBe(key);
    expect(vault.decrypt(row.ssn_enc as string)).toBe('123456789');
    expect(vault.decrypt(row.ein_enc as string)).toBe('12-3456789');
    expect(vault.decrypt(row.account_number_enc as string)).toBe('000123456789');
    expect(Object.keys(row.business_info as object)).not.toContain('ein');
    expect(Object.keys(row.owner_info as object)).not.toContain('ssn');
  });

  it('writes merchant.onboarding in the outbox with the spec payload', async () => {
    const auth = await s.credentials();
    const res = await onboard(auth, validOnboarding({ business_name: 'Event Co', email: 'ev@event.example' }));
    const id = await idOf(auth, res.body.data.public_key);
    const evs = await eventsOf(id, 'merchant.onboarding');
    expect(evs).toHaveLength(1);
    expect(evs[0]!.client_id).toBe(auth[0]);
    // The key reaches the receiver, but the outbox keeps it sealed.
    expect(JSON.stringify(evs[0]!.payload)).not.toContain(res.body.data.merchant_key);
    expect(openPayload(evs[0]!.payload, s.core.ctx.vault)).toEqual({
      merchant_key: res.body.data.merchant_key,
      merchant_id: id,
      business_name: 'Event Co',
      email: 'ev@event.example',
      public_key: res.body.data.public_key,
    });
  });

  const bad = (section: string, field: string, value: unknown) => {
    const body = validOnboarding() as unknown as Record<string, Record<string, unknown>>;
    if (value === undefined) delete body[section]![field];
    else body[section]![field] = value;
    return body;
  };

  it.each<[string, unknown, string]>([
    ['email', bad('BusinessInfo', 'business_email', 'nope'), 'BusinessInfo.business_email'],
    ['date shape', bad('BusinessInfo', 'established_date', '2015-6-1'), 'BusinessInfo.established_date'],
    ['future date', bad('BusinessInfo', 'established_date', '2999-01-01'), 'BusinessInfo.established_date'],
    [
      'minor owner',
      bad('OwnerInfo', 'date_of_birth', `${new Date().getUTCFullYear() - 10}-01-01`),
      'OwnerInfo.date_of_birth',
    ],
    ['country code', bad('OwnerInfo', 'country', 'USA'), 'OwnerInfo.country'],
    ['EIN', bad('BusinessInfo', 'ein', '12345'), 'BusinessInfo.ein'],
    ['SSN area 666', bad('OwnerInfo', 'ssn', '666-45-6789'), 'OwnerInfo.ssn'],
    ['routing checksum', bad('BankingInfo', 'routing_number', '123456789'), 'BankingInfo.routing_number'],
    ['account number', bad('BankingInfo', 'account_number', '12'), 'BankingInfo.account_number'],
    ['percentage', bad('OwnerInfo', 'ownership_percent', '150'), 'OwnerInfo.ownership_percent'],
    [
      'misspelled delivery field',
      bad('ProcessingInfo', 'percentdelievered7days', undefined),
      'ProcessingInfo.percentdelievered7days',
    ],
    ['b2b + b2c', bad('ProcessingInfo', 'legal_b2c', '80'), 'ProcessingInfo.legal_b2b'],
    ['cp + cnp', bad('ProcessingInfo', 'legal_cnpphoneemail', '0'), 'ProcessingInfo.legal_cp'],
    ['money text', bad('ProcessingInfo', 'annualCCSales', '$250k'), 'ProcessingInfo.annualCCSales'],
    ['MCC', bad('BusinessInfo', 'business_industry', 'food'), 'BusinessInfo.business_industry'],
    ['phone', bad('OwnerInfo', 'phone', '12'), 'OwnerInfo.phone'],
    ['website', bad('BusinessInfo', 'website', 'acme.example'), 'BusinessInfo.website'],
    ['ownershiptype', bad('BusinessInfo', 'ownershiptype', 'corp'), 'BusinessInfo.ownershiptype'],
    ['legal_productssold', bad('ProcessingInfo', 'legal_productssold', 'goods'), 'ProcessingInfo.legal_productssold'],
    [
      'processing_environment',
      bad('ProcessingInfo', 'processing_environment', 'web'),
      'ProcessingInfo.processing_environment',
    ],
    ['required field', bad('OwnerInfo', 'last_name', undefined), 'OwnerInfo.last_name'],
  ])('400 naming the field for a bad %s; nothing written', async (_name, body, path) => {
    const auth = await s.credentials();
    const before = await tableCounts(s.core);
    const res = await onboard(auth, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(res.body.message).toContain(path);
    expect(await tableCounts(s.core)).toEqual(before);
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);
  });

  it('says the percentages must add up to 100', async () => {
    const res = await onboard(await s.credentials(), bad('ProcessingInfo', 'legal_b2c', '80'));
    expect(res.body.message).toContain('legal_b2b and legal_b2c must add up to 100');
  });

  it('400 for a missing object and for an empty body', async () => {
    const auth = await s.credentials();
    const { BankingInfo: _, ...rest } = validOnboarding();
    const res = await onboard(auth, rest);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['BankingInfo']);
    const empty = await onboard(auth, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'BankingInfo',
      'BusinessInfo',
      'OwnerInfo',
      'ProcessingInfo',
    ]);
  });

  it('401 without credentials', async () => {
    const res = await s.http({ method: 'POST', path: '/api/v1/onboarding', json: validOnboarding() });
    expect(res.status).toBe(401);
    expect(res.body.result).toBe(false);
  });
});

describe('GET /merchant', () => {
  it("lists exactly the spec's fields plus status and verification, newest first, only the client's own merchants", async () => {
    const a = await s.credentials();
    const b = await s.credentials();
    const first = await onboard(a, validOnboarding({ business_name: 'First' }));
    const second = await onboard(a, validOnboarding({ business_name: 'Second' }));
    await onboard(b, validOnboarding({ business_name: 'Other client' }));

    const res = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: a });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.result).toBe(true);
    expect(res.body.data.map((m: { businessname: string }) => m.businessname)).toEqual(['Second', 'First']);
    const m = res.body.data[1];
    expect(Object.keys(m).sort()).toEqual(MERCHANT_FIELDS);
    expect(m).toMatchObject({
      businessname: 'First',
      email: 'owner@acme.example',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phonenumber: '+14155550100',
      public_data: { public_key: first.body.data.public_key },
      website: 'https://acme.example',
      status: 'pending',
      verification: { status: 'pending_review', currently_due: [], charges_enabled: false },
    });
    expect(Object.keys(m.public_data)).toEqual(['public_key']);
    expect(m.join_date).toMatch(ISO_MS);
    expect(m.merchant_id).toMatch(/^m_/);
    expect(res.text).not.toContain(first.body.data.merchant_key);
    expect(res.text).not.toContain(second.body.data.merchant_key);
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);

    const other = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: b });
    expect(other.body.data.map((x: { businessname: string }) => x.businessname)).toEqual(['Other client']);
  });

  it('an empty list for a client with no merchants', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: await s.credentials() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('GET /merchant/{merchant_id} (owner call)', () => {
  it('returns the merchant with its merchant_key to its owner', async () => {
    const m = await newMerchant(s, { approve: false });
    const res = await s.http({ method: 'GET', path: `/api/v1/merchant/${m.merchant_id}`, auth: m.auth });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    expect(Object.keys(res.body.data).sort()).toEqual([...MERCHANT_FIELDS, 'merchant_key'].sort());
    expect(res.body.data.merchant_key).toBe(m.merchant_key);
    expect(res.body.data.merchant_id).toBe(m.merchant_id);
    expect(res.body.data.status).toBe('pending');
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);
  });

  it("404 with the same answer for another client's merchant and an unknown id", async () => {
    const m = await newMerchant(s, { approve: false });
    const stranger = await s.credentials();
    const foreign = await s.http({ method: 'GET', path: `/api/v1/merchant/${m.merchant_id}`, auth: stranger });
    const unknown = await s.http({ method: 'GET', path: '/api/v1/merchant/m_doesnotexist0000000', auth: stranger });
    for (const res of [foreign, unknown]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: false, code: 'merchant_not_found', message: 'Merchant not found.' });
    }
    expect(foreign.text).not.toContain(m.merchant_key);
  });

  it('does not capture the static /merchant/transactions route', async () => {
    const m = await newMerchant(s);
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/transactions',
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.body.code).not.toBe('merchant_not_found');
    expect(s.app.hasRoute({ method: 'GET', url: '/api/v1/merchant/:merchant_id' })).toBe(true);
  });
});

describe('POST /approve-merchant (sandbox)', () => {
  it('approves a pending merchant, provisions ACH credentials and fires merchant.approval once', async () => {
    const m = await newMerchant(s, { approve: false, business_name: 'To Approve' });
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth: m.auth,
      json: { merchant_id: m.merchant_id },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'status']);
    expect(res.body.status).toBe(true);
    expect(typeof res.body.message).toBe('string');

    const row = await merchantRow(m.merchant_id);
    expect(row.status).toBe('approved');
    expect(row.approved_at).not.toBeNull();
    expect(row.ach_provider_id).toMatch(/^achp_/);
    const evs = await eventsOf(m.merchant_id, 'merchant.approval');
    expect(evs).toHaveLength(1);
    expect(evs[0]!.payload).toEqual({
      merchant_id: m.merchant_id,
      business_name: 'To Approve',
      email: 'owner@acme.example',
      company_id: m.auth[0],
    });

    const list = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: m.auth });
    expect(list.body.data[0].status).toBe('approved');

    // A second call answers 200 and changes nothing.
    const again = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth: m.auth,
      json: { merchant_id: m.merchant_id },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: true, message: 'Merchant is already approved.' });
    expect(await eventsOf(m.merchant_id, 'merchant.approval')).toHaveLength(1);
    expect((await merchantRow(m.merchant_id)).ach_provider_id).toBe(row.ach_provider_id);
  });

  it('concurrent approvals approve once and fire one event', async () => {
    const m = await newMerchant(s, { approve: false });
    const all = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.http({
          method: 'POST',
          path: '/api/v1/approve-merchant',
          auth: m.auth,
          json: { merchant_id: m.merchant_id },
        }),
      ),
    );
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(all.filter((r) => r.body.message === 'Merchant approved successfully.')).toHaveLength(1);
    expect(await eventsOf(m.merchant_id, 'merchant.approval')).toHaveLength(1);
  });

  it("404 status:false for an unknown or another client's merchant", async () => {
    const m = await newMerchant(s, { approve: false });
    const stranger = await s.credentials();
    for (const merchant_id of [m.merchant_id, 'm_unknown']) {
      const res = await s.http({
        method: 'POST',
        path: '/api/v1/approve-merchant',
        auth: stranger,
        json: { merchant_id },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, code: 'merchant_not_found', message: 'Merchant not found.' });
      expect(res.body).not.toHaveProperty('result');
    }
    expect((await merchantRow(m.merchant_id)).status).toBe('pending');
  });

  it('400 status:false naming merchant_id when it is missing; 401 status:false without credentials', async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth: await s.credentials(),
      json: {},
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'invalid_request' });
    expect(res.body.errors[0].path).toBe('merchant_id');
    const anon = await s.http({ method: 'POST', path: '/api/v1/approve-merchant', json: { merchant_id: 'm_x' } });
    expect(anon.status).toBe(401);
    expect(anon.body.status).toBe(false);
  });
});

describe('OpenAPI', () => {
  it('publishes the onboarding enums', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/openapi.json' });
    const doc = JSON.stringify(res.body);
    for (const v of ['s_corporation', 'digital_goods', 'restaurant', 'percentdelievered7days'])
      expect(doc).toContain(v);
  });
});

describe('production', () => {
  let p: TestServer;
  beforeAll(async () => {
    p = await startTestServer({ env: 'production' });
  });
  afterAll(() => p.close());

  it('onboarding makes live keys; approve-merchant is refused as sandbox-only', async () => {
    const c = await createCredentials(p.core.ctx);
    const auth: [string, string] = [c.client_id, c.secret_key];
    const res = await p.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: validOnboarding() });
    expect(res.status).toBe(201);
    expect(res.body.data.merchant_key).toMatch(/^mk_live_/);
    expect(res.body.data.public_key).toMatch(/^pk_live_/);
    const list = await p.http({ method: 'GET', path: '/api/v1/merchant', auth });
    const merchant_id = list.body.data[0].merchant_id;

    const ap = await p.http({ method: 'POST', path: '/api/v1/approve-merchant', auth, json: { merchant_id } });
    expect(ap.status).toBe(403);
    expect(ap.body).toMatchObject({ status: false, code: 'sandbox_only' });
    expect(ap.body.message).toContain('sandbox-only mock endpoint');
    const r = (await p.core.ctx.db.execute(sql`select status from merchants where id = ${merchant_id}`)) as unknown as {
      rows: Array<{ status: string }>;
    };
    expect(r.rows[0]!.status).toBe('pending');
  });
});
