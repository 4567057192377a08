import type { TestServer } from './harness.js';

/** A complete, valid onboarding submission; override parts per test. */
export function validOnboarding(overrides: { business_name?: string; email?: string } = {}) {
  const name = overrides.business_name ?? 'Acme Coffee LLC';
  const email = overrides.email ?? 'owner@acme.example';
  return {
    BankingInfo: { account_number: '000123456789', bank_name: 'First Test Bank', routing_number: '011000015' },
    BusinessInfo: {
      business_address: '1 Market St',
      business_city: 'San Francisco',
      business_country: 'US',
      business_email: email,
      business_industry: '5812',
      business_name: name,
      business_phone: '4155550100',
      business_state: 'California',
      business_zip: '94105',
      dba: 'Acme Coffee',
      ein: '12-3456789',
      established_date: '2015-06-01',
      ownershiptype: 'llc',
      website: 'https://acme.example',
    },
    OwnerInfo: {
      address: '2 Market St',
      b_dl_number: 'D1234567',
      b_title: 'CEO',
      city: 'San Francisco',
      country: 'US',
      date_of_birth: '1980-02-29',
      email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      ownership_percent: '100',
      phone: '(415) 555-0101',
      ssn: '123-45-6789',
      state: 'California',
      zip: '94105',
    },
    ProcessingInfo: {
      annualCCSales: '250000',
      avgTicket: '12.50',
      legal_b2b: '10',
      legal_b2c: '90',
      legal_cnpinternet: '60',
      legal_cnpphoneemail: '10',
      legal_cp: '30',
      legal_percentdeliveredover30days: '0',
      legal_percentdeliveredsameday: '100',
      legal_productssold: 'physical_goods',
      percentdelievered7days: '0',
      percentdelivered14days: '0',
      processing_environment: 'ecommerce',
    },
  };
}

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
  const merchant = list.body.data.find((m: { public_data: { public_key: string } }) => m.public_data.public_key === public_key);
  if (opts.approve !== false) {
    const ap = await s.http({ method: 'POST', path: '/api/v1/approve-merchant', auth, json: { merchant_id: merchant.merchant_id } });
    if (ap.status !== 200) throw new Error(`approve failed: ${ap.status} ${ap.text}`);
  }
  return { auth, merchant_key, merchant_id: merchant.merchant_id, public_key };
}
