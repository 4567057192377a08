import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials } from '../clients/credentials.js';
import { messages } from '../db/schema.js';
import { eventually, insertTestMerchant, openTestCore, type TestCore } from '../webhooks/test-support.js';
import { MessageDispatcher, htmlFromText, type MessageDispatcherOptions } from './dispatcher.js';
import { queueMessage, type OutgoingMessage } from './outbox.js';
import { RejectedMessageError, type SmsConnector } from './transports/sms.js';
import { smtpTransport } from './transports/smtp.js';
import { inTransaction } from '../operation.js';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

let core: TestCore;
let merchantId: string;
let smtp: SMTPServer;
let smtpPort: number;
const inbox: Mail[] = [];

beforeAll(async () => {
  core = await openTestCore();
  const { client_id } = await createCredentials(core.ctx);
  merchantId = await insertTestMerchant(core, client_id);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await core.close();
});

const queue = (m: Partial<OutgoingMessage> & Pick<OutgoingMessage, 'channel' | 'recipient'>) =>
  inTransaction(core.ctx, (_tx, c) => queueMessage(c, { merchantId, bodyText: 'hello', ...m }));
const row = async (id: string) => (await core.ctx.db.select().from(messages).where(eq(messages.id, id)))[0]!;

async function drain(
  opts: MessageDispatcherOptions,
  until: () => Promise<boolean>,
  env: 'sandbox' | 'production' = 'sandbox',
) {
  const d = new MessageDispatcher(
    { ...core.ctx, env },
    { pollMs: 10, retryScale: 0.001, random: () => 0.5, ...opts },
  ).start();
  try {
    await eventually(until);
  } finally {
    await d.stop();
  }
}

/** Decodes a quoted-printable MIME part body. */
const qp = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('message dispatcher', () => {
  it('sends email over SMTP with a plain-text and an HTML part', async () => {
    const link = 'http://127.0.0.1:8080/pay/ord_abcdefghijklmnopqrstu';
    const id = await queue({
      channel: 'email',
      recipient: 'jane@example.com',
      subject: 'Acme Coffee LLC requests $12.30',
      bodyText: `Hi Jane,\n\nAcme Coffee LLC requests $12.30. Pay here: ${link}\n`,
      bodyHtml: `<p>Hi Jane,</p><p>Acme Coffee LLC requests <b>$12.30</b>. <a href="${link}">Pay now</a></p>`,
      payLinkId: 'ord_abcdefghijklmnopqrstu',
    });
    await drain(
      { email: smtpTransport(`smtp://127.0.0.1:${smtpPort}`, 'Acme via Remit <pay@remit.test>') },
      async () => (await row(id)).status === 'sent',
    );
    const r = await row(id);
    expect(r).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(r.sentAt).toBeInstanceOf(Date);
    const mail = inbox.find((m) => m.to.includes('jane@example.com'))!;
    expect(mail.from).toBe('pay@remit.test');
    const [head, ...rest] = mail.raw.split(/\r?\n\r?\n/);
    expect(head).toMatch(/^From: Acme via Remit <pay@remit\.test>$/m);
    expect(head).toMatch(/^To: jane@example\.com$/m);
    expect(head).toMatch(/^Subject: Acme Coffee LLC requests \$12\.30$/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
    const body = qp(rest.join('\n\n'));
    expect(body).toMatch(/Content-Type: text\/plain/);
    expect(body).toMatch(/Content-Type: text\/html/);
    expect(body).toContain(`Pay here: ${link}`);
    expect(body).toContain(`<a href="${link}">Pay now</a>`);
  });

  it('makes the HTML part from the text when none was queued', async () => {
    expect(htmlFromText('Pay <here>: https://x.test/pay/1\n\nThanks')).toBe(
      '<!doctype html><html><body><p>Pay &lt;here&gt;: <a href="https://x.test/pay/1">https://x.test/pay/1</a></p>\n<p>Thanks</p></body></html>',
    );
  });

  it('with no transport in sandbox, messages land in the sandbox inbox', async () => {
    const sms = await queue({ channel: 'sms', recipient: '+14155550123', bodyText: 'Pay: http://x/pay/1' });
    const email = await queue({ channel: 'email', recipient: 'a@b.co', subject: 's' });
    await drain(
      {},
      async () =>
        (await row(sms)).status === 'delivered_to_inbox' && (await row(email)).status === 'delivered_to_inbox',
    );
    expect((await row(sms)).sentAt).toBeInstanceOf(Date);
  });

  it('an SMS connector that fails is retried on the webhook schedule, and the status shows it', async () => {
    const sent: Array<[string, string]> = [];
    let n = 0;
    const connector: SmsConnector = {
      name: 'flaky',
      async send(to, text) {
        if (n++ === 0) throw new Error('provider unavailable');
        sent.push([to, text]);
        return { id: 'sms_1' };
      },
    };
    const id = await queue({ channel: 'sms', recipient: '+14155550124', bodyText: 'Pay: http://x/pay/2' });
    const seen: string[] = [];
    await drain({ sms: connector, retryScale: 0.02 }, async () => {
      const r = await row(id);
      if (!seen.includes(r.status)) seen.push(r.status);
      return r.status === 'sent';
    });
    expect(seen).toContain('retrying');
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(sent).toEqual([['+14155550124', 'Pay: http://x/pay/2']]);
  });

  it('a message the provider refuses for good fails at once, without retries; an accepted one keeps its provider id', async () => {
    let tries = 0;
    const connector: SmsConnector = {
      name: 'strict',
      async send(to) {
        tries++;
        if (to === '+15005550001') throw new RejectedMessageError('invalid number');
        return { id: 'SM123' };
      },
    };
    const bad = await queue({ channel: 'sms', recipient: '+15005550001' });
    const good = await queue({ channel: 'sms', recipient: '+14155550126' });
    await drain(
      { sms: connector },
      async () => (await row(bad)).status === 'failed' && (await row(good)).status === 'sent',
    );
    expect(await row(bad)).toMatchObject({ attempts: 1, lastError: 'invalid number', providerId: null });
    expect(await row(good)).toMatchObject({ attempts: 1, providerId: 'SM123' });
    expect(tries).toBe(2);
  });

  it('an SMTP server that refuses: retried, then failed after the 8th try with the error kept', async () => {
    const id = await queue({ channel: 'email', recipient: 'b@b.co', subject: 's' });
    // Nothing listens on port 9 (discard): every try fails to connect.
    await drain(
      { email: smtpTransport('smtp://127.0.0.1:9'), retryScale: 0.000005 },
      async () => (await row(id)).status === 'failed',
    );
    const r = await row(id);
    expect(r.attempts).toBe(8);
    expect(r.lastError).toMatch(/ECONNREFUSED|connect/);
  });

  it('in production without a transport a message fails at once and says why', async () => {
    const id = await queue({ channel: 'sms', recipient: '+14155550125' });
    await drain({}, async () => (await row(id)).status === 'failed', 'production');
    expect(await row(id)).toMatchObject({ attempts: 1, lastError: 'no sms transport is configured' });
  });
});
