import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openCore, type Core } from '../open.js';
import { createTestDatabase, testDbKind } from '../test-database.js';
import { clients, merchants, transactions } from '../db/schema.js';
import { digest, newKey } from '../secret-keys.js';
import { newId } from '../ids.js';
import { RemitError } from '../errors.js';
import { listTransactionsInput } from '@remit/contract';
import { getTransaction, listTransactions, toDetail, toListItem, type TransactionRow } from './transactions.js';
import { merchantForKey } from '../merchants/merchant-key.js';
import type { ListTransactionsInput } from '@remit/contract';

let core: Core;
const clientId = newId.client();
const otherClientId = newId.client();
const mk = newKey.merchant('sandbox');
const otherMk = newKey.merchant('sandbox');
let merchantId: string;
let otherMerchantId: string;

async function insertMerchant(client: string, key: string): Promise<string> {
  const id = newId.merchant();
  await core.ctx.db.insert(merchants).values({
    id,
    clientId: client,
    status: 'approved',
    businessname: 'Test Shop',
    email: 'shop@example.test',
    firstName: 'A',
    lastName: 'B',
    phonenumber: '+14155550100',
    website: 'https://shop.example',
    merchantKeyHash: digest(key),
    merchantKeyEnc: core.ctx.vault.encrypt(key),
    publicKey: newKey.public('sandbox'),
    businessInfo: {},
    ownerInfo: {},
    processingInfo: {},
    bankName: 'Bank',
    routingNumber: '011000015',
    accountNumberEnc: core.ctx.vault.encrypt('000123456789'),
    accountLast4: '6789',
    einEnc: core.ctx.vault.encrypt('12-3456789'),
    ssnEnc: core.ctx.vault.encrypt('123-45-6789'),
    cardFeeRateE7: 29_000_000,
    cardFeeFixedCents: 30,
    achFeeRateE7: 10_000_000,
    achFeeCapCents: 1000,
    maxAmountCents: 99_999_999,
    joinDate: new Date(),
  });
  return id;
}

function row(
  merchant: string,
  createdAt: string,
  over: Partial<TransactionRow> = {},
): typeof transactions.$inferInsert {
  return {
    id: newId.transaction(),
    merchantId: merchant,
    type: 'Sale',
    paymentMethod: 'card',
    isStatus: 2,
    status: 'completed',
    amountCents: 1230,
    feeCents: 66,
    feeRateE7: 29_000_000,
    netCents: 1164,
    orderCreatedfrom: 'API',
    authCode: 'A1B2C3',
    cardBrand: 'Visa',
    lastFour: '4242',
    orderId: 'order-1',
    createdAt: new Date(createdAt),
    updatedAt: new Date(createdAt),
    ...over,
  };
}

/** PGlite in memory; with REMIT_TEST_DB=postgres a database of its own on the local Postgres. */
let testDb: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
async function databaseUrl(): Promise<string | undefined> {
  if (testDbKind !== 'postgres') return undefined;
  testDb = await createTestDatabase('remit_txq');
  return testDb.url;
}

beforeAll(async () => {
  core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: await databaseUrl(),
  });
  await core.ctx.db.insert(clients).values([
    { id: clientId, env: 'sandbox', secretHash: digest('x') },
    { id: otherClientId, env: 'sandbox', secretHash: digest('y') },
  ]);
  merchantId = await insertMerchant(clientId, mk);
  otherMerchantId = await insertMerchant(otherClientId, otherMk);
  await core.ctx.db.insert(transactions).values([
    row(merchantId, '2026-03-01T00:00:00.000Z', { id: 'txn_a' }),
    row(merchantId, '2026-03-01T23:59:59.999Z', { id: 'txn_b' }),
    row(merchantId, '2026-03-02T12:00:00.000Z', { id: 'txn_c' }),
    row(merchantId, '2026-03-02T12:00:00.000Z', { id: 'txn_d' }),
    row(merchantId, '2026-03-03T00:00:00.000Z', {
      id: 'txn_e',
      type: 'Refund',
      amountCents: 500,
      netCents: -500,
      feeCents: 0,
    }),
    row(otherMerchantId, '2026-03-02T00:00:00.000Z', { id: 'txn_other' }),
  ]);
});
afterAll(async () => {
  await core.close();
  await testDb?.drop();
});

const parse = (v: object) => listTransactionsInput.parse({ merchant_key: mk, ...v });
/** The list as a request gets it: the key resolved to a merchant first (the server does it at the edge). */
const list = async (input: ListTransactionsInput) =>
  listTransactions(core.ctx, await merchantForKey(core.ctx, clientId, input.merchant_key), input);

describe('listTransactions', () => {
  it('is newest first, ties broken by id (descending), with the full count', async () => {
    const { data, total } = await list(parse({}));
    expect(data.map((t) => t.transaction_id)).toEqual(['txn_e', 'txn_d', 'txn_c', 'txn_b', 'txn_a']);
    expect(total).toBe(5);
  });

  it('pages zero-based with limit, total stays the count of all matches', async () => {
    const p0 = await list(parse({ limit: '2', pageNumber: 0 }));
    const p1 = await list(parse({ limit: 2, pageNumber: '1' }));
    const p2 = await list(parse({ limit: 2, pageNumber: 2 }));
    const p3 = await list(parse({ limit: 2, pageNumber: 3 }));
    expect(p0.data.map((t) => t.transaction_id)).toEqual(['txn_e', 'txn_d']);
    expect(p1.data.map((t) => t.transaction_id)).toEqual(['txn_c', 'txn_b']);
    expect(p2.data.map((t) => t.transaction_id)).toEqual(['txn_a']);
    expect(p3.data).toEqual([]);
    expect([p0.total, p1.total, p2.total, p3.total]).toEqual([5, 5, 5, 5]);
  });

  it('from_date and to_date are inclusive UTC days', async () => {
    const one = await list(parse({ from_date: '2026-03-01', to_date: '2026-03-01' }));
    expect(one.data.map((t) => t.transaction_id)).toEqual(['txn_b', 'txn_a']);
    expect(one.total).toBe(2);
    const from = await list(parse({ from_date: '2026-03-02' }));
    expect(from.data.map((t) => t.transaction_id)).toEqual(['txn_e', 'txn_d', 'txn_c']);
    const to = await list(parse({ to_date: '2026-03-02' }));
    expect(to.total).toBe(4);
    const none = await list(parse({ from_date: '2027-01-01' }));
    expect(none).toEqual({ data: [], total: 0 });
  });

  it('shapes each item exactly, with a negative net_amount for a refund', async () => {
    const { data } = await list(parse({ limit: 1 }));
    expect(data[0]).toEqual({
      transaction_id: 'txn_e',
      amount: '5.00',
      created_date: '2026-03-03T00:00:00.000Z',
      fee_percentage: '2.9000000',
      net_amount: -5,
      other_details: { auth_code: 'A1B2C3', card_brand: 'Visa', last_four: '4242' },
      status: 'completed',
      is_status: 2,
      type: 'Refund',
      payment_method: 'card',
      settled: true, // completed card payments of March are past every daily cutoff since
      order_id: 'order-1',
    });
  });

  it("another client's merchant_key is the same 401 as an unknown key", async () => {
    const err = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e as RemitError,
      );
    const foreign = await err(list(parse({ merchant_key: otherMk })));
    const unknown = await err(list(parse({ merchant_key: 'mk_test_nope' })));
    expect(foreign).toBeInstanceOf(RemitError);
    expect(foreign?.kind).toBe('unauthorized');
    expect([foreign?.code, foreign?.message]).toEqual([unknown?.code, unknown?.message]);
  });
});

describe('listTransactionsInput', () => {
  it.each([
    [{ limit: 0 }, 'limit', 'must be a whole number from 1 to 100 (default 20)'],
    [{ limit: -1 }, 'limit', 'must be a whole number from 1 to 100 (default 20)'],
    [{ limit: '101' }, 'limit', 'must be a whole number from 1 to 100 (default 20)'],
    [{ limit: 2.5 }, 'limit', 'must be a whole number from 1 to 100 (default 20)'],
    [{ limit: 'ten' }, 'limit', 'must be a whole number from 1 to 100 (default 20)'],
    [{ pageNumber: -1 }, 'pageNumber', 'must be a whole number from 0 (the first page) to 1000000'],
    [{ from_date: '2026-02-30' }, 'from_date', 'must be a date YYYY-MM-DD that exists'],
    [{ from_date: '2026-03-02', to_date: '2026-03-01' }, 'from_date', 'must be on or before to_date'],
  ])('%j is refused on %s', (input, path, message) => {
    const r = listTransactionsInput.safeParse({ merchant_key: mk, ...input });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([path, message]);
  });

  it('accepts numbers as text and treats empty values as absent', () => {
    expect(
      listTransactionsInput.parse({ merchant_key: mk, limit: ' 100 ', pageNumber: '0', from_date: '', to_date: null }),
    ).toEqual({
      merchant_key: mk,
      limit: 100,
      pageNumber: 0,
      from_date: undefined,
      to_date: undefined,
    });
  });
});

describe('keyset paging (starting_after) and deep pages in one day', () => {
  it('walks every page of a busy day by key and by offset alike, new rows arriving between pages', async () => {
    const key = newKey.merchant('sandbox');
    const m = await insertMerchant(clientId, key);
    // 240 rows in one day: many in the same minute, some at the same instant.
    const base = Date.parse('2026-06-10T09:00:00.000Z');
    const made = Array.from({ length: 240 }, (_, i) =>
      row(m, new Date(base + (i % 60) * 7_000 + (i % 3) * 1_000).toISOString(), {
        id: `txn_k${m.slice(2, 8).toLowerCase()}${String(i).padStart(3, '0')}`,
      }),
    );
    await core.ctx.db.insert(transactions).values(made);
    const input = (v: object) => listTransactionsInput.parse({ merchant_key: key, limit: 25, ...v });
    const expected = made
      .sort((a, b) => (b.createdAt as Date).getTime() - (a.createdAt as Date).getTime() || (a.id! < b.id! ? 1 : -1))
      .map((r) => r.id);

    const byOffset: string[] = [];
    for (let page = 0; page * 25 < 240; page++)
      byOffset.push(...(await list(input({ pageNumber: page }))).data.map((d) => d.transaction_id));
    expect(byOffset).toEqual(expected);

    const byKey: string[] = [];
    let after: string | undefined;
    for (;;) {
      const got = await list(input(after ? { starting_after: after } : {}));
      if (!got.data.length) break;
      byKey.push(...got.data.map((d) => d.transaction_id));
      after = got.data.at(-1)!.transaction_id;
      // A newer sale arrives while the merchant pages: it is on no later page (keys only go back in time).
      await core.ctx.db.insert(transactions).values(row(m, new Date(base + 3_600_000 + byKey.length).toISOString()));
    }
    expect(byKey).toEqual(expected);
  });

  it('refuses an unknown, foreign or malformed starting_after with a 400 naming the field', async () => {
    for (const bad of ['txn_nope', 'txn_other', 'txn\u0000a']) {
      const err = await list(parse({ starting_after: bad })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RemitError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'starting_after' }] });
    }
    const both = listTransactionsInput.safeParse({ merchant_key: mk, starting_after: 'txn_c', pageNumber: 1 });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]).toMatchObject({
      path: ['starting_after'],
      message: 'cannot be combined with pageNumber: give one or the other',
    });
    expect(listTransactionsInput.safeParse({ merchant_key: mk, starting_after: 'x'.repeat(101) }).success).toBe(false);
  });

  it("pages after a transaction within the date filter, and answers the filter's total", async () => {
    const got = await list(parse({ starting_after: 'txn_d', from_date: '2026-03-01', to_date: '2026-03-02' }));
    expect(got.data.map((t) => t.transaction_id)).toEqual(['txn_c', 'txn_b', 'txn_a']);
    expect(got.total).toBe(4);
    expect((await list(parse({ starting_after: 'txn_a' }))).data).toEqual([]);
  });
});

describe('getTransaction', () => {
  it('returns the single shape with its own field names', async () => {
    const t = await getTransaction(core.ctx, await merchantForKey(core.ctx, clientId, mk), 'txn_a');
    expect(t).toEqual({
      transaction_id: 'txn_a',
      amount: '12.30',
      transaction_date: '2026-03-01T00:00:00.000Z',
      fee_percentage: '2.9000000',
      net_amount: 11.64,
      other_details: { authcode: 'A1B2C3', cardType: 'Visa', lastFourDigits: '4242' },
      status: 'completed',
      is_status: 2,
      type: 'Sale',
      payment_method: 'card',
      settled: true, // completed card payments of March are past every daily cutoff since
      order_id: 'order-1',
    });
  });

  it("is not found for another merchant's transaction and for an unknown id", async () => {
    for (const id of ['txn_other', 'txn_missing']) {
      await expect(getTransaction(core.ctx, await merchantForKey(core.ctx, clientId, mk), id)).rejects.toMatchObject({
        kind: 'not_found',
        code: 'transaction_not_found',
      });
    }
  });
});

describe('shaping', () => {
  it('toListItem and toDetail carry the same values under their own names', () => {
    const r = { ...row('m_x', '2026-01-01T00:00:00.000Z'), refundedCents: 0, settled: true } as TransactionRow;
    const a = toListItem(r);
    const b = toDetail(r);
    expect(b.transaction_date).toBe(a.created_date);
    expect(b.other_details).toEqual({ authcode: 'A1B2C3', cardType: 'Visa', lastFourDigits: '4242' });
    expect(a.settled).toBe(true);
  });
});

describe('listTransactions against a model (property)', () => {
  // A handful of instants around day boundaries, so ties and inclusive ends are exercised.
  const instants = [
    '2026-05-01T00:00:00.000Z',
    '2026-05-01T23:59:59.999Z',
    '2026-05-02T00:00:00.000Z',
    '2026-05-02T11:59:59.999Z',
    '2026-05-02T12:00:00.000Z',
    '2026-05-02T12:00:59.999Z',
    '2026-05-02T12:01:00.000Z',
    '2026-05-03T00:00:00.001Z',
    '2026-05-04T08:30:00.000Z',
  ];
  const days = ['2026-04-30', '2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04', '2026-05-05'];

  // Pages start in the minute the offset falls in (from the per-day, then per-minute counts): rows
  // removed again (an expired widget link's pending sale) leave days and minutes whose count went
  // down, or to zero. A keyset page after any listed row is the offset list's rows after it.
  it('pages, orders, filters and counts like filter → sort → slice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ at: fc.constantFrom(...instants), removed: fc.boolean() }), { maxLength: 25 }),
        fc.option(fc.constantFrom(...days), { nil: undefined }),
        fc.option(fc.constantFrom(...days), { nil: undefined }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 5 }),
        fc.nat(),
        async (made, from, to, limit, page, anchorPick) => {
          if (from && to && from > to) [from, to] = [to, from];
          const key = newKey.merchant('sandbox');
          const m = await insertMerchant(clientId, key);
          // Lower-case ids: text order is then the same in every collation and in JS.
          const all = made.map(({ at }, i) =>
            row(m, at, { id: `txn_p${m.slice(2, 8).toLowerCase()}${String(i).padStart(3, '0')}` }),
          );
          if (all.length) await core.ctx.db.insert(transactions).values(all);
          const removed = all.filter((_, i) => made[i]!.removed).map((r) => r.id!);
          if (removed.length) await core.ctx.db.delete(transactions).where(inArray(transactions.id, removed));
          const rows = all.filter((r) => !removed.includes(r.id!));

          const inRange = (at: string) =>
            (!from || at >= `${from}T00:00:00.000Z`) &&
            (!to || at < new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000).toISOString());
          const expected = rows
            .filter((r) => inRange((r.createdAt as Date).toISOString()))
            .sort(
              (a, b) =>
                (b.createdAt as Date).getTime() - (a.createdAt as Date).getTime() ||
                (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
            )
            .map((r) => r.id);

          const got = await list(
            listTransactionsInput.parse({ merchant_key: key, from_date: from, to_date: to, limit, pageNumber: page }),
          );
          expect(got.total).toBe(expected.length);
          expect(got.data.map((d) => d.transaction_id)).toEqual(expected.slice(page * limit, page * limit + limit));

          if (expected.length) {
            const k = anchorPick % expected.length;
            const after = await list(
              listTransactionsInput.parse({
                merchant_key: key,
                from_date: from,
                to_date: to,
                limit,
                starting_after: expected[k],
              }),
            );
            expect(after.total).toBe(expected.length);
            expect(after.data.map((d) => d.transaction_id)).toEqual(expected.slice(k + 1, k + 1 + limit));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
