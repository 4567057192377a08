import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhooks.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({
  event_type: 'payment.success',
  data: { amount: 12.3 },
  id: 'evt_1',
  created_at: '2026-01-01T00:00:00.000Z',
});

function signed(at = new Date(), id = 'evt_1', payload = body) {
  const sig = new Webhook(secret).sign(id, at, payload);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': sig };
}

describe('verifyWebhook', () => {
  it('accepts what the standardwebhooks library signs and returns the parsed event', () => {
    expect(verifyWebhook(secret, signed(), body)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, signed(), Buffer.from(body)).event_type).toBe('payment.success');
  });

  it('reads headers from a fetch Headers object and in any case', () => {
    expect(verifyWebhook(secret, new Headers(signed()), body).id).toBe('evt_1');
    const upper = Object.fromEntries(Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(secret, upper, body).id).toBe('evt_1');
  });

  it('accepts any one of several space-separated signatures', () => {
    const h = signed();
    h['webhook-signature'] = `v1,AAAA ${h['webhook-signature']}`;
    expect(verifyWebhook(secret, h, body).id).toBe('evt_1');
  });

  it.each([
    ['a changed body', () => [signed(), body.replace('12.3', '12.4')]],
    ['another id', () => [{ ...signed(), 'webhook-id': 'evt_2' }, body]],
    ['another secret', () => [signed(), body, 'whsec_' + Buffer.alloc(24, 1).toString('base64')]],
    ['a missing signature', () => [{ ...signed(), 'webhook-signature': undefined }, body]],
    ['an old timestamp', () => [signed(new Date(Date.now() - 10 * 60_000)), body]],
    ['a future timestamp', () => [signed(new Date(Date.now() + 10 * 60_000)), body]],
    [
      'a non-v1 scheme',
      () => [{ ...signed(), 'webhook-signature': signed()['webhook-signature'].replace('v1,', 'v2,') }, body],
    ],
  ])('throws WebhookVerificationError for %s', (_n, make) => {
    const [headers, b, s] = make() as [Record<string, string | undefined>, string, string?];
    expect(() => verifyWebhook(s ?? secret, headers, b)).toThrow(WebhookVerificationError);
  });
});
