import {
  DEFAULT_WAIT_MS,
  errorEnvelopeSchema,
  errorResponses,
  testingAdvanceInput,
  testingAdvanceResponseSchema,
  testingFailInput,
  testingFailResponseSchema,
  testingMerchantInput,
  testingMerchantResponseSchema,
  testingNextMessageQuery,
  testingNextMessageResponseSchema,
  testingNextWebhookQuery,
  testingNextWebhookResponseSchema,
  testingResetResponseSchema,
  testingTriggerInput,
  testingTriggerResponseSchema,
  type EventType,
  type TestingMessage,
  type TestingOutcome,
  type TestingWebhook,
} from '@remit/contract';
import { RemitError, type Ctx, type Merchant } from '@remit/core';
import { ok } from './envelope.js';
import { merchantForClientKey } from '../plugins/merchant.js';
import type { App } from './types.js';

/**
 * What the test kit (@remit/testing) lends the server for `/testing`: its forced outcomes, reset,
 * clock, webhook receiver, inbox and event trigger. Only the kit's sandboxes pass one to buildApp;
 * without it `/testing` does not exist (404), in `npm start`'s sandbox as in production.
 */
export interface TestingControls {
  /** The kit's own client: the only one the controls answer. */
  clientId(): string;
  /** Queues a forced outcome; answers the queue after it. */
  fail(outcome: TestingOutcome): TestingOutcome[];
  reset(): Promise<void>;
  /** An onboarded, approved merchant of the kit's credentials. */
  createMerchant(fields: {
    business_name?: string;
    email?: string;
  }): Promise<{ merchant_key: string; merchant_id: string; public_key: string }>;
  /** Moves the sandbox clock forward; answers its new time. */
  advance(ms: number): Promise<Date>;
  /** The next webhook not yet taken (of this type), or null when none came within timeoutMs or `signal` aborted. */
  nextWebhook(q: { type?: EventType; timeoutMs: number; signal: AbortSignal }): Promise<TestingWebhook | null>;
  /** The next SMS or email not yet taken (to this recipient, by this channel), or null as above. */
  nextMessage(q: {
    to?: string;
    channel?: 'sms' | 'email';
    timeoutMs: number;
    signal: AbortSignal;
  }): Promise<TestingMessage | null>;
  /** Records an event of this type with sample data about `merchant` (null: the kit's first, or a made-up one); the dispatcher signs and sends it. */
  trigger(
    type: EventType,
    merchant: { merchant: Merchant; merchantKey: string } | null,
  ): Promise<{ event_id: string; data: Record<string, unknown> }>;
}

const otherClient = errorEnvelopeSchema.describe("Credentials other than the sandbox's own");
const timedOut = errorEnvelopeSchema.describe('Nothing came within timeout_ms (wait_timed_out)');
const TAGS = ['Testing'];

/** A signal aborted when the caller hangs up, so a long-poll it left takes nothing. */
function hangUp(raw: { once(e: 'close', f: () => void): unknown }) {
  const ac = new AbortController();
  raw.once('close', () => ac.abort());
  return ac.signal;
}

export function testingRoutes(app: App, ctx: Ctx, controls: TestingControls) {
  app.addHook('preHandler', async (req) => {
    if (req.client.id !== controls.clientId()) throw new RemitError('not_sandbox_credentials');
  });
  const errors = { ...errorResponses, 403: otherClient };

  app.post(
    '/fail',
    {
      schema: {
        tags: TAGS,
        summary: 'Force the outcome of the next payment',
        description:
          'Queued: each call forces one more payment. decline, insufficient_funds, 3ds_failure, timeout (left processing) ' +
          'and ach_return (the next bank debit is returned).',
        body: testingFailInput,
        response: { 200: testingFailResponseSchema, ...errors },
      },
    },
    async (req) => {
      const queued = controls.fail(req.body.outcome);
      return ok(`The next payment: ${req.body.outcome}.`, { outcome: req.body.outcome, queued });
    },
  );

  app.post(
    '/reset',
    {
      schema: {
        tags: TAGS,
        summary: 'Empty the sandbox',
        description:
          'Merchants, payments, events, messages, the clock and forced outcomes; the credentials and the webhook receiver stay.',
        response: { 200: testingResetResponseSchema, ...errors },
      },
    },
    async () => {
      await controls.reset();
      return ok('The sandbox is empty; its credentials stay.', { client_id: controls.clientId() });
    },
  );

  app.post(
    '/merchants',
    {
      schema: {
        tags: TAGS,
        summary: 'Make a merchant, onboarded and approved',
        description: 'What remit-sandbox prints at start, again (after a reset, or a second merchant).',
        body: testingMerchantInput,
        response: { 200: testingMerchantResponseSchema, ...errors },
      },
    },
    async (req) => ok('Merchant onboarded and approved.', await controls.createMerchant(req.body)),
  );

  app.post(
    '/clock/advance',
    {
      schema: {
        tags: TAGS,
        summary: 'Move the sandbox clock forward',
        description:
          "by: '25h', '3d', '90m', '1d 2h' or milliseconds, at most ten years. Settlement, the 24-hour refund rule, " +
          'link expiry and retention follow it.',
        body: testingAdvanceInput,
        response: { 200: testingAdvanceResponseSchema, ...errors },
      },
    },
    async (req) => {
      const now = await controls.advance(req.body.by);
      return ok('Sandbox clock advanced.', { now: now.toISOString(), advanced_ms: req.body.by });
    },
  );

  app.get(
    '/webhooks/next',
    {
      schema: {
        tags: TAGS,
        summary: 'Wait for the next webhook',
        description:
          'Long-poll: the next event (of `type`) the kit received, signature checked, that no earlier call took; ' +
          `waits up to timeout_ms (default ${DEFAULT_WAIT_MS}), then 408.`,
        querystring: testingNextWebhookQuery,
        response: { 200: testingNextWebhookResponseSchema, ...errors, 408: timedOut },
      },
    },
    async (req) => {
      const timeoutMs = req.query.timeout_ms ?? DEFAULT_WAIT_MS;
      const got = await controls.nextWebhook({ type: req.query.type, timeoutMs, signal: hangUp(req.raw) });
      if (!got)
        throw new RemitError(
          'wait_timed_out',
          `No ${req.query.type ? `${req.query.type} ` : ''}webhook arrived within ${timeoutMs} ms.`,
        );
      return ok(`Webhook ${got.event_type}.`, got);
    },
  );

  app.get(
    '/messages/next',
    {
      schema: {
        tags: TAGS,
        summary: 'Wait for the next SMS or email',
        description:
          'Long-poll: the next message the sandbox kept (to `to`, by `channel`) that no earlier call took; ' +
          `waits up to timeout_ms (default ${DEFAULT_WAIT_MS}), then 408.`,
        querystring: testingNextMessageQuery,
        response: { 200: testingNextMessageResponseSchema, ...errors, 408: timedOut },
      },
    },
    async (req) => {
      const timeoutMs = req.query.timeout_ms ?? DEFAULT_WAIT_MS;
      const { to, channel } = req.query;
      const got = await controls.nextMessage({ to, channel, timeoutMs, signal: hangUp(req.raw) });
      if (!got)
        throw new RemitError(
          'wait_timed_out',
          `No ${channel === 'sms' ? 'SMS' : channel === 'email' ? 'email' : 'message'}${to ? ` to ${to}` : ''} arrived within ${timeoutMs} ms.`,
        );
      return ok(`Message ${got.id}.`, got);
    },
  );

  app.post(
    '/trigger',
    {
      schema: {
        tags: TAGS,
        summary: 'Send an event now',
        description:
          "Any event type of docs/webhooks.md, with sample data about the merchant of merchant_key (else the sandbox's first " +
          'merchant, else a made-up one), signed and sent to the webhook URL of these credentials.',
        body: testingTriggerInput,
        response: { 200: testingTriggerResponseSchema, ...errors },
      },
    },
    async (req) => {
      const key = req.body.merchant_key;
      const merchant = key ? { merchant: await merchantForClientKey(ctx, req.client, key), merchantKey: key } : null;
      const sent = await controls.trigger(req.body.event_type, merchant);
      return ok(`Event ${req.body.event_type} queued for the webhook URL.`, {
        event_id: sent.event_id,
        event_type: req.body.event_type,
        data: sent.data,
      });
    },
  );
}
