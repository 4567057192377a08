import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import type { EmbedPolicy } from '@remit/contract';
import { CopyButton } from './copy-button.js';
import { EmbedPolicyCard } from './embed-policy-card.js';
import { snippets } from './snippets.js';
import { created, merchant, session } from './state.js';

/** Copy-paste snippets with the reader's keys filled in. */
export function SnippetsView() {
  const [signingSecret, setSigningSecret] = useState<string | null>(null);
  useEffect(() => {
    void api.webhook().then((r) => r.ok && setSigningSecret(r.data.signing_secret));
  }, []);
  const m = merchant.value;
  const [policy, setPolicy] = useState<EmbedPolicy | null>(null);
  useEffect(() => {
    setPolicy(null);
    if (m) void api.embedPolicy(m.merchant_id).then((r) => r.ok && setPolicy(r.data));
  }, [m?.merchant_id]);
  const secretKey = created.value?.client_id === session.value?.client_id ? (created.value?.secret_key ?? null) : null;
  const list = snippets({
    origin: location.origin,
    clientId: session.value?.client_id ?? 'cl_…',
    secretKey,
    merchantKey: m?.merchant_key ?? null,
    publicKey: m?.public_data.public_key ?? null,
    signingSecret,
  });
  return (
    <>
      <p class="lead">
        Filled in with your client ID{m ? `, ${m.businessname}'s keys` : ''}
        {signingSecret ? ' and your signing secret' : ''}.{' '}
        {secretKey
          ? 'The secret key is filled in because you made it in this tab; it is gone when you sign out or close the tab.'
          : 'Your secret key is not kept anywhere, so the snippets read it from $REMIT_SECRET_KEY.'}
      </p>
      {policy && <EmbedPolicyCard policy={policy} />}
      {list.map((s) => (
        <section class="card snippet" key={s.id} aria-labelledby={`snippet-${s.id}`}>
          <div class="item__head">
            <h2 id={`snippet-${s.id}`} class="item__title">
              {s.title}
            </h2>
            <CopyButton text={s.code} label={`Copy ${s.title}`} />
          </div>
          {s.install && <p class="note">{s.install}</p>}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a scrolling code block must take keyboard focus and be named (axe scrollable-region-focusable) */}
          <pre class="code" tabIndex={0} aria-labelledby={`snippet-${s.id}`}>
            <code>{s.code}</code>
          </pre>
        </section>
      ))}
    </>
  );
}
