import { call, expectOk } from './http.js';

/** An SMS or email the sandbox kept in its inbox instead of sending it. */
export interface SandboxMessage {
  id: string;
  channel: 'sms' | 'email';
  /** E.164 for SMS, the address for email. */
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  /** Every http(s) address in the text, in order: the pay link first for a payment request. */
  links: string[];
  /** The pay link's id, when the message carries one. */
  payLinkId: string | null;
  merchantId: string;
  createdAt: Date;
}

export interface Messages {
  /** The next message to `to` (a phone in any US or E.164 form, or an email address) that no earlier `next` returned; waits up to `timeoutMs` (default 5000). */
  next(opts: { to: string; timeoutMs?: number }): Promise<SandboxMessage>;
  /** Every message the sandbox kept for its merchants, oldest first. */
  all(): Promise<SandboxMessage[]>;
}

/** One form for a recipient: an email lower-cased, a phone as digits with the country code (US when 10 digits). */
export function recipientKey(to: string): string {
  const t = to.trim();
  if (t.includes('@')) return t.toLowerCase();
  const digits = t.replace(/\D/g, '');
  return digits.length === 10 ? `1${digits}` : digits;
}

const LINK = /https?:\/\/[^\s"'<>)]+/g;

interface MessageView {
  id: string;
  merchant_id: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  pay_link_id: string | null;
  created_at: string;
}

const toMessage = (m: MessageView): SandboxMessage => ({
  id: m.id,
  channel: m.channel,
  to: m.recipient,
  subject: m.subject,
  text: m.body_text,
  html: m.body_html,
  links: [...m.body_text.matchAll(LINK)].map((x) => x[0].replace(/[.,;]+$/, '')),
  payLinkId: m.pay_link_id,
  merchantId: m.merchant_id,
  createdAt: new Date(m.created_at),
});

/**
 * The sandbox inbox (`GET /sandbox/messages`) as seen by the kit's credentials: every merchant
 * made with them. Messages are read by polling, a few times a second while someone waits.
 */
export function sandboxInbox(url: string, auth: () => [string, string]) {
  const handedOut = new Set<string>();
  const list = async (): Promise<SandboxMessage[]> => {
    const a = await call<{ data: { messages: MessageView[] } }>(`${url}/sandbox/messages?limit=100`, 'GET', {
      auth: auth(),
    });
    return expectOk('GET /sandbox/messages', a).data.messages.map(toMessage).reverse();
  };
  /** The next message not yet taken (to `to`, by `channel`), or null after `timeoutMs` or once `signal` aborts. */
  const take = async (
    q: { to?: string; channel?: 'sms' | 'email' },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<SandboxMessage | null> => {
    const key = q.to === undefined ? undefined : recipientKey(q.to);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await list()).find(
        (m) =>
          !handedOut.has(m.id) &&
          (key === undefined || recipientKey(m.to) === key) &&
          (q.channel === undefined || m.channel === q.channel),
      );
      if (signal?.aborted) return null;
      if (found) {
        handedOut.add(found.id);
        return found;
      }
      if (Date.now() >= deadline) return null;
      await new Promise((r) => setTimeout(r, Math.min(50, Math.max(0, deadline - Date.now()))));
    }
  };
  const messages: Messages = {
    all: list,
    async next({ to, timeoutMs = 5000 }) {
      const found = await take({ to }, timeoutMs);
      if (!found) throw new Error(`Timed out after ${timeoutMs} ms waiting for a message to ${to}`);
      return found;
    },
  };
  return { messages, take, clear: () => handedOut.clear() };
}
