import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, validOnboarding, type TestMerchant } from '../testing/fixtures.js';
import { logCapture, secretsIn } from '../testing/log-scan.js';

/**
 * What the server prints: no secret reaches a log line, whether it came in a query string, in a
 * request whose database write failed, or in a request the client cut off.
 */
const log = logCapture();
let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  s = await startTestServer({ logStream: log.stream, logLevel: 'debug' });
  m = await newMerchant(s);
});
afterAll(() => s.close());

const owner = validOnboarding().OwnerInfo;
const PERSONAL = [owner.date_of_birth, owner.b_dl_number, owner.address, owner.ssn, '000123456789'].map(String);

describe('secrets in logs', () => {
  it('a merchant_key (or any key-like parameter) in the query string is redacted in every line, the request URL included', async () => {
    const from = log.text().length;
    const ok = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions?merchant_key=${m.merchant_key}&limit=5`,
      auth: m.auth,
    });
    expect(ok.status).toBe(200);
    const bad = await s.http({
      method: 'GET',
      path: `/api/v1/merchant?secret_key=${m.auth[1]}&api_key=abc123secret&access_token=tok_987654321`,
      auth: ['cl_nobody', 'sk_test_wrong'],
    });
    expect(bad.status).toBe(401);
    const text = log.text().slice(from);
    expect(text).toContain('merchant_key=[Redacted]&limit=5');
    expect(text).toContain('secret_key=[Redacted]&api_key=[Redacted]&access_token=[Redacted]');
    expect(secretsIn(text, [m.merchant_key, m.auth[1], 'abc123secret', 'tok_987654321'])).toEqual([]);
  });

  it('a secret-shaped value is redacted whatever its parameter is called, and as a path segment', async () => {
    const from = log.text().length;
    const q = await s.http({
      method: 'GET',
      path: `/api/v1/merchant?q=4242%204242%204242%204242&n=123-45-6789&x=${m.merchant_key}&limit=5`,
      auth: m.auth,
    });
    expect(q.status).toBe(200);
    // A careless client puts the merchant key where the merchant id goes.
    const p = await s.http({ method: 'GET', path: `/api/v1/merchant/${m.merchant_key}`, auth: m.auth });
    expect(p.status).toBe(404);
    const text = log.text().slice(from);
    expect(text).toContain('/api/v1/merchant?q=[Redacted]&n=[Redacted]&x=[Redacted]&limit=5');
    expect(text).toContain('/api/v1/merchant/[Redacted]');
    expect(secretsIn(text, [m.merchant_key, '4242 4242 4242 4242', '4242%204242'])).toEqual([]);
  });

  it("a failed database write logs the statement, never its parameters (owner's date of birth, licence, address, SSN)", async () => {
    await s.core.ctx.db.execute(
      sql.raw(
        `create function remit_test_fail() returns trigger language plpgsql as $$ begin raise exception 'disk full (test)'; end $$`,
      ),
    );
    await s.core.ctx.db.execute(
      sql.raw(
        `create trigger remit_test_fail before insert on merchants for each row execute function remit_test_fail()`,
      ),
    );
    const from = log.text().length;
    try {
      const res = await s.http({
        method: 'POST',
        path: '/api/v1/onboarding',
        auth: m.auth,
        json: validOnboarding({ business_name: 'Failing Write LLC' }),
      });
      expect(res.status).toBe(500);
    } finally {
      await s.core.ctx.db.execute(sql.raw(`drop trigger remit_test_fail on merchants`));
      await s.core.ctx.db.execute(sql.raw(`drop function remit_test_fail()`));
    }
    const text = log.text().slice(from);
    const failure = log
      .entries()
      .find(
        (e) =>
          e.level === 50 &&
          JSON.stringify(e).includes('Failed Write LLC') === false &&
          JSON.stringify(e).includes('P0001'),
      );
    expect(failure).toBeDefined();
    expect((failure!.err as { message: string }).message).toMatch(/^Failed query: insert into "merchants"/);
    expect(secretsIn(text, PERSONAL)).toEqual([]);
  });
});

describe('a client aborting a GET with a body', () => {
  it('is logged as the client going away, at info, never a level-50 "unhandled error"', async () => {
    const from = log.entries().length;
    const url = new URL(s.url);
    const auth = Buffer.from(`${m.auth[0]}:${m.auth[1]}`).toString('base64');
    const sock = connect(Number(url.port), url.hostname);
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(
      `GET /api/v1/merchant/transactions HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Basic ${auth}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"merchant_key":"${m.merchant_key}"`,
    );
    await new Promise((r) => setTimeout(r, 200));
    sock.destroy();
    await new Promise((r) => setTimeout(r, 500));
    const after = log.entries().slice(from);
    expect(after.filter((e) => e.level >= 50)).toEqual([]);
    expect(after.some((e) => e.level === 30 && e.msg === 'client aborted the request body')).toBe(true);
    expect(secretsIn(JSON.stringify(after), [m.merchant_key])).toEqual([]);
  });
});

describe('everything this server printed', () => {
  it('holds no card number, SSN, account number, secret key, merchant key or owner data, wherever they were sent', async () => {
    // Each kind of secret once more in a query string, under the names a client would use.
    const q = await s.http({
      method: 'GET',
      path: `/api/v1/customers?merchant_key=${m.merchant_key}&card_number=4242424242424242&account_number=000123456789&ssn=123-45-6789&secret_key=${m.auth[1]}`,
      auth: m.auth,
    });
    expect(q.status).toBeLessThan(500);
    const text = log.text();
    // The scan saw the request lines (the log is not silent), and every earlier test's lines.
    expect(text).toContain('card_number=[Redacted]&account_number=[Redacted]&ssn=[Redacted]&secret_key=[Redacted]');
    expect(log.entries().length).toBeGreaterThan(20);
    expect(secretsIn(text, [m.merchant_key, m.auth[1], ...PERSONAL])).toEqual([]);
  });
});
