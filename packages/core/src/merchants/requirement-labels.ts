/**
 * Plain-language labels of Stripe's requirement names, for people (the API keeps Stripe's names,
 * which platforms look up in Stripe's docs). A name not listed still gets a readable label from
 * its parts; a person's id (`person_…`) reads as "a person of the business".
 */

const WHOSE: Record<string, string> = {
  individual: 'the owner',
  representative: 'the representative',
  company: 'the business',
  business_profile: 'the business profile',
  person: 'a person of the business',
  owners: 'the owners',
  directors: 'the directors',
  executives: 'the executives',
};

const WHAT: Record<string, string> = {
  'verification.document': 'Identity document',
  'verification.additional_document': 'Additional identity document (proof of address)',
  'verification.document.front': 'Identity document (front)',
  'verification.document.back': 'Identity document (back)',
  'verification.proof_of_registration': 'Proof of registration',
  'verification.proof_of_ultimate_beneficial_ownership': 'Proof of ownership',
  id_number: 'Tax ID number (SSN)',
  ssn_last_4: 'Last 4 digits of the SSN',
  tax_id: 'Tax ID number (EIN)',
  'dob.day': 'Date of birth',
  'dob.month': 'Date of birth',
  'dob.year': 'Date of birth',
  'address.line1': 'Street address',
  'address.city': 'City',
  'address.state': 'State',
  'address.postal_code': 'ZIP code',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email address',
  phone: 'Phone number',
  name: 'Legal name',
  title: 'Job title',
  'relationship.title': 'Job title',
  'relationship.percent_ownership': 'Ownership percentage',
  mcc: 'Industry (merchant category)',
  url: 'Website',
  product_description: 'Description of what is sold',
  support_phone: 'Support phone number',
  owners_provided: 'Confirmation that all owners are listed',
  directors_provided: 'Confirmation that all directors are listed',
  executives_provided: 'Confirmation that all executives are listed',
};

const WHOLE: Record<string, string> = {
  external_account: 'Bank account for payouts',
  'tos_acceptance.date': 'Acceptance of the merchant agreement',
  'tos_acceptance.ip': 'Acceptance of the merchant agreement',
  business_type: 'Type of business',
  'settings.payments.statement_descriptor': 'Statement descriptor (how charges appear on card statements)',
};

const words = (s: string) => s.replace(/[._]+/g, ' ').trim();

export function requirementLabel(requirement: string): string {
  const whole = WHOLE[requirement];
  if (whole) return whole;
  const [head = '', ...rest] = requirement.split('.');
  const who = WHOSE[/^person_/.test(head) ? 'person' : head];
  const tail = rest.join('.');
  if (who && tail) {
    const what = WHAT[tail] ?? capitalize(words(tail));
    return `${what} of ${who}`;
  }
  return capitalize(words(requirement));
}

const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
