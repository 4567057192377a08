import { afterAll, beforeAll, expect, it } from 'vitest';
import { smtpTransport } from '@remit/core';
import { newMerchant } from './testing/fixtures.js';
import { startTestServer, type TestServer } from './testing/harness.js';
import { startSmtpSink, type SmtpSink } from './testing/smtp-sink.js';

/** A payment request with an email reaches a real SMTP server, from the running server's dispatcher. */
let smtp: SmtpSink;
let s: TestServer;

beforeAll(async () => {
  smtp = await startSmtpSink();
  s = await startTestServer({ workers: { messages: { pollMs: 10, email: smtpTransport(smtp.url) } } });
});
afterAll(async () => {
  await s.close();
  await smtp?.close();
});

const qp = (t: string) =>
  t.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

it('POST /requests with an email sends it over SMTP with text and HTML parts and the pay link', async () => {
  const m = await newMerchant(s, { business_name: 'Acme Coffee LLC' });
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/requests',
    auth: m.auth,
    json: {
      merchant_key: m.merchant_key,
      amount: '12.30',
      order_id: 'smtp-1',
      email: 'jane@example.com',
      name: 'Jane Doe',
    },
  });
  expect(res.status).toBe(200);
  const link: string = res.body.data.pay_link ?? res.body.data.payment_link;
  expect(typeof link).toBe('string');
  const until = Date.now() + 15_000;
  while (!smtp.mails.some((x) => x.to.includes('jane@example.com')) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
  const mail = smtp.mails.find((x) => x.to.includes('jane@example.com'))!;
  expect(mail).toBeDefined();
  const [head, ...rest] = mail.raw.split(/\r?\n\r?\n/);
  expect(head).toMatch(/^From: Remit <no-reply@remit\.local>$/m);
  expect(head).toMatch(/^To: jane@example\.com$/m);
  expect(head).toMatch(/^Subject: .+/m);
  expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
  const body = qp(rest.join('\n\n'));
  expect(body).toMatch(/Content-Type: text\/plain/);
  expect(body).toMatch(/Content-Type: text\/html/);
  expect(body.split(link).length).toBeGreaterThanOrEqual(3); // the link in both parts
  expect(body).toContain('Jane');
  expect(body).toContain('12.30');
  expect(body).toContain('Acme');
  const inbox = await s.http({ method: 'GET', path: `/sandbox/messages?merchant_key=${m.merchant_key}`, auth: m.auth });
  expect(inbox.body.data.messages[0]).toMatchObject({
    channel: 'email',
    recipient: 'jane@example.com',
    status: 'sent',
    attempts: 1,
  });
});
