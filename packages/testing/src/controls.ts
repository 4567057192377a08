import type { TestingControls } from '@remit/server/embed';
import type { Core } from '@remit/core';
import type { SandboxMessage } from './inbox.js';
import type { ForcedOutcome } from './outcomes.js';
import { triggerEvent } from './trigger.js';
import { webhookView, type ReceivedWebhook } from './webhook-receiver.js';

/** What the controls reach of one sandbox (sandbox.ts), read when a request comes. */
export interface ControlTarget {
  core: Core;
  clientId: string;
  /** merchant id → merchant_key of the merchants the kit made. */
  merchantKeys: Map<string, string>;
  fail(next: ForcedOutcome): void;
  queued(): ForcedOutcome[];
  reset(): Promise<void>;
  createMerchant(fields: {
    business_name?: string;
    email?: string;
  }): Promise<{ merchantKey: string; merchantId: string; publicKey: string }>;
  advance(ms: number): Promise<Date>;
  takeWebhook(type: string | undefined, timeoutMs: number, signal: AbortSignal): Promise<ReceivedWebhook | null>;
  takeMessage(
    q: { to?: string; channel?: 'sms' | 'email' },
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<SandboxMessage | null>;
}

/**
 * The kit's side of `/testing` (apps/server's routes/testing.ts): the sandbox's own API, over
 * HTTP. `target` is read at each call (the server is built before the sandbox is complete);
 * `closing` ends every long-poll when the sandbox stops.
 */
export function sandboxControls(target: () => ControlTarget, closing: AbortSignal): TestingControls {
  const either = (signal: AbortSignal) => AbortSignal.any([signal, closing]);
  return {
    clientId: () => target().clientId,
    fail(outcome) {
      target().fail(outcome);
      return target().queued();
    },
    reset: () => target().reset(),
    async createMerchant(fields) {
      const m = await target().createMerchant(fields);
      return { merchant_key: m.merchantKey, merchant_id: m.merchantId, public_key: m.publicKey };
    },
    advance: (ms) => target().advance(ms),
    async nextWebhook({ type, timeoutMs, signal }) {
      const got = await target().takeWebhook(type, timeoutMs, either(signal));
      return got && webhookView(got);
    },
    async nextMessage({ to, channel, timeoutMs, signal }) {
      const m = await target().takeMessage({ to, channel }, timeoutMs, either(signal));
      return (
        m && {
          id: m.id,
          channel: m.channel,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          links: m.links,
          pay_link_id: m.payLinkId,
          merchant_id: m.merchantId,
          created_at: m.createdAt.toISOString(),
        }
      );
    },
    trigger(type, merchant) {
      const t = target();
      return triggerEvent(t.core, t.clientId, type, merchant, t.merchantKeys);
    },
  };
}
