import { describe, expectTypeOf, it } from 'vitest';
import type { EventType, WebhookEvent, WebhookEventOf } from './index.js';
import { verifyWebhook } from './index.js';

/** Checked by `tsc` (npm run typecheck); the pack test also type-checks a user file against the build. */
describe('the webhook event union', () => {
  it('narrows by event_type', () => {
    const narrow = (e: WebhookEvent) => {
      if (e.event_type === 'payment.refund') {
        expectTypeOf(e.data.parent_transaction_id).toEqualTypeOf<string>();
        expectTypeOf(e.data.type).toEqualTypeOf<'Refund'>();
      }
      if (e.event_type === 'ach.update') expectTypeOf(e.data.return_transaction_id).toEqualTypeOf<string | undefined>();
      if (e.event_type === 'preauth') expectTypeOf(e.data.customer_id).toEqualTypeOf<number>();
      expectTypeOf(e.data).not.toHaveProperty('parent_transaction_id');
    };
    expectTypeOf(narrow).parameter(0).toEqualTypeOf<WebhookEvent>();
  });

  it('verifyWebhook returns the union; every spec and DESIGN event type is in it', () => {
    expectTypeOf(verifyWebhook).returns.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<EventType>().toEqualTypeOf<
      | 'payment.success'
      | 'merchant.onboarding'
      | 'merchant.approval'
      | 'documents.signed'
      | 'ach.update'
      | 'payment.void'
      | 'payment.refund'
      | 'preauth'
      | 'preauth.increment'
      | 'preauth.decrement'
      | 'preauth.charge'
      | 'preauth.void'
      // Our extension: the sandbox portal's "send test event".
      | 'webhook.test'
      // Our extension: disputes reported by Stripe.
      | 'dispute.created'
      | 'dispute.updated'
      | 'dispute.closed'
      // Our extension: what the processor still needs from a merchant.
      | 'merchant.verification'
      // Our extension: the merchant's page blocked something under its CSP.
      | 'merchant.csp_violation'
      // Our extension: a refund, void or capture the processor refused after Remit had answered.
      | 'payment.refund.failed'
      | 'payment.void.failed'
      | 'preauth.charge.failed'
      // Our extension: a declined or failed payment.
      | 'payment.failed'
    >();
    expectTypeOf<WebhookEventOf<'preauth.increment'>['data']>().toEqualTypeOf<{
      merchant_id: string;
      transaction_id: string;
      order_id: string;
      last_authorized_amount: number;
      authorized_amount: number;
    }>();
  });
});
