import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { logCapture, secretsIn } from '../testing/log-scan.js';
import {
  clientRoutes,
  makeTenant,
  merchantKeyRoutes,
  multipartBody,
  PNG,
  type FieldKind,
  type RouteCase,
  type Tenant,
} from './route-table.js';

/**
 * Bad input of any shape, on every route: always a 4xx with the error envelope, never a 5xx,
 * and nothing written. Each request is valid except for the one fault, with valid credentials
 * and a valid merchant_key. Runs are bounded so the suite stays well under a minute.
 */

const RUNS = 40;

let s: TestServer;
let t: Tenant;
/** Everything the server prints during the run, scanned for secrets at the end. */
const log = logCapture();

beforeAll(async () => {
  s = await startTestServer({ logStream: log.stream, logLevel: 'debug' });
  t = await makeTenant(s, 'Bad Input Shop');
});
afterAll(() => s.close());

interface Fault {
  what: string;
  path?: string;
  json?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

const HUGE = 'x'.repeat(100_000);
const structural = [{}, [], [1, 2], { nested: { deep: true } }];

/** Values a field of each kind must refuse (never a value some lenient parser could accept). */
const wrongValues: Record<FieldKind, unknown[]> = {
  text: [...structural, true, false, HUGE, 'a\u0000b'],
  amount: [
    ...structural,
    true,
    '-1',
    '-0.01',
    '0',
    0,
    -5,
    'NaN',
    'Infinity',
    '1e5',
    '0.001',
    1.234,
    '12,50',
    '$5',
    ' ',
    '1 000',
    1e21,
    '１２',
    HUGE,
  ],
  flag: [...structural, 'yes', 'TRUE', 2, -1, 'null'],
  int: [...structural, true, -1, '-1', 'abc', '1e3', 1e12, '1e12', HUGE],
  date: [...structural, true, 20260101, '2026-02-30', '2026/01/01', 'yesterday', '2026-1-1', HUGE],
  object: ['abc', 123, true, [], [1], HUGE],
};
/** Optional amounts that may be zero (discount, surcharge, tax): 0 is valid there. */
const zeroAllowed = new Set(['discount', 'surcharge', 'tax']);

const omit = (o: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** A copy of `o` with the (possibly dotted) field set to `v`. */
function withField(o: Record<string, unknown>, path: string, v: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const copy = { ...o };
  copy[head!] = rest.length ? withField((o[head!] ?? {}) as Record<string, unknown>, rest.join('.'), v) : v;
  return copy;
}

/** Path parameter values that can never name a resource of the tenant. */
const badPathValue = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '99999999999',
    '%00',
    'a%00b',
    '..%2F..',
    'x'.repeat(500),
    '1.5',
    '1e3',
    'null',
    '%20',
    'txn_',
    'm_',
    'ord_',
  ),
  fc
    .string({ minLength: 1, maxLength: 40 })
    .filter((v) => !/^\s*\+?\d{1,9}\s*$/.test(v))
    .map((v) => encodeURIComponent(v)),
);

function faultsFor(rc: RouteCase): fc.Arbitrary<Fault> {
  const valid = rc.body(t);
  const text = JSON.stringify(valid);
  const arbs: fc.Arbitrary<Fault>[] = [];
  const fieldNames = Object.keys(rc.fields);
  if (fieldNames.length) {
    arbs.push(
      fc.constantFrom(...fieldNames).chain((f) => {
        const kind = rc.fields[f]!;
        let values = wrongValues[kind];
        const leaf = f.split('.').pop()!;
        if (kind === 'amount' && zeroAllowed.has(leaf)) values = values.filter((v) => v !== 0 && v !== '0');
        // Optional fields may read "" or blank text as "not given" (a documented leniency); null only breaks required ones.
        if (rc.required.includes(f)) values = [...values, null];
        else values = values.filter((v) => !(typeof v === 'string' && v.trim() === ''));
        return fc
          .constantFrom(...values)
          .map((v) => ({ what: `${f} = ${JSON.stringify(v)?.slice(0, 40)}`, json: withField(valid, f, v) }));
      }),
    );
  }
  if (rc.required.length) {
    arbs.push(
      fc
        .subarray(rc.required, { minLength: 1 })
        .map((drop) => ({ what: `missing ${drop.join(', ')}`, json: omit(valid, drop) })),
    );
  }
  if (rc.required.length || rc.method !== 'GET') {
    // Arrays and scalars where an object belongs.
    arbs.push(
      fc
        .constantFrom<unknown>([valid], [], [[valid]], 42, 'text', true, null)
        .map((v) => ({ what: `body ${JSON.stringify(v).slice(0, 30)}`, json: v })),
    );
  }
  // Malformed JSON: every strict prefix of a JSON object is invalid, and so are these.
  arbs.push(
    fc
      .oneof(
        fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((k) => text.slice(0, k)),
        fc.constantFrom(
          '{',
          '{"a":}',
          "{'merchant_key': 'x'}",
          '{"amount": NaN}',
          '{"merchant_key": undefined}',
          '{,}',
          'nul',
          '{"a":1,}',
          '\u0000',
        ),
      )
      .map((raw) => ({ what: `malformed ${raw.slice(0, 30)}`, raw, headers: { 'content-type': 'application/json' } })),
  );
  // A valid JSON text under a content type the route does not take.
  arbs.push(
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=zzz',
        'application/octet-stream',
        'image/png',
      )
      .map((type) => ({ what: `content-type ${type}`, raw: text, headers: { 'content-type': type } })),
  );
  if (rc.pathParam) {
    arbs.push(badPathValue.map((v) => ({ what: `path ${v.slice(0, 30)}`, path: rc.pathParam!(t, v), json: valid })));
  }
  return fc.oneof(...arbs);
}

/** The deposit route takes multipart only: faults in the parts, and JSON or text bodies. */
function depositFaults(rc: RouteCase): fc.Arbitrary<Fault> {
  const fields = Object.fromEntries(Object.entries(rc.body(t)).map(([k, v]) => [k, String(v)]));
  const files: Array<[string, Buffer, string]> = [
    ['front_file', PNG, 'image/png'],
    ['back_file', PNG, 'image/png'],
  ];
  const mp = (f: Record<string, string>, fl: Array<[string, Buffer, string]>, what: string): Fault => ({
    what,
    ...multipartBody(f, fl),
  });
  return fc.oneof(
    fc.subarray(['amount', 'merchant_key', 'device', 'front_file', 'back_file'], { minLength: 1 }).map((drop) =>
      mp(
        omit(fields, drop) as Record<string, string>,
        files.filter(([n]) => !drop.includes(n)),
        `missing ${drop.join(', ')}`,
      ),
    ),
    fc
      .constantFrom('-1', '0', 'NaN', 'Infinity', '1e5', '0.001', '12,50', '', 'abc', HUGE)
      .map((a) => mp({ ...fields, amount: a }, files, `amount ${a.slice(0, 20)}`)),
    fc
      .string({ maxLength: 200 })
      .map((junk) =>
        mp(fields, [['front_file', Buffer.from(`hello ${junk}`), 'image/png'], files[1]!], 'front_file not an image'),
      ),
    fc.constantFrom('application/json', 'text/plain').map((type) => ({
      what: `content-type ${type}`,
      raw: JSON.stringify(rc.body(t)),
      headers: { 'content-type': type },
    })),
    fc.string({ maxLength: 100 }).map((junk) => ({
      what: 'broken multipart',
      raw: `--zzz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n${junk}`,
      headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
    })),
  );
}

function expectErrorEnvelope(res: { status: number; text: string; body: any }, what: string) {
  const label = `${what} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  expect(res.body, label).toBeTypeOf('object');
  expect(res.body.result ?? res.body.status, label).toBe(false);
  expect(res.body.message, label).toBeTypeOf('string');
  expect(res.body.code, label).toBeTypeOf('string');
  expect(res.body.request_id, label).toBeTypeOf('string');
}

// The form variant of sales-void is the JSON route again; its JSON faults are covered there.
const allRoutes = [...merchantKeyRoutes, ...clientRoutes].filter((r) => !r.form);

describe.each(allRoutes.map((r) => [r.name, r] as const))('%s', (_name, rc) => {
  it(`answers ${RUNS} generated bad requests with a 4xx envelope and writes nothing`, async () => {
    const before = await tableCounts(s.core);
    await fc.assert(
      fc.asyncProperty(rc.multipart ? depositFaults(rc) : faultsFor(rc), async (fault) => {
        const res = await s.http({
          method: rc.method,
          path: fault.path ?? rc.path(t),
          auth: t.auth,
          json: fault.json,
          raw: fault.raw,
          headers: fault.headers,
        });
        expectErrorEnvelope(res, fault.what);
      }),
      { numRuns: RUNS },
    );
    expect(await tableCounts(s.core)).toEqual(before);
  });

  // Multipart fields are fuzzed by depositFaults above; this one sends JSON bodies.
  if (!rc.multipart)
    it('refuses a NUL character in every field and in the path, and an overlong path parameter', async () => {
      const before = await tableCounts(s.core);
      const valid = rc.body(t);
      for (const f of Object.keys(rc.fields)) {
        const res = await s.http({
          method: rc.method,
          path: rc.path(t),
          auth: t.auth,
          json: withField(valid, f, 'a\u0000b'),
        });
        expectErrorEnvelope(res, `${f} with NUL`);
      }
      if (rc.pathParam) {
        const res = await s.http({ method: rc.method, path: rc.pathParam(t, 'a%00b'), auth: t.auth, json: valid });
        expectErrorEnvelope(res, 'path with NUL');
        // Over Fastify's maxParamLength: the router's own error must still be the envelope.
        const long = await s.http({
          method: rc.method,
          path: rc.pathParam(t, 'x'.repeat(500)),
          auth: t.auth,
          json: valid,
        });
        expectErrorEnvelope(long, 'path parameter of 500 characters');
      }
      expect(await tableCounts(s.core)).toEqual(before);
    });

  it('refuses a body over the size limit with 413 (or 400)', async () => {
    const before = await tableCounts(s.core);
    const big = 'y'.repeat(1_100_000);
    const res = rc.multipart
      ? await s.http({
          method: rc.method,
          path: rc.path(t),
          auth: t.auth,
          ...multipartBody({ ...(rc.body(t) as Record<string, string>), device: big }, [
            ['front_file', PNG, 'image/png'],
            ['back_file', PNG, 'image/png'],
          ]),
        })
      : await s.http({ method: rc.method, path: rc.path(t), auth: t.auth, json: { ...rc.body(t), padding: big } });
    expectErrorEnvelope(res, 'huge body');
    if (!rc.multipart) expect(res.status).toBe(413);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('credentials of any shape', () => {
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
  const ascii = (max: number) => fc.array(fc.constantFrom(...printable), { maxLength: max }).map((a) => a.join(''));
  const header = fc.oneof(
    ascii(80),
    ascii(60).map((v) => `Basic ${v}`),
    fc.tuple(ascii(40), ascii(60)).map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`),
    fc.constantFrom(
      'Basic',
      'Basic ',
      'Basic ====',
      'Bearer x',
      `Basic ${'A'.repeat(8_000)}`,
      `Basic ${Buffer.from(':').toString('base64')}`,
    ),
  );

  it(`answers ${RUNS} malformed Authorization headers with the 401 envelope`, async () => {
    const before = await tableCounts(s.core);
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom(...allRoutes.filter((r) => !r.multipart)), async (authorization, rc) => {
        const res = await s.http({
          ...{ method: rc.method, path: rc.path(t), json: rc.body(t) },
          headers: { authorization },
        });
        expectErrorEnvelope(res, `${rc.name} with authorization ${JSON.stringify(authorization.slice(0, 40))}`);
        expect(res.status).toBe(401);
      }),
      { numRuns: RUNS },
    );
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('what the server printed during all of the above', () => {
  it('holds no card number, SSN, account number, secret key or merchant key (also those sent in query strings)', async () => {
    // Secrets in query strings too: the URL is in every request line.
    const q = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions?merchant_key=${t.merchant_key}&card_number=4242424242424242&ssn=123-45-6789&account_number=000123456789&secret_key=${t.auth[1]}`,
      auth: t.auth,
    });
    expect(q.status).toBeLessThan(500);
    const text = log.text();
    expect(text.length).toBeGreaterThan(1000);
    // The request line with them was logged (the scan below reads it), redacted.
    expect(text).toContain(
      'merchant_key=[Redacted]&card_number=[Redacted]&ssn=[Redacted]&account_number=[Redacted]&secret_key=[Redacted]',
    );
    expect(secretsIn(text, [t.merchant_key, t.auth[1], '000123456789'])).toEqual([]);
  });
});
