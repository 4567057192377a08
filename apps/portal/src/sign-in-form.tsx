import { useState } from 'preact/hooks';
import type { PortalSession, SignInInput } from '@remit/contract';
import type { ApiResult } from './api.js';
import { ErrorSummary, Field } from '@remit/form-kit';

export interface SignInFormProps {
  signIn: (input: SignInInput) => Promise<ApiResult<PortalSession>>;
  onSignedIn: (s: PortalSession) => void;
  initial?: Partial<SignInInput>;
}

type Errors = Partial<Record<'client_id' | 'secret_key', string>>;

export function validateSignIn(v: SignInInput): Errors {
  const e: Errors = {};
  if (!v.client_id.trim()) e.client_id = 'Enter your client ID';
  else if (!/^cl_[0-9A-Za-z]+$/.test(v.client_id.trim())) e.client_id = 'Enter a client ID like cl_… (as it was given)';
  if (!v.secret_key.trim()) e.secret_key = 'Enter your secret key';
  else if (!/^sk_test_/.test(v.secret_key.trim())) e.secret_key = 'Enter a sandbox secret key, which starts sk_test_';
  return e;
}

/** Sign-in with the client ID and secret key; the secret goes to the server once and is kept nowhere. */
export function SignInForm({ signIn, onSignedIn, initial }: SignInFormProps) {
  const [v, setV] = useState<SignInInput>({
    client_id: initial?.client_id ?? '',
    secret_key: initial?.secret_key ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [summary, setSummary] = useState<Array<[string, string]>>([]);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = validateSignIn(v);
    setErrors(found);
    const items = Object.entries(found).map(([k, m]) => [`signin-${k.replace('_', '-')}`, m] as [string, string]);
    if (items.length) return setSummary(items);
    setBusy(true);
    const r = await signIn({ client_id: v.client_id.trim(), secret_key: v.secret_key.trim() });
    setBusy(false);
    if (r.ok) {
      setV({ client_id: '', secret_key: '' });
      setSummary([]);
      return onSignedIn(r.data);
    }
    setSummary([['', r.message]]);
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="signin-title" noValidate>
      <h2 id="signin-title">Sign in</h2>
      <ErrorSummary items={summary} />
      <Field
        id="signin-client-id"
        label="Client ID"
        autocomplete="off"
        value={v.client_id}
        error={errors.client_id}
        onInput={(e) => setV({ ...v, client_id: e.currentTarget.value })}
      />
      <Field
        id="signin-secret-key"
        label="Secret key"
        type="password"
        autocomplete="off"
        hint="Sent once to sign in; the portal keeps a session cookie, never the key."
        value={v.secret_key}
        error={errors.secret_key}
        onInput={(e) => setV({ ...v, secret_key: e.currentTarget.value })}
      />
      <button type="submit" class="button" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
