import { useEffect, useRef, useState } from 'preact/hooks';
import type { Credentials } from '@remit/contract';
import type { ApiResult } from './api.js';
import { CopyButton } from './copy-button.js';

export interface CredentialsFormProps {
  create: () => Promise<ApiResult<Credentials>>;
  /** Sign in with the credentials just made. */
  onUse: (c: Credentials) => void;
  /** Told of credentials as they are made (the page keeps them in memory for its snippets). */
  onMade?: (c: Credentials) => void;
}

/**
 * Makes sandbox credentials. The secret key is shown once, with a copy button and a warning:
 * the server keeps only its digest.
 */
export function CredentialsForm({ create, onUse, onMade }: CredentialsFormProps) {
  const [made, setMade] = useState<Credentials | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (made) heading.current?.focus();
  }, [made]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const r = await create();
    setBusy(false);
    if (r.ok) {
      setMade(r.data);
      onMade?.(r.data);
    } else setError(r.message);
  };

  if (made) {
    return (
      <section class="card" aria-labelledby="made-title">
        <h2 id="made-title" tabIndex={-1} ref={heading}>
          Your sandbox credentials
        </h2>
        <div class="warning" role="note">
          <strong>Copy the secret key now.</strong> It is shown only this once: Remit keeps only a digest of it and
          cannot show it again. Keep it out of browsers and source control.
        </div>
        <dl class="keys">
          <dt>Client ID</dt>
          <dd>
            <code id="made-client-id">{made.client_id}</code>{' '}
            <CopyButton text={made.client_id} label="Copy client ID" />
          </dd>
          <dt>Secret key</dt>
          <dd>
            <code id="made-secret">{made.secret_key}</code>{' '}
            <CopyButton text={made.secret_key} label="Copy secret key" />
          </dd>
        </dl>
        <p class="next">
          <strong>Next:</strong> copy the secret key, then sign in with these credentials to add a merchant, a webhook
          and a test payment.
        </p>
        <button type="button" class="button" onClick={() => onUse(made)}>
          Sign in with these credentials
        </button>
      </section>
    );
  }

  return (
    <form class="card" onSubmit={submit} aria-labelledby="create-title" noValidate>
      <h2 id="create-title">New to Remit?</h2>
      <p>Create a sandbox client: a client ID and a secret key for the API and this portal. No sign-up, no card.</p>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="button" disabled={busy}>
        {busy ? 'Creating…' : 'Create sandbox credentials'}
      </button>
    </form>
  );
}
