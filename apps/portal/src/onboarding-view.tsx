import { useEffect, useState } from 'preact/hooks';
import type { OnboardingRequest } from '@remit/contract';
import { api } from './api.js';
import { announce } from '@remit/form-kit';
import { OnboardingForm } from './onboarding-form.js';
import { go } from './router.js';
import { merchantId, merchants, setMerchants } from './state.js';

/** The demo merchant's submission, filled in, to read and edit before sending. */
export function OnboardingView() {
  const [example, setExample] = useState<OnboardingRequest | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    void api.onboardingExample().then((r) => (r.ok ? setExample(r.data) : setError(r.message)));
  }, []);
  if (error)
    return (
      <p class="alert" role="alert">
        {error}
      </p>
    );
  if (!example) return <p>Loading the demo submission…</p>;
  return (
    <>
      <p class="lead" id="onboarding-title">
        A complete, valid submission for a demo merchant. Change anything, then submit: the merchant starts pending
        until you approve it.
      </p>
      <OnboardingForm
        initial={example}
        submit={async (input) => {
          const r = await api.onboard(input);
          if (r.ok) {
            setMerchants([r.data.merchant, ...merchants.value]);
            merchantId.value = r.data.merchant.merchant_id;
            announce(`${r.data.merchant.businessname} onboarded; it is pending approval.`);
          }
          return r;
        }}
        onDone={() => go('merchants')}
      />
    </>
  );
}
