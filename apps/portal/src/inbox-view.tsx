import { useState } from 'preact/hooks';
import type { MessageView } from '@remit/contract';
import { api } from './api.js';
import { dateTime } from './format.js';
import { usePolling } from './polling.js';
import { merchant } from './state.js';

/**
 * The sandbox inbox: SMS and email the chosen merchant's customers were sent. An email's HTML is
 * shown in a sandboxed frame (no scripts, no forms, its own CSP), never in the portal's page.
 */
export function InboxView() {
  const [messages, setMessages] = useState<MessageView[] | null>(null);
  const id = merchant.value?.merchant_id;
  usePolling(async () => {
    const r = await api.messages(id);
    if (r.ok) setMessages(r.data.messages);
  }, [id]);
  if (messages === null) return <p>Loading…</p>;
  if (messages.length === 0)
    return (
      <p class="empty">
        No messages yet. Payment requests and receipts sent to customers land here instead of a phone or mailbox.
      </p>
    );
  return (
    <ul class="list" aria-label="Messages">
      {messages.map((m) => (
        <MessageItem key={m.id} m={m} />
      ))}
    </ul>
  );
}

function MessageItem({ m }: { m: MessageView }) {
  const [open, setOpen] = useState(false);
  const title = m.channel === 'email' ? (m.subject ?? '(no subject)') : `SMS to ${m.recipient}`;
  return (
    <li class="card item message" data-channel={m.channel}>
      <div class="item__head">
        <h2 class="item__title">{title}</h2>
        <span class="badge">{m.channel === 'email' ? 'Email' : 'SMS'}</span>
      </div>
      <dl class="facts">
        <dt>To</dt>
        <dd>{m.recipient}</dd>
        <dt>Sent</dt>
        <dd>{dateTime(m.created_at)}</dd>
        <dt>Status</dt>
        <dd>{m.status}</dd>
      </dl>
      {m.channel === 'sms' || !m.body_html ? (
        <p class="sms">{m.body_text}</p>
      ) : (
        <>
          <button
            type="button"
            class="button button--small button--secondary"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide email' : 'Show email'}
          </button>
          {open && <iframe class="email" sandbox="" src={api.messageHtmlUrl(m.id)} title={`Email: ${title}`} />}
        </>
      )}
    </li>
  );
}
