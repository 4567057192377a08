import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openOwnerInfo, sealLegacyOwnerInfo } from '@remit/core';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, validOnboarding } from '../testing/fixtures.js';
import { rows } from '../testing/payments.js';

/** The owner's date of birth, driver's licence number and home address are stored only encrypted. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const owner = validOnboarding().OwnerInfo;
const PERSONAL = [owner.date_of_birth, owner.b_dl_number, owner.address].map(String);

const stored = async (id: string) =>
  (await rows(s, sql`select owner_info, merchants::text as whole from merchants where id = ${id}`))[0]!;

it('onboarding over HTTP stores them sealed; the vault opens them again', async () => {
  const m = await newMerchant(s);
  const row = await stored(m.merchant_id);
  for (const v of PERSONAL) expect(row.whole).not.toContain(v);
  const info = row.owner_info as Record<string, unknown>;
  expect(info).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', personal_enc: expect.any(String) });
  expect(info).not.toHaveProperty('date_of_birth');
  expect(openOwnerInfo(s.core.ctx.vault, info)).toMatchObject({
    date_of_birth: owner.date_of_birth,
    b_dl_number: owner.b_dl_number,
    address: owner.address,
    first_name: 'Ada',
  });
});

it('rows stored in clear before are sealed at start, once', async () => {
  const m = await newMerchant(s, { business_name: 'Legacy LLC' });
  const clear = { ...owner, ssn: undefined };
  await s.core.ctx.db.execute(
    sql`update merchants set owner_info = ${JSON.stringify(clear)}::jsonb where id = ${m.merchant_id}`,
  );
  expect((await stored(m.merchant_id)).whole).toContain(owner.b_dl_number);
  expect(await sealLegacyOwnerInfo(s.core.ctx)).toBe(1);
  expect(await sealLegacyOwnerInfo(s.core.ctx)).toBe(0);
  const row = await stored(m.merchant_id);
  for (const v of PERSONAL) expect(row.whole).not.toContain(v);
  expect(openOwnerInfo(s.core.ctx.vault, row.owner_info as Record<string, unknown>)).toMatchObject({
    b_dl_number: owner.b_dl_number,
    date_of_birth: owner.date_of_birth,
  });
  // The merchant still works over HTTP.
  const res = await s.http({ method: 'GET', path: `/api/v1/merchant/${m.merchant_id}`, auth: m.auth });
  expect(res.status).toBe(200);
});
