import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { DEFAULT_WIDGET_LIMITS, widgetLimitsFromEnv } from './widget-limits.js';

/** REMIT_WIDGET_RATE_LIMIT_* and REMIT_WIDGET_MAX_AMOUNT: parsed from the environment, and applied by the widget backend. */

const KEY = 'a'.repeat(64);

describe('widgetLimitsFromEnv', () => {
  it('unset means the defaults', () => {
    expect(widgetLimitsFromEnv({})).toEqual(DEFAULT_WIDGET_LIMITS);
    expect(DEFAULT_WIDGET_LIMITS.smsPerPhone).toEqual({ name: 'widget_sms_phone', limit: 3, windowMs: 3_600_000 });
    expect(DEFAULT_WIDGET_LIMITS.maxAmountCents).toBeNull();
  });

  it('reads each rule as LIMIT/WINDOW or off, and the amount as decimal text', () => {
    const l = widgetLimitsFromEnv({
      REMIT_WIDGET_RATE_LIMIT_PER_KEY: '1000/1m',
      REMIT_WIDGET_RATE_LIMIT_PER_ADDRESS: 'off',
      REMIT_WIDGET_RATE_LIMIT_PAY_LINKS_PER_ADDRESS: '7/1m',
      REMIT_WIDGET_RATE_LIMIT_SMS_PER_KEY: '5/1h',
      REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE: '1/24h',
      REMIT_WIDGET_RATE_LIMIT_SMS_PER_ADDRESS: '2/30m',
      REMIT_WIDGET_RATE_LIMIT_CSP_REPORTS_PER_ADDRESS: '9/1m',
      REMIT_WIDGET_MAX_AMOUNT: '250.50',
    });
    expect(l).toEqual({
      perKey: { name: 'widget_key', limit: 1000, windowMs: 60_000 },
      perAddress: { name: 'widget_address', limit: 0, windowMs: 0 },
      payLinksPerAddress: { name: 'widget_pay_links_address', limit: 7, windowMs: 60_000 },
      smsPerKey: { name: 'widget_sms_key', limit: 5, windowMs: 3_600_000 },
      smsPerPhone: { name: 'widget_sms_phone', limit: 1, windowMs: 86_400_000 },
      smsPerAddress: { name: 'widget_sms_address', limit: 2, windowMs: 1_800_000 },
      cspReportsPerAddress: { name: 'csp_reports_address', limit: 9, windowMs: 60_000 },
      maxAmountCents: 25050,
    });
    expect(widgetLimitsFromEnv({ REMIT_WIDGET_MAX_AMOUNT: 'off' }).maxAmountCents).toBeNull();
  });

  it('a bad value names its variable (the server does not start)', () => {
    expect(() => widgetLimitsFromEnv({ REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE: 'three' })).toThrow(
      'REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE must be LIMIT/WINDOW like 10/5m (units ms, s, m, h) or off, not "three"',
    );
    for (const bad of ['0', '-1', '12.345', 'lots']) {
      expect(() => widgetLimitsFromEnv({ REMIT_WIDGET_MAX_AMOUNT: bad })).toThrow(
        `REMIT_WIDGET_MAX_AMOUNT must be an amount above 0 like 500.00, or off, not "${bad}"`,
      );
    }
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: KEY, REMIT_WIDGET_RATE_LIMIT_PER_KEY: '5 per minute' })).toThrow(
      'REMIT_WIDGET_RATE_LIMIT_PER_KEY',
    );
  });

  it("the server's configuration carries them", () => {
    expect(
      loadConfig({ REMIT_ENCRYPTION_KEY: KEY, REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE: '1/1h' }).widgetLimits.smsPerPhone
        .limit,
    ).toBe(1);
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: KEY }).widgetLimits).toEqual(DEFAULT_WIDGET_LIMITS);
  });
});

describe('configured limits take effect on /widget/v1', () => {
  const SHOP = 'https://shop.example';
  let s: TestServer;
  let m: TestMerchant;
  beforeAll(async () => {
    const env = {
      REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE: '1/1h',
      REMIT_WIDGET_RATE_LIMIT_PER_ADDRESS: '4/1m',
      REMIT_WIDGET_MAX_AMOUNT: '20.00',
    };
    s = await startTestServer({
      trustProxy: true,
      widgetLimits: loadConfig({ REMIT_ENCRYPTION_KEY: KEY, ...env }).widgetLimits,
    });
    m = await newMerchant(s);
  });
  afterAll(() => s?.close());

  const call = (method: string, path: string, json: unknown, address: string) =>
    s.http({
      method,
      path: `/widget/v1${path}?public_key=${m.public_key}`,
      json,
      headers: { origin: SHOP, 'x-forwarded-for': address },
    });

  it('REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE=1/1h: the second SMS to a phone is 429 (the default allows 3)', async () => {
    const first = await call('POST', '/payment-requests', { amount: '1', phone_number: '+14155550111' }, '10.0.0.1');
    const second = await call('POST', '/payment-requests', { amount: '1', phone_number: '+14155550111' }, '10.0.0.2');
    expect([first.status, second.status]).toEqual([200, 429]);
    expect(second.body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('widget_sms_phone: at most 1 per 1 hour'),
    });
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(3500);
  });

  it('REMIT_WIDGET_RATE_LIMIT_PER_ADDRESS=4/1m: the fifth call from one address is 429 (the default allows 120)', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await s.http({
            method: 'GET',
            path: `/widget/v1/config?public_key=${m.public_key}`,
            headers: { origin: SHOP, 'x-forwarded-for': '10.7.7.7' },
          })
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('REMIT_WIDGET_MAX_AMOUNT=20.00: a pay link or request over it is 400 amount_over_limit, at it is made', async () => {
    const over = await call('POST', '/pay-links', { amount: '20.01' }, '10.0.1.1');
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      code: 'amount_over_limit',
      errors: [{ path: 'amount', message: "must be at most 20.00, this server's limit for widget payments" }],
    });
    const request = await call('POST', '/payment-requests', { amount: '25', phone_number: '+14155550122' }, '10.0.1.2');
    expect(request.status).toBe(400);
    expect(request.body.code).toBe('amount_over_limit');
    const at = await call('POST', '/pay-links', { amount: '20.00' }, '10.0.1.3');
    expect(at.status).toBe(200);
    expect(at.body.data.amount).toBe('20.00');
  });
});
