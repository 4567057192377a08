import { randomBytes } from 'node:crypto';
import { createCredentials } from '../clients/credentials.js';
import { addCustomer } from '../customers/customers.js';
import { addCustomerInput, chargeInput } from '@remit/contract';
import { merchants } from '../db/schema.js';
import { newId } from '../ids.js';
import { digest, newKey } from '../secret-keys.js';
import { openCore, type Core } from '../open.js';
import type { Now } from '../clock.js';
import { chargeCustomer } from './charges.js';
import { merchantForKey, type Merchant } from '../merchants/merchant-key.js';

/**
 * Core-level fixtures for the money-movement tests (no HTTP): an in-memory core, a client, an
 * approved merchant inserted directly, and customers and charges made through the core.
 */

export interface CoreFixture {
  core: Core;
  clientId: string;
  merchantKey: string;
  merchantId: string;
  /** The merchant as the edge resolves it for each request (read afresh: its sandbox clock moves). */
  merchant(): Promise<Merchant>;
  /** A customer with the Visa test card. */
  cardCustomer: number;
}

export async function coreFixture(now?: Now): Promise<CoreFixture> {
  const core = await openCore({ env: 'sandbox', publicUrl: 'http://127.0.0.1', encryptionKey: randomBytes(32), now });
  return addTestMerchant(core);
}

/** Another client with an approved merchant and a card customer, on an open core. */
export async function addTestMerchant(core: Core): Promise<CoreFixture> {
  const { ctx } = core;
  const { client_id: clientId } = await createCredentials(ctx);
  const merchantKey = newKey.merchant('sandbox');
  const merchantId = newId.merchant();
  await ctx.db.insert(merchants).values({
    id: merchantId,
    clientId,
    status: 'approved',
    businessname: 'Test Shop',
    email: 'shop@example.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phonenumber: '+14155550100',
    website: 'https://shop.example.test',
    merchantKeyHash: digest(merchantKey),
    merchantKeyEnc: ctx.vault.encrypt(merchantKey),
    publicKey: newKey.public('sandbox'),
    businessInfo: {},
    ownerInfo: {},
    processingInfo: {},
    bankName: 'Test Bank',
    routingNumber: '011000015',
    accountNumberEnc: ctx.vault.encrypt('000123456789'),
    accountLast4: '6789',
    einEnc: ctx.vault.encrypt('123456789'),
    ssnEnc: ctx.vault.encrypt('123456789'),
    achProviderId: 'achp_test',
    checkDepositProvider: 'simulator',
    // Default pricing (docs/concepts.md "Money and fees"): card 2.9% + 0.30, ACH 1.0% capped at 10.00.
    cardFeeRateE7: 29_000_000,
    cardFeeFixedCents: 30,
    achFeeRateE7: 10_000_000,
    achFeeCapCents: 1_000,
    maxAmountCents: 99_999_999,
    joinDate: ctx.now(),
    approvedAt: ctx.now(),
  });
  const card = {
    number: '4242424242424242',
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 3,
    cvc: '123',
    zip: '94105',
  };
  const merchant = () => merchantForKey(ctx, clientId, merchantKey);
  const { customer_id } = await addCustomer(
    ctx,
    await merchant(),
    addCustomerInput.parse({ merchant_key: merchantKey, first_name: 'Ada', card }),
  );
  return { core, clientId, merchantKey, merchantId, merchant, cardCustomer: customer_id };
}

/** A card charge (or preauthorization) through the core; returns the transaction id. */
export async function coreCharge(f: CoreFixture, amount: string, preAuth = false): Promise<string> {
  const view = await chargeCustomer(
    f.core.ctx,
    await f.merchant(),
    String(f.cardCustomer),
    chargeInput.parse({ merchant_key: f.merchantKey, amount, order_id: 'model', preAuth }),
  );
  return view.transaction_id;
}
