import { useState } from 'preact/hooks';
import type { Credentials } from '@remit/contract';
import { api, setCsrfToken } from './api.js';
import { announce } from '@remit/form-kit';
import { CredentialsForm } from './credentials-form.js';
import { SignInForm } from './sign-in-form.js';
import { viewOf, view } from './router.js';
import { created, session } from './state.js';
import type { PortalSession } from '@remit/contract';

function signedIn(s: PortalSession) {
  setCsrfToken(s.csrf_token);
  view.value = viewOf(location.pathname);
  session.value = s;
  announce(`Signed in as ${s.client_id}.`);
}

/**
 * Signed out: make credentials, or sign in with them. Once credentials are made the sign-in form
 * goes away, so the only next step on screen is "copy the secret, sign in with these".
 */
export function SignInView() {
  const [error, setError] = useState('');
  const [made, setMade] = useState(false);
  const use = async (c: Credentials) => {
    const r = await api.signIn(c);
    if (!r.ok) return setError(r.message);
    signedIn(r.data);
  };
  return (
    <main id="main" class="main main--narrow">
      <h1>Remit sandbox portal</h1>
      <p class="lead">
        From nothing to a received webhook in five minutes: credentials, a merchant, a webhook, a payment.
      </p>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      <div class={made ? 'one' : 'two'}>
        <CredentialsForm
          create={api.createCredentials}
          onUse={use}
          onMade={(c) => {
            // Kept in memory for the snippets until sign-out; never written to any storage.
            created.value = c;
            setMade(true);
          }}
        />
        {!made && <SignInForm signIn={api.signIn} onSignedIn={signedIn} />}
      </div>
    </main>
  );
}
