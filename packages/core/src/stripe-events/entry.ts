import type Stripe from 'stripe';
import { invalid } from '../errors.js';

/**
 * The entry of `POST /stripe/webhooks`: a body whose signature verifies, dated within the tolerance
 * on either side of our clock, that is an event of the shape the handlers read. Anything else is a
 * 400 (`invalid_request`) naming why, before any state is touched.
 */

/** How far a signature's time may be from ours, either way, in seconds (Stripe's default tolerance). */
export const STRIPE_SIGNATURE_TOLERANCE_S = 300;

/** The Stripe object each handled event type carries (`data.object.object`). */
const OBJECT_OF: Record<string, string> = {
  'payment_intent.succeeded': 'payment_intent',
  'payment_intent.amount_capturable_updated': 'payment_intent',
  'payment_intent.payment_failed': 'payment_intent',
  'charge.failed': 'charge',
  'account.updated': 'account',
  'charge.dispute.created': 'dispute',
  'charge.dispute.updated': 'dispute',
  'charge.dispute.closed': 'dispute',
};

export function verifiedStripeEvent(
  stripe: Stripe,
  secret: string,
  rawBody: string,
  signature: string | undefined,
  nowMs: number,
): Stripe.Event {
  let parsed: unknown;
  try {
    parsed = stripe.webhooks.constructEvent(
      rawBody,
      signature ?? '',
      secret,
      STRIPE_SIGNATURE_TOLERANCE_S,
      undefined,
      nowMs,
    );
  } catch (e) {
    // The SDK verifies, then parses: a signed body that is not JSON fails here too.
    if (e instanceof SyntaxError) throw notAnEvent('it is not JSON');
    throw invalid('invalid_request', `Stripe-Signature does not verify: ${signatureProblem((e as Error).message)}`);
  }
  // The SDK bounds only the past: a signature dated ahead of our clock would be good until then.
  if (signedAt(signature ?? '') - Math.floor(nowMs / 1000) > STRIPE_SIGNATURE_TOLERANCE_S) {
    throw invalid(
      'invalid_request',
      `Stripe-Signature does not verify: its timestamp is more than ${STRIPE_SIGNATURE_TOLERANCE_S} s ahead of this server's clock`,
    );
  }
  const why = shapeProblem(parsed);
  if (why) throw notAnEvent(why);
  return parsed as Stripe.Event;
}

/**
 * The SDK's refusal in one line: what is wrong, not its advice paragraph (raw bodies, framework
 * guides, links), which is for the integrator of a webhook endpoint, not for Stripe or the operator.
 */
function signatureProblem(sdkMessage: string): string {
  if (sdkMessage.startsWith('No signatures found matching'))
    return 'no v1 signature matches this body under the configured STRIPE_WEBHOOK_SECRET';
  if (sdkMessage.startsWith('Timestamp outside the tolerance zone'))
    return `its timestamp is more than ${STRIPE_SIGNATURE_TOLERANCE_S} s behind this server's clock`;
  if (sdkMessage.startsWith('No stripe-signature header')) return 'the header is missing';
  if (sdkMessage.startsWith('Unable to extract') || sdkMessage.startsWith('No signatures found with expected scheme'))
    return "the header is not Stripe's t=…,v1=… form";
  return sdkMessage.split(/\n|(?<=\.)\s/)[0]!.replace(/\.$/, '');
}

const notAnEvent = (why: string) => invalid('invalid_request', `The signed body is not a Stripe event: ${why}.`);

/** The `t=` of a Stripe-Signature, read as the SDK reads it (the last one, as an integer). */
function signedAt(header: string): number {
  let t = -1;
  for (const item of header.split(',')) {
    const [k, v] = item.split('=');
    if (k === 't') t = parseInt(v ?? '', 10);
  }
  return t;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => typeof v === 'string' && v !== '';

/** What is wrong with an event's shape, in a few words; null when the handlers can read it. */
function shapeProblem(e: unknown): string | null {
  if (!isRecord(e))
    return `it is ${e === null ? 'null' : Array.isArray(e) ? 'a list' : `a ${typeof e}`}, not an object`;
  if (!text(e.id)) return 'it has no id';
  if (!text(e.type)) return 'it has no type';
  if (typeof e.created !== 'number') return 'it has no created time';
  if (!isRecord(e.data) || !isRecord(e.data.object)) return 'its data.object is not an object';
  const object = e.data.object;
  if (!text(object.id)) return 'its data.object has no id';
  const want = OBJECT_OF[e.type as string];
  if (want && object.object !== want)
    return `a ${e.type as string} event carries a ${want}, not ${text(object.object) ? String(object.object) : 'this object'}`;
  return null;
}
