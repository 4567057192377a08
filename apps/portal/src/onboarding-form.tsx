import { useState } from 'preact/hooks';
import type { OnboardingRequest } from '@remit/contract';
import type { ApiResult, FieldError } from './api.js';
import { ErrorSummary, Field } from '@remit/form-kit';

type Section = keyof OnboardingRequest;
type Values = Record<Section, Record<string, string>>;

export const SECTIONS: Array<[Section, string]> = [
  ['BusinessInfo', 'Business'],
  ['OwnerInfo', 'Owner'],
  ['BankingInfo', 'Bank account for payouts'],
  ['ProcessingInfo', 'Card processing'],
];

/** Labels of the submission's field names (the spec's names are terse). */
const LABELS: Record<string, string> = {
  business_name: 'Legal business name',
  dba: 'Doing business as',
  ein: 'EIN',
  business_industry: 'Industry (MCC)',
  ownershiptype: 'Ownership type',
  b_dl_number: "Driver's licence number",
  b_title: 'Title',
  ssn: 'SSN',
  annualCCSales: 'Annual card sales (USD)',
  avgTicket: 'Average ticket (USD)',
  legal_b2b: 'Business-to-business (%)',
  legal_b2c: 'Business-to-consumer (%)',
  legal_cnpinternet: 'Card not present, internet (%)',
  legal_cnpphoneemail: 'Card not present, phone or email (%)',
  legal_cp: 'Card present (%)',
  legal_percentdeliveredover30days: 'Delivered after 30 days (%)',
  legal_percentdeliveredsameday: 'Delivered the same day (%)',
  legal_productssold: 'Products sold',
  percentdelievered7days: 'Delivered within 7 days (%)',
  percentdelivered14days: 'Delivered within 14 days (%)',
  processing_environment: 'Processing environment',
};

export function labelOf(key: string): string {
  if (LABELS[key]) return LABELS[key]!;
  const words = key.replace(/^business_/, 'business ').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const fieldId = (section: Section, key: string) => `ob-${section}-${key}`;

function toValues(r: OnboardingRequest): Values {
  const out = {} as Values;
  for (const [section] of SECTIONS) {
    out[section] = Object.fromEntries(Object.entries(r[section] ?? {}).map(([k, v]) => [k, String(v ?? '')]));
  }
  return out;
}

export interface OnboardingFormProps {
  /** A complete, valid submission to start from (the demo merchant). */
  initial: OnboardingRequest;
  submit: (input: OnboardingRequest) => Promise<ApiResult<unknown>>;
  onDone: () => void;
}

/**
 * The onboarding submission, filled in and editable. Empty fields are caught here; everything
 * else the server checks, and its field errors (`BusinessInfo.ein`) land on their fields.
 */
export function OnboardingForm({ initial, submit, onDone }: OnboardingFormProps) {
  const [values, setValues] = useState<Values>(() => toValues(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<Array<[string, string]>>([]);
  const [busy, setBusy] = useState(false);

  const set = (section: Section, key: string, value: string) =>
    setValues((v) => ({ ...v, [section]: { ...v[section], [key]: value } }));

  const show = (list: FieldError[], fallback: string) => {
    const byId: Record<string, string> = {};
    const items: Array<[string, string]> = [];
    for (const e of list) {
      const [section, key] = e.path.split('.') as [Section, string | undefined];
      if (key && values[section]?.[key] !== undefined) {
        const id = fieldId(section, key);
        byId[id] = `${labelOf(key)} ${e.message}`;
        items.push([id, `${labelOf(key)}: ${e.message}`]);
      }
    }
    setErrors(byId);
    setSummary(items.length ? items : [['', fallback]]);
  };

  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const empty: FieldError[] = [];
    for (const [section] of SECTIONS) {
      for (const [key, v] of Object.entries(values[section]))
        if (!v.trim()) empty.push({ path: `${section}.${key}`, message: 'is required' });
    }
    if (empty.length) return show(empty, '');
    setBusy(true);
    const r = await submit(values as unknown as OnboardingRequest);
    setBusy(false);
    if (r.ok) {
      setErrors({});
      setSummary([]);
      return onDone();
    }
    show(r.errors ?? [], r.message);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="onboarding-title">
      <ErrorSummary items={summary} />
      {SECTIONS.map(([section, title], i) => (
        <details
          class="card section"
          key={section}
          open={i === 0 || Object.keys(errors).some((id) => id.startsWith(`ob-${section}-`))}
        >
          <summary>
            <h2 class="section__title">{title}</h2>
          </summary>
          <div class="grid">
            {Object.keys(values[section]).map((key) => (
              <Field
                key={key}
                id={fieldId(section, key)}
                label={labelOf(key)}
                value={values[section][key]}
                error={errors[fieldId(section, key)]}
                onInput={(e) => set(section, key, e.currentTarget.value)}
              />
            ))}
          </div>
        </details>
      ))}
      <button type="submit" class="button" disabled={busy}>
        {busy ? 'Submitting…' : 'Submit onboarding'}
      </button>
    </form>
  );
}
