import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newCustomer, noonClock, TEST_CARD } from '../testing/payments.js';

/**
 * The messages a customer receives, in the customer's language: `locale` on the payment request
 * (our extension, the spec names no language) for its SMS and email and the pay page they link to;
 * the receipt in the language of the page the customer paid on. Read from the sandbox inbox.
 */
let s: TestServer;
let m: TestMerchant;

beforeAll(async () => {
  s = await startTestServer({ now: noonClock(), workers: { messages: { pollMs: 10 } } });
  m = await newMerchant(s, { business_name: 'Café Lumière' });
});
afterAll(() => s.close());

interface Sent {
  channel: string;
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
}
const inbox = async (): Promise<Sent[]> =>
  (await s.http({ method: 'GET', path: `/sandbox/messages?merchant_key=${m.merchant_key}`, auth: m.auth })).body.data
    .messages;
const to = async (recipient: string, channel: string) =>
  (await inbox()).filter((x) => x.recipient.includes(recipient) && x.channel === channel);

const request = (json: Record<string, unknown>) =>
  s.http({
    method: 'POST',
    path: '/api/v1/requests',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, amount: '1234.50', ...json },
  });

describe('POST /requests with a locale', () => {
  it('French: the SMS and the email speak French, with French amounts, and link to the pay page in French', async () => {
    const res = await request({
      order_id: 'fr-1',
      phone_number: '(415) 555-0101',
      email: 'amelie@example.com',
      name: 'Amélie',
      description: 'Deux crèmes',
      locale: 'fr-FR',
    });
    expect(res.status).toBe(200);
    const link = `${res.body.data.pay_link}?locale=fr`;
    const [sms] = await to('5550101', 'sms');
    expect(sms!.body_text).toBe(
      `Bonjour Amélie, Café Lumière vous demande un paiement de 1\u202f234,50\u00a0$US pour Deux crèmes. Payez en toute sécurité : ${link}`,
    );
    const [mail] = await to('amelie@example.com', 'email');
    expect(mail!.subject).toBe('Demande de paiement de Café Lumière : 1\u202f234,50\u00a0$US');
    expect(mail!.body_text).toContain(
      'Bonjour Amélie,\n\nCafé Lumière vous demande un paiement de 1\u202f234,50\u00a0$US.',
    );
    expect(mail!.body_text).toContain(`Objet: Deux crèmes\nCommande: fr-1\n\nPayez en toute sécurité ici :\n${link}\n`);
    expect(mail!.body_html).toContain('<html lang="fr" dir="ltr">');
    expect(mail!.body_html).toContain('<strong>Café Lumière</strong> vous demande un paiement');
    expect(mail!.body_html).toContain(`href="${link}"`);
    // The page the link opens speaks French.
    const page = await s.http({ method: 'GET', path: new URL(link).pathname + '?locale=fr' });
    expect(page.text).toMatch(/<html lang="fr" dir="ltr"/);
  });

  it('Arabic: right to left in the email, Arabic text in the SMS; a preauthorization asks to authorize', async () => {
    const res = await request({
      order_id: 'ar-1',
      phone_number: '(415) 555-0102',
      email: 'layla@example.com',
      name: 'ليلى',
      preauth: true,
      locale: 'ar',
    });
    expect(res.status).toBe(200);
    const [sms] = await to('5550102', 'sms');
    expect(sms!.body_text).toMatch(/^مرحبًا ليلى، يطلب Café Lumière تفويضًا بمبلغ .*1,234\.50.*\. فوّض بأمان: /);
    const [mail] = await to('layla@example.com', 'email');
    expect(mail!.subject).toMatch(/^طلب تفويض من Café Lumière: /);
    expect(mail!.body_html).toContain('<html lang="ar" dir="rtl">');
  });

  it('Japanese and Simplified Chinese by their BCP 47 tags; a language Remit does not speak is English', async () => {
    await request({ order_id: 'ja-1', phone_number: '(415) 555-0103', locale: 'ja-JP' });
    expect((await to('5550103', 'sms'))[0]!.body_text).toMatch(/^Café Lumièreより\$1,234\.50のお支払いのご依頼です。/);
    await request({ order_id: 'zh-1', phone_number: '(415) 555-0104', locale: 'zh-CN' });
    expect((await to('5550104', 'sms'))[0]!.body_text).toMatch(
      /^Café Lumière请求您支付 US\$1,234\.50。安全支付：.*\?locale=zh-Hans$/,
    );
    await request({ order_id: 'ko-1', phone_number: '(415) 555-0105', locale: 'ko' });
    expect((await to('5550105', 'sms'))[0]!.body_text).toMatch(
      /^Café Lumière requests a payment of \$1,234\.50\. Pay securely: .*\?locale=en$/,
    );
  });

  it('a malformed locale is a 400 naming the field, and nothing is made', async () => {
    const before = await tableCounts(s.core);
    const res = await request({ order_id: 'bad-1', phone_number: '(415) 555-0106', locale: 'fr_FR!' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'locale', message: 'must be a BCP 47 language tag such as fr, pt-BR or zh-Hans' },
    ]);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('the receipt email', () => {
  const payIn = async (orderId: string, email: string, acceptLanguage: string) => {
    const res = await request({ order_id: orderId, email, locale: 'fr' });
    const linkId: string = res.body.data.link_id;
    const paid = await s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/pay`,
      json: { method: 'card', card: { ...TEST_CARD, name: 'Jonas Weber' } },
      headers: { 'idempotency-key': randomUUID(), 'accept-language': acceptLanguage },
    });
    expect(paid.status, paid.text).toBe(200);
    const until = Date.now() + 10_000;
    let mails: Sent[] = [];
    while ((mails = await to(email, 'email')).length < 2 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    return mails;
  };

  it('is written in the language of the page the customer paid on (its calls send it as Accept-Language)', async () => {
    const mails = await payIn('rcpt-de', 'jonas@example.com', 'de');
    const receipt = mails.find((x) => x.subject!.startsWith('Beleg'))!;
    expect(receipt.subject).toBe('Beleg von Café Lumière: 1.234,50\u00a0$');
    expect(receipt.body_text).toContain('Sie haben 1.234,50\u00a0$ an Café Lumière bezahlt.');
    expect(receipt.body_text).toMatch(/Karte: Visa mit der Endung 4242\n/);
    expect(receipt.body_text).toContain('Bewahren Sie diese E-Mail für Ihre Unterlagen auf.');
  });

  it('Arabic: right to left, dated in Arabic', async () => {
    const mails = await payIn('rcpt-ar', 'omar@example.com', 'ar');
    const receipt = mails.find((x) => x.subject!.startsWith('إيصال'))!;
    expect(receipt.body_html).toContain('<html lang="ar" dir="rtl">');
    expect(receipt.body_text).toMatch(/دفعت .*1,234\.50.* إلى Café Lumière\./);
    expect(receipt.body_text).toMatch(/التاريخ: .+ UTC/);
  });
});

describe('requests to a stored customer', () => {
  it('the authorization request and the card request take a locale too', async () => {
    const id = await newCustomer(s, m, { card: TEST_CARD, email: 'sofia@example.com', first_name: 'Sofia' } as {
      card: object;
    });
    const auth = await s.http({
      method: 'POST',
      path: `/api/v1/requests/${id}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '20', order_id: 'cust-it', locale: 'it' },
    });
    expect(auth.status).toBe(200);
    const card = await s.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${id}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, locale: 'pt-BR' },
    });
    expect(card.status).toBe(200);
    const mails = await to('sofia@example.com', 'email');
    expect(mails.map((x) => x.subject).sort()).toEqual([
      'Café Lumière pede que você adicione um cartão de pagamento',
      'Richiesta di pagamento da Café Lumière: 20,00\u00a0USD',
    ]);
    const cardMail = mails.find((x) => x.subject!.startsWith('Café'))!;
    expect(cardMail.body_text).toMatch(/Adicione com segurança aqui:\n.*\/pay\/card\/.*\?locale=pt-BR\n/);
    // The add-card page it links to opens in Portuguese.
    const addCard = new URL(/(http\S+\?locale=pt-BR)/.exec(cardMail.body_text)![1]!);
    const page = await s.http({ method: 'GET', path: addCard.pathname + addCard.search });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html lang="pt-BR" dir="ltr"/);
    expect(page.text).toContain('Salvar cartão');
  });
});
