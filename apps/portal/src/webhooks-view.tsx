import { useEffect, useState } from 'preact/hooks';
import type { PortalDelivery, PortalWebhook } from '@remit/contract';
import { api } from './api.js';
import { announce } from '@remit/form-kit';
import { CopyButton } from './copy-button.js';
import { dateTime, prettyBody } from './format.js';
import { usePolling } from './polling.js';
import { WebhookUrlForm } from './webhook-form.js';

/**
 * The client's webhook URL and signing secret (one for all its merchants, so no merchant picker
 * here), a test event, and every delivery with its bodies and a retry.
 */
export function WebhooksView() {
  const [hook, setHook] = useState<PortalWebhook | null>(null);
  const [deliveries, setDeliveries] = useState<PortalDelivery[] | null>(null);
  const [note, setNote] = useState('');
  useEffect(() => {
    void api.webhook().then((r) => r.ok && setHook(r.data));
  }, []);
  usePolling(async () => {
    const r = await api.deliveries();
    if (r.ok) setDeliveries(r.data.deliveries);
  });

  const testEvent = async () => {
    const r = await api.testEvent();
    const msg = r.ok ? 'Test event queued: it appears below in a moment.' : r.message;
    setNote(msg);
    announce(msg);
  };
  const retry = async (d: PortalDelivery) => {
    const r = await api.retry(d.id);
    const msg = r.ok ? r.data.message : r.message;
    setNote(msg);
    announce(msg);
  };

  return (
    <>
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        <p class="hint">One URL and signing secret for your client: the events of all your merchants are sent here.</p>
        {hook && (
          <WebhookUrlForm
            current={hook.webhook_url}
            save={api.setWebhook}
            onSaved={(w) => {
              setHook(w);
              announce('Webhook URL saved.');
            }}
          />
        )}
        {hook?.disabled && (
          <p class="alert" role="status">
            The receiver answered 410 Gone: deliveries are held until you save the URL again.
          </p>
        )}
        {hook?.signing_secret && (
          <dl class="keys">
            <dt>Signing secret</dt>
            <dd>
              <code>{hook.signing_secret}</code> <CopyButton text={hook.signing_secret} label="Copy signing secret" />
            </dd>
          </dl>
        )}
        <div class="actions">
          <button type="button" class="button button--secondary" onClick={testEvent} disabled={!hook?.webhook_url}>
            Send test event
          </button>
        </div>
        {note && <p class="note">{note}</p>}
      </section>

      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        <p class="hint">All your merchants' deliveries, newest first; the list refreshes every 2 seconds.</p>
        {deliveries === null ? (
          <p>Loading…</p>
        ) : deliveries.length === 0 ? (
          <p class="empty">No deliveries yet. Set a URL and send a test event, or make a payment.</p>
        ) : (
          <ul class="list" aria-label="Deliveries">
            {deliveries.map((d) => (
              <DeliveryItem key={d.id} d={d} onRetry={() => retry(d)} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function DeliveryItem({ d, onRetry }: { d: PortalDelivery; onRetry: () => void }) {
  const last = d.attempts[d.attempts.length - 1];
  return (
    <li class="card item delivery" data-event-type={d.event_type}>
      <div class="item__head">
        <h3 class="item__title">
          <code>{d.event_type}</code>
        </h3>
        <span class={`badge badge--${d.status}`}>{d.status}</span>
      </div>
      <dl class="facts">
        <dt>Attempts</dt>
        <dd>{d.attempts.length}</dd>
        <dt>Last answer</dt>
        <dd>{last ? (last.status_code ? `HTTP ${last.status_code}` : (last.error ?? 'none')) : 'not sent yet'}</dd>
        <dt>Created</dt>
        <dd>{dateTime(d.created_at)}</dd>
        <dt>Delivery ID</dt>
        <dd>
          <code>{d.id}</code>
        </dd>
      </dl>
      <details class="bodies">
        <summary>Request and response of {d.event_type}</summary>
        <h4>Request body</h4>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a scrolling code block must take keyboard focus and be named (axe scrollable-region-focusable) */}
        <pre class="code" tabIndex={0} aria-label={`Request body of ${d.event_type}`}>
          {d.request_body}
        </pre>
        {d.attempts.map((a, i) => (
          <div key={a.at}>
            <h4>
              Attempt {i + 1}: {a.status_code ? `HTTP ${a.status_code}` : a.error} in {a.latency_ms} ms,{' '}
              {dateTime(a.at)}
            </h4>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a scrolling code block must take keyboard focus and be named (axe scrollable-region-focusable) */}
            <pre class="code" tabIndex={0} aria-label={`Response body of attempt ${i + 1}`}>
              {a.response_body ? prettyBody(a.response_body) : '(empty)'}
            </pre>
          </div>
        ))}
      </details>
      <div class="actions">
        <button type="button" class="button button--small" onClick={onRetry}>
          Retry {d.event_type}
        </button>
      </div>
    </li>
  );
}
