import type { OnboardingRequest } from './merchants.js';

/**
 * A complete, valid onboarding submission (`docs/examples/onboarding.json` is this with no
 * overrides), for tests, benches and docs; override the business name and email per use.
 */
export function exampleOnboarding(overrides: { business_name?: string; email?: string } = {}): OnboardingRequest {
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
