import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, validOnboarding, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { rows } from '../testing/payments.js';

/**
 * Names a customer is shown (business name, DBA, customer names, a request's name and description,
 * the widget's button words) refuse bidi controls, invisible format characters and control
 * characters (`fields.shownText`), naming the field; scripts that need ZWJ/ZWNJ and emoji
 * sequences are stored and shown as given, on the pay page too (the built page, rendered by the server).
 */

let s: TestServer;
let m: TestMerchant;
let widgetId: string;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  widgetId = (
    await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth, json: { merchant_key: m.merchant_key } })
  ).body.data[0].id;
});
afterAll(() => s.close());

/** One of each class: bidi controls, invisible format characters, a control character. */
const HIDDEN: Record<string, string> = {
  'U+202E': '\u202E', // right-to-left override
  'U+202A': '\u202A', // left-to-right embedding
  'U+2066': '\u2066', // left-to-right isolate
  'U+2069': '\u2069', // pop directional isolate
  'U+061C': '\u061C', // Arabic letter mark
  'U+200E': '\u200E', // left-to-right mark
  'U+200F': '\u200F', // right-to-left mark
  'U+200B': '\u200B', // zero-width space
  'U+2060': '\u2060', // word joiner
  'U+FEFF': '\uFEFF', // zero-width no-break space (BOM)
  'U+00AD': '\u00AD', // soft hyphen
  'U+E0041': '\u{E0041}', // a tag letter outside a flag
  'U+0007': '\u0007', // bell (control)
};

const count = async (table: string) =>
  Number((await rows(s, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);

type Attempt = { path: string; send: (name: string) => Promise<{ status: number; body: any }>; table: string };

const ATTEMPTS: Attempt[] = [
  {
    path: 'BusinessInfo.business_name',
    table: 'merchants',
    send: async (name) =>
      s.http({
        method: 'POST',
        path: '/api/v1/onboarding',
        auth: m.auth,
        json: validOnboarding({ business_name: name }),
      }),
  },
  {
    path: 'BusinessInfo.dba',
    table: 'merchants',
    send: async (name) => {
      const body = validOnboarding();
      return s.http({
        method: 'POST',
        path: '/api/v1/onboarding',
        auth: m.auth,
        json: { ...body, BusinessInfo: { ...body.BusinessInfo, dba: name } },
      });
    },
  },
  ...(['first_name', 'last_name'] as const).map((field) => ({
    path: field,
    table: 'customers',
    send: (name: string) =>
      s.http({
        method: 'POST',
        path: '/api/v1/customers/add',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, first_name: 'Ada', last_name: 'Lovelace', [field]: name },
      }),
  })),
  ...(['name', 'description'] as const).map((field) => ({
    path: field,
    table: 'pay_links',
    send: (name: string) =>
      s.http({
        method: 'POST',
        path: '/api/v1/requests',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '5.00', order_id: `N-${field}`, [field]: name },
      }),
  })),
  {
    path: 'button_text',
    table: 'widgets where button_text is distinct from null and updated_at > created_at',
    send: (name) =>
      s.http({
        method: 'PUT',
        path: `/api/v1/widgets/${widgetId}`,
        auth: m.auth,
        json: { merchant_key: m.merchant_key, button_text: name },
      }),
  },
];

describe('names a customer sees', () => {
  it('each hidden character, in each field: 400 naming the field and the character; nothing stored', async () => {
    const widgetBefore = await rows(s, sql`select button_text, updated_at from widgets where id = ${widgetId}`);
    for (const a of ATTEMPTS) {
      const before = await count(a.table.split(' ')[0]!);
      for (const [code, ch] of Object.entries(HIDDEN)) {
        const res = await a.send(`Pay${ch}gnp.exe`);
        expect([a.path, code, res.status, res.body.code]).toEqual([a.path, code, 400, 'invalid_request']);
        expect(res.body.errors).toEqual([
          { path: a.path, message: `must not contain ${code}: no invisible or direction-changing characters` },
        ]);
      }
      expect([a.path, await count(a.table.split(' ')[0]!)]).toEqual([a.path, before]);
    }
    expect(await rows(s, sql`select button_text, updated_at from widgets where id = ${widgetId}`)).toEqual(
      widgetBefore,
    );
  });

  const NAMES = {
    arabic: 'مقهى الياسمين',
    // क्‍ष (half form with ZWJ) and स्‌ट (visible virama with ZWNJ)
    hindi: 'श्री क्\u200Dष मिठाई स्\u200Cट',
    // woman technologist and rainbow flag (ZWJ sequences, VS16), the flag of England (a tag sequence)
    emoji: 'Café 👩\u200D💻 🏳\uFE0F\u200D🌈 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
  };

  for (const [script, name] of Object.entries(NAMES)) {
    it(`${script}: stored and shown as given, in the API and on the pay page`, async () => {
      const who = await newMerchant(s, { business_name: name });
      const listed = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: who.auth });
      expect(listed.body.data.map((x: { businessname: string }) => x.businessname)).toContain(name);

      const cust = await s.http({
        method: 'POST',
        path: '/api/v1/customers/add',
        auth: who.auth,
        json: { merchant_key: who.merchant_key, first_name: name, last_name: name },
      });
      expect(cust.status).toBe(200);
      const shown = await s.http({
        method: 'GET',
        path: `/api/v1/customers/${cust.body.data.customer_id}`,
        auth: who.auth,
        json: { merchant_key: who.merchant_key },
      });
      expect([shown.body.data.first_name, shown.body.data.last_name]).toEqual([name, name]);

      const req = await s.http({
        method: 'POST',
        path: '/api/v1/requests',
        auth: who.auth,
        json: { merchant_key: who.merchant_key, amount: '5.00', order_id: `OK-${script}`, name, description: name },
      });
      expect(req.status).toBe(200);
      const linkId = req.body.data.link_id;
      const view = await s.http({ method: 'GET', path: `/pay/api/links/${linkId}` });
      expect([view.body.merchant.name, view.body.description]).toEqual([name, name]);
      const page = await s.http({ method: 'GET', path: `/pay/${linkId}` });
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<title>Pay · ${name}</title>`);
      expect(page.text).toContain(`<p class="summary__description">${name}</p>`);
    });
  }
});
