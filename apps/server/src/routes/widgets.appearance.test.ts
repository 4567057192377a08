import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { stateOf, writePayFixture } from '../testing/pay-dist.js';
import { rows } from '../testing/payments.js';

/**
 * `PUT /widgets/{id}` `appearance` (theme + Stripe-named variables), refused when a colour pair
 * would not read; and where it shows: the widgets' config, the pay page's stylesheet.
 */

let s: TestServer;
let m: TestMerchant;
let dist: string;
let id: string;
const SHOP = 'https://shop.example';
beforeAll(async () => {
  dist = writePayFixture();
  s = await startTestServer({ payDir: dist });
  m = await newMerchant(s);
  id = (await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth, json: { merchant_key: m.merchant_key } }))
    .body.data[0].id;
});
afterAll(async () => {
  await s.close();
  rmSync(dist, { recursive: true, force: true });
});

const put = (json: Record<string, unknown>) =>
  s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key, ...json },
  });
const stored = async () =>
  (await rows(s, sql`select appearance, primary_color, updated_at from widgets where id = ${id}`))[0];
const config = (appearance?: string) =>
  s.http({
    method: 'GET',
    path: `/widget/v1/config?public_key=${m.public_key}${appearance ? `&appearance=${encodeURIComponent(appearance)}` : ''}`,
    headers: { origin: SHOP },
  });
async function payPage(query = '') {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, amount: '10.00' },
  });
  return s.http({ method: 'GET', path: `/pay/${String(res.body.data.payment_link).split('/').pop()}${query}` });
}

describe('PUT /widgets/{id} appearance', () => {
  it('stores a readable appearance, answers it, and GET /widgets returns it', async () => {
    const appearance = {
      theme: 'night',
      variables: { colorPrimary: '#A78BFA', fontFamily: 'Inter, system-ui, sans-serif', borderRadius: '4px' },
    };
    const res = await put({ appearance });
    expect(res.status).toBe(200);
    const want = {
      theme: 'night',
      variables: { colorPrimary: '#a78bfa', fontFamily: 'Inter, system-ui, sans-serif', borderRadius: '4px' },
    };
    expect(res.body.data.appearance).toEqual(want);
    expect((await stored())!.appearance).toEqual(want);
    const list = await s.http({
      method: 'GET',
      path: '/api/v1/widgets',
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(list.body.data[0].appearance).toEqual(want);
    // Other fields leave it as it is; null goes back to the default.
    expect((await put({ button_text: 'Pay' })).body.data.appearance).toEqual(want);
    expect((await put({ appearance: null })).body.data.appearance).toEqual({ theme: 'default', variables: {} });
    expect((await stored())!.appearance).toBeNull();
  });

  it.each([
    [
      'text on the background',
      { variables: { colorText: '#9ca3af' } },
      'appearance.variables.colorText',
      'colorText on colorBackground has contrast 2.5:1; at least 4.5:1 is required',
    ],
    [
      'button text on the primary colour',
      { variables: { colorPrimary: '#808080' } },
      'appearance.variables.colorPrimary',
      'text on colorPrimary (#111827) has contrast 4.4:1; at least 4.5:1 is required',
    ],
    [
      'danger text on the background',
      { theme: 'night', variables: { colorDanger: '#b91c1c' } },
      'appearance.variables.colorDanger',
      'colorDanger on colorBackground has contrast 2.2:1; at least 4.5:1 is required',
    ],
    [
      'the focus ring on the background',
      { variables: { colorBackground: '#1e3a8a', colorText: '#ffffff', colorDanger: '#fecaca' } },
      'appearance.variables.colorBackground',
      'focus ring (#2563eb) on colorBackground has contrast 2.0:1; at least 3:1 is required',
    ],
    [
      'text in the dark half of auto',
      { theme: 'auto', variables: { colorText: '#374151' } },
      'appearance.variables.colorText',
      'colorText on colorBackground has contrast 1.4:1 (dark mode); at least 4.5:1 is required',
    ],
  ])('400 for %s, naming the pair and its ratio; nothing stored', async (_what, appearance, path, message) => {
    await put({ appearance: { theme: 'flat' } });
    const before = await stored();
    const res = await put({ appearance, button_text: 'Not stored' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      code: 'invalid_request',
      message: `Invalid request. ${path}: ${message}`,
      errors: [{ path, message }],
    });
    expect(await stored()).toEqual(before);
    expect(
      (await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth, json: { merchant_key: m.merchant_key } }))
        .body.data[0].button_text,
    ).not.toBe('Not stored');
  });

  it.each([
    ['a theme not offered', { theme: 'dark' }, 'appearance.theme'],
    ['a colour name', { variables: { colorPrimary: 'purple' } }, 'appearance.variables.colorPrimary'],
    ['a number for a length', { variables: { borderRadius: 4 } }, 'appearance.variables.borderRadius'],
    ['a length in em', { variables: { fontSizeBase: '1em' } }, 'appearance.variables.fontSizeBase'],
    ['a font size too large', { variables: { fontSizeBase: '40px' } }, 'appearance.variables.fontSizeBase'],
    [
      'CSS in a font name',
      { variables: { fontFamily: 'x;}body{background:url(//evil)' } },
      'appearance.variables.fontFamily',
    ],
    ['a font name with its quote left open', { variables: { fontFamily: '"x' } }, 'appearance.variables.fontFamily'],
    [
      'a font list with a single quote left open',
      { variables: { fontFamily: "'Inter, sans-serif" } },
      'appearance.variables.fontFamily',
    ],
    [
      'quotes that do not pair',
      { variables: { fontFamily: `"Inter', sans-serif` } },
      'appearance.variables.fontFamily',
    ],
    ['a quote inside a font name', { variables: { fontFamily: 'Ar"ial"' } }, 'appearance.variables.fontFamily'],
    [
      'a backslash in a font name',
      { variables: { fontFamily: 'Inter\\22 , serif' } },
      'appearance.variables.fontFamily',
    ],
    ['a line break in a font list', { variables: { fontFamily: 'Inter,\nserif' } }, 'appearance.variables.fontFamily'],
    ['markup in a font name', { variables: { fontFamily: '</style><script>' } }, 'appearance.variables.fontFamily'],
    ['a string for the appearance', 'night', 'appearance'],
    ['a list for the variables', { variables: ['#ffffff'] }, 'appearance.variables'],
  ])('400 for %s, naming the field; nothing stored', async (_what, appearance, path) => {
    const before = await stored();
    const res = await put({ appearance });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      errors: expect.arrayContaining([expect.objectContaining({ path })]),
    });
    expect(await stored()).toEqual(before);
  });

  it('theme.primary_color is the colorPrimary of an appearance that sets none, and is checked as one', async () => {
    await put({ appearance: null });
    const res = await put({ theme: { primary_color: '#ffd400' } });
    expect(res.status).toBe(200);
    expect((await config()).body.data.appearance_css).toContain('--brand:#ffd400;--brand-ink:#111827;');
    const grey = await put({ theme: { primary_color: '#808080' } });
    expect(grey.status).toBe(400);
    expect(grey.body.errors).toEqual([
      {
        path: 'appearance.variables.colorPrimary',
        message: 'text on colorPrimary (#111827) has contrast 4.4:1; at least 4.5:1 is required',
      },
    ]);
    expect((await stored())!.primary_color).toBe('#ffd400');
    await put({ theme: { primary_color: null } });
  });
});

describe('where the appearance shows', () => {
  it('the widget config carries it as a stylesheet for the shadow roots, and takes a readable page override', async () => {
    await put({ appearance: { theme: 'flat', variables: { colorPrimary: '#7c3aed' } } });
    const plain = (await config()).body.data;
    expect(plain.appearance_css).toMatch(/^:host\{--brand:#7c3aed;.*--radius:2px;.*\}$/);
    expect(plain.appearance_warning).toBeNull();
    const night = (await config(JSON.stringify({ theme: 'night' }))).body.data;
    expect(night.appearance_css).toContain('--brand:#7c3aed;');
    expect(night.appearance_css).toContain('--surface:#1f2937;');
    expect(night.appearance_warning).toBeNull();
  });

  it('an override that would not read, or is of the wrong shape, is ignored with the reason', async () => {
    const settings = (await config()).body.data.appearance_css;
    const grey = (await config(JSON.stringify({ variables: { colorText: '#cccccc' } }))).body.data;
    expect(grey).toMatchObject({
      appearance_css: settings,
      appearance_warning:
        'the appearance option is ignored: colorText on colorBackground has contrast 1.6:1; at least 4.5:1 is required',
    });
    expect((await config('{"theme":"dark"}')).body.data.appearance_warning).toBe(
      'the appearance option is ignored: theme: must be one of default, night, flat, auto',
    );
    expect((await config('night')).body.data.appearance_warning).toBe(
      'the appearance option is ignored: it is not JSON',
    );
  });

  it('the pay page links its stylesheet (after the built styles) and the stylesheet is served from its query', async () => {
    await put({ appearance: { theme: 'night', variables: { colorPrimary: '#a78bfa' } } });
    const res = await payPage();
    const sheet = stateOf(res.text).view.merchant.stylesheet;
    expect(sheet).toBe('/pay/appearance.css?theme=night&colorPrimary=%23a78bfa');
    expect(res.text).toContain(`<link rel="stylesheet" href="${sheet.replace(/&/g, '&amp;')}" data-appearance></head>`);
    const css = await s.http({ method: 'GET', path: sheet });
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text).toMatch(
      /^:root,body\{--brand:#a78bfa;--brand-ink:#111827;--ink:#f9fafb;.*color-scheme:dark;font-family:system-ui.*;font-size:16px\}$/,
    );
    const refused = await s.http({ method: 'GET', path: '/pay/appearance.css?colorText=%23222222&theme=night' });
    expect(refused.status).toBe(400);
    expect(refused.text).not.toContain('--brand');
  });

  it("a pay page's ?appearance= goes over the settings when it reads, and is ignored when it does not", async () => {
    const over = await payPage(`?appearance=${encodeURIComponent(JSON.stringify({ theme: 'flat' }))}`);
    expect(stateOf(over.text).view.merchant.stylesheet).toBe('/pay/appearance.css?theme=flat&colorPrimary=%23a78bfa');
    const bad = await payPage(
      `?appearance=${encodeURIComponent(JSON.stringify({ theme: 'default', variables: { colorText: '#eeeeee' } }))}`,
    );
    expect(bad.status).toBe(200);
    expect(stateOf(bad.text).view.merchant.stylesheet).toBe('/pay/appearance.css?theme=night&colorPrimary=%23a78bfa');
    await put({ appearance: null });
    expect(stateOf((await payPage()).text).view.merchant.stylesheet).toBeNull();
    expect((await payPage()).text).not.toContain('data-appearance');
  });
});

describe('a font list with a quote left open', () => {
  const FONT_RULE =
    'must be a CSS font-family list: names of letters, digits, spaces and -, separated by commas, each whole name optionally in matching quotes, for example \'Inter, "Segoe UI", sans-serif\'';

  it('PUT /widgets/{id}: 400 naming the field and the rule; quoted names that close are stored and reach the sheet', async () => {
    await put({ appearance: { variables: { fontSizeBase: '18px' } } });
    const before = await stored();
    const open = await put({ appearance: { variables: { fontFamily: '"x', fontSizeBase: '20px' } } });
    expect(open.status).toBe(400);
    expect(open.body).toMatchObject({
      result: false,
      code: 'invalid_request',
      errors: [{ path: 'appearance.variables.fontFamily', message: FONT_RULE }],
    });
    expect(await stored()).toEqual(before);
    const quoted = await put({
      appearance: { variables: { fontFamily: `"Segoe UI", 'Helvetica Neue', sans-serif`, fontSizeBase: '20px' } },
    });
    expect(quoted.status).toBe(200);
    expect((await config()).body.data.appearance_css).toContain(
      `font-family:"Segoe UI", 'Helvetica Neue', sans-serif;font-size:20px}`,
    );
  });

  it('per page (data-appearance, ?appearance=): ignored with the reason, the settings shown as they are', async () => {
    await put({ appearance: { variables: { fontSizeBase: '18px' } } });
    const settings = (await config()).body.data.appearance_css as string;
    const open = (await config(JSON.stringify({ variables: { fontFamily: '"x' } }))).body.data;
    expect(open).toEqual(
      expect.objectContaining({
        appearance_css: settings,
        appearance_warning: `the appearance option is ignored: variables.fontFamily: ${FONT_RULE}`,
      }),
    );
    const page = await payPage(
      `?appearance=${encodeURIComponent(JSON.stringify({ variables: { fontFamily: "'x" } }))}`,
    );
    expect(stateOf(page.text).view.merchant.stylesheet).toBe('/pay/appearance.css?fontSizeBase=18px');
    const sheet = await s.http({
      method: 'GET',
      path: `/pay/appearance.css?fontFamily=${encodeURIComponent('"x')}&fontSizeBase=18px`,
    });
    expect(sheet.status).toBe(400);
    expect(sheet.text).not.toContain('"x');
  });

  it('one stored before the rule never reaches a sheet: the other values still do', async () => {
    await s.core.ctx.db.execute(
      sql`update widgets set appearance = ${JSON.stringify({ theme: 'auto', variables: { fontFamily: '"x', fontSizeBase: '18px' } })}::jsonb where id = ${id}`,
    );
    const css = (await config()).body.data.appearance_css as string;
    expect(css).not.toContain('"x');
    expect(css).toMatch(/^:host\{.*font-size:18px\}@media \(prefers-color-scheme:dark\)\{:host\{.*font-size:18px\}\}$/);
    expect(stateOf((await payPage()).text).view.merchant.stylesheet).toBe(
      '/pay/appearance.css?theme=auto&fontSizeBase=18px',
    );
    await put({ appearance: null });
  });
});
