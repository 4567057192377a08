import { describe, expect, it } from 'vitest';
import { exampleOnboarding } from './onboarding.example.js';
import { onboardingFields, onboardingSchema } from '@remit/contract';

const { adultCutoff, COUNTRY_CODES, hundredths } = onboardingFields;

/** The example submission, its sections loose enough to break field by field. */
function sample() {
  return exampleOnboarding() as { [S in Section]: Record<string, unknown> };
}

type Section = 'BankingInfo' | 'BusinessInfo' | 'OwnerInfo' | 'ProcessingInfo';

/** Paths (dot-joined) of the issues after setting `section.field` to `value` (undefined deletes it). */
function issuesWith(section: Section, patch: Record<string, unknown>): string[] {
  const body = sample();
  const target = body[section] as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete target[k];
    else target[k] = v;
  }
  const r = onboardingSchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const daysFromNow = (n: number) => iso(new Date(Date.now() + n * 86_400_000));

describe('onboardingSchema: valid input', () => {
  it('accepts the sample and normalizes what it stores', () => {
    const r = onboardingSchema.parse(sample());
    expect(r.BusinessInfo.business_phone).toBe('+14155550100');
    expect(r.OwnerInfo.phone).toBe('+14155550101');
    expect(r.OwnerInfo.ssn).toBe('123456789');
    expect(r.BusinessInfo.ein).toBe('12-3456789');
    expect(r.BusinessInfo.business_industry).toBe('5812');
  });

  it('accepts 9-digit EIN and SSN, lower-case country codes and numbers for percentages and money', () => {
    const body = sample();
    body.BusinessInfo.ein = '123456789';
    body.BusinessInfo.business_country = 'us';
    body.OwnerInfo.ssn = '123456789';
    body.ProcessingInfo.legal_b2b = 12.5;
    body.ProcessingInfo.legal_b2c = '87.5';
    body.ProcessingInfo.avgTicket = 9.99;
    const r = onboardingSchema.parse(body);
    expect(r.BusinessInfo.ein).toBe('12-3456789');
    expect(r.BusinessInfo.business_country).toBe('US');
    expect(r.OwnerInfo.ssn).toBe('123456789');
    expect(r.ProcessingInfo.legal_b2b).toBe('12.5');
    expect(r.ProcessingInfo.avgTicket).toBe('9.99');
  });

  it('dba and b_dl_number are optional; a non-US postal code is allowed abroad', () => {
    expect(issuesWith('BusinessInfo', { dba: undefined })).toEqual([]);
    expect(issuesWith('OwnerInfo', { b_dl_number: undefined })).toEqual([]);
    expect(issuesWith('OwnerInfo', { country: 'GB', zip: 'SW1A 1AA' })).toEqual([]);
  });

  it('ignores unknown extra fields', () => {
    const body = { ...sample(), extra: 1 } as Record<string, unknown>;
    expect(onboardingSchema.safeParse(body).success).toBe(true);
  });
});

describe('onboardingSchema: each field class fails with its path', () => {
  it.each<[string, Section, Record<string, unknown>, string]>([
    ['missing object', 'BankingInfo', {}, 'BankingInfo'],
    ['missing required field', 'BusinessInfo', { business_name: undefined }, 'BusinessInfo.business_name'],
    ['empty text', 'OwnerInfo', { first_name: '  ' }, 'OwnerInfo.first_name'],
    ['number where text', 'OwnerInfo', { last_name: 5 }, 'OwnerInfo.last_name'],
    ['bad business email', 'BusinessInfo', { business_email: 'not-an-email' }, 'BusinessInfo.business_email'],
    ['bad owner email', 'OwnerInfo', { email: 'a@' }, 'OwnerInfo.email'],
    ['date shape', 'BusinessInfo', { established_date: '06/01/2015' }, 'BusinessInfo.established_date'],
    ['date that does not exist', 'BusinessInfo', { established_date: '2015-02-30' }, 'BusinessInfo.established_date'],
    [
      'established in the future',
      'BusinessInfo',
      { established_date: daysFromNow(2) },
      'BusinessInfo.established_date',
    ],
    ['owner a minor', 'OwnerInfo', { date_of_birth: daysFromNow(-365 * 17) }, 'OwnerInfo.date_of_birth'],
    ['owner born before 1900', 'OwnerInfo', { date_of_birth: '1899-12-31' }, 'OwnerInfo.date_of_birth'],
    ['non-existent birth date', 'OwnerInfo', { date_of_birth: '1981-02-29' }, 'OwnerInfo.date_of_birth'],
    ['country of three letters', 'BusinessInfo', { business_country: 'USA' }, 'BusinessInfo.business_country'],
    ['unassigned country code', 'OwnerInfo', { country: 'XX' }, 'OwnerInfo.country'],
    ['EIN short', 'BusinessInfo', { ein: '12-345678' }, 'BusinessInfo.ein'],
    ['EIN dash misplaced', 'BusinessInfo', { ein: '123-456789' }, 'BusinessInfo.ein'],
    ['EIN prefix 00', 'BusinessInfo', { ein: '00-1234567' }, 'BusinessInfo.ein'],
    ['SSN area 000', 'OwnerInfo', { ssn: '000-12-3456' }, 'OwnerInfo.ssn'],
    ['SSN area 666', 'OwnerInfo', { ssn: '666-12-3456' }, 'OwnerInfo.ssn'],
    ['SSN area 9xx', 'OwnerInfo', { ssn: '912-34-5678' }, 'OwnerInfo.ssn'],
    ['SSN group 00', 'OwnerInfo', { ssn: '123-00-4567' }, 'OwnerInfo.ssn'],
    ['SSN serial 0000', 'OwnerInfo', { ssn: '123-45-0000' }, 'OwnerInfo.ssn'],
    ['SSN 8 digits', 'OwnerInfo', { ssn: '12345678' }, 'OwnerInfo.ssn'],
    ['SSN half dashed', 'OwnerInfo', { ssn: '123-456789' }, 'OwnerInfo.ssn'],
    ['routing checksum', 'BankingInfo', { routing_number: '011000016' }, 'BankingInfo.routing_number'],
    ['routing length', 'BankingInfo', { routing_number: '01100001' }, 'BankingInfo.routing_number'],
    ['account too short', 'BankingInfo', { account_number: '123' }, 'BankingInfo.account_number'],
    ['account too long', 'BankingInfo', { account_number: '1'.repeat(18) }, 'BankingInfo.account_number'],
    ['account not digits', 'BankingInfo', { account_number: '12345A' }, 'BankingInfo.account_number'],
    ['ownership above 100', 'OwnerInfo', { ownership_percent: '100.01' }, 'OwnerInfo.ownership_percent'],
    ['ownership negative', 'OwnerInfo', { ownership_percent: '-1' }, 'OwnerInfo.ownership_percent'],
    [
      'percentage three decimals',
      'ProcessingInfo',
      { legal_percentdeliveredsameday: '10.125' },
      'ProcessingInfo.legal_percentdeliveredsameday',
    ],
    [
      'misspelled 7-day field bad',
      'ProcessingInfo',
      { percentdelievered7days: '101' },
      'ProcessingInfo.percentdelievered7days',
    ],
    [
      '14-day field missing',
      'ProcessingInfo',
      { percentdelivered14days: undefined },
      'ProcessingInfo.percentdelivered14days',
    ],
    [
      'over-30-days not a number',
      'ProcessingInfo',
      { legal_percentdeliveredover30days: 'ten' },
      'ProcessingInfo.legal_percentdeliveredover30days',
    ],
    ['b2b + b2c not 100', 'ProcessingInfo', { legal_b2b: '20' }, 'ProcessingInfo.legal_b2b'],
    ['cp + cnp not 100', 'ProcessingInfo', { legal_cp: '50' }, 'ProcessingInfo.legal_cp'],
    ['annual sales with separators', 'ProcessingInfo', { annualCCSales: '250,000' }, 'ProcessingInfo.annualCCSales'],
    ['average ticket zero', 'ProcessingInfo', { avgTicket: '0' }, 'ProcessingInfo.avgTicket'],
    ['average ticket three decimals', 'ProcessingInfo', { avgTicket: '1.005' }, 'ProcessingInfo.avgTicket'],
    ['MCC three digits', 'BusinessInfo', { business_industry: '581' }, 'BusinessInfo.business_industry'],
    ['MCC as a number', 'BusinessInfo', { business_industry: 5812 }, 'BusinessInfo.business_industry'],
    ['business phone', 'BusinessInfo', { business_phone: '555-0100' }, 'BusinessInfo.business_phone'],
    ['owner phone', 'OwnerInfo', { phone: '+1 015 555 0100' }, 'OwnerInfo.phone'],
    ['website without scheme', 'BusinessInfo', { website: 'acme.example' }, 'BusinessInfo.website'],
    ['website ftp', 'BusinessInfo', { website: 'ftp://acme.example' }, 'BusinessInfo.website'],
    ['website javascript', 'BusinessInfo', { website: 'javascript:alert(1)' }, 'BusinessInfo.website'],
    ['US ZIP shape', 'BusinessInfo', { business_zip: '9410' }, 'BusinessInfo.business_zip'],
    ['owner US ZIP shape', 'OwnerInfo', { zip: 'ABCDE' }, 'OwnerInfo.zip'],
    ['ownershiptype', 'BusinessInfo', { ownershiptype: 'LLC Inc' }, 'BusinessInfo.ownershiptype'],
    ['legal_productssold', 'ProcessingInfo', { legal_productssold: 'stuff' }, 'ProcessingInfo.legal_productssold'],
    [
      'processing_environment',
      'ProcessingInfo',
      { processing_environment: 'online' },
      'ProcessingInfo.processing_environment',
    ],
  ])('%s', (_name, section, patch, path) => {
    const issues =
      Object.keys(patch).length === 0
        ? (() => {
            const body = sample() as Record<string, unknown>;
            delete body[section];
            const r = onboardingSchema.safeParse(body);
            return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
          })()
        : issuesWith(section, patch);
    expect(issues).toEqual([path]);
  });

  it('explains the percentage sums in the message', () => {
    const body = sample();
    body.ProcessingInfo.legal_b2c = '50';
    body.ProcessingInfo.legal_cnpinternet = '0';
    const r = onboardingSchema.safeParse(body);
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message);
    expect(messages).toContain('legal_b2b and legal_b2c must add up to 100');
    expect(messages).toContain('legal_cp, legal_cnpinternet and legal_cnpphoneemail must add up to 100');
  });
});

describe('helpers', () => {
  it('hundredths reads percentages without floats', () => {
    expect(hundredths('0')).toBe(0);
    expect(hundredths('12.5')).toBe(1250);
    expect(hundredths('33.33')).toBe(3333);
    expect(hundredths('100')).toBe(10_000);
  });

  it('adultCutoff: 18 years ago today; 29 February births come of age on 1 March', () => {
    expect(adultCutoff(new Date('2026-11-22T12:00:00Z'))).toBe('2008-11-22');
    expect(adultCutoff(new Date('2026-02-28T12:00:00Z'))).toBe('2008-02-28');
    expect('2008-02-29' > adultCutoff(new Date('2026-02-28T12:00:00Z'))).toBe(true);
  });

  it('knows the 249 ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    for (const c of ['US', 'CA', 'GB', 'DE', 'MX', 'SS', 'AX']) expect(COUNTRY_CODES.has(c)).toBe(true);
  });
});
