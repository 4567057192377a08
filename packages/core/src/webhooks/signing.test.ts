import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newKey } from '../secret-keys.js';
import { signWebhook, webhookHeaders, webhookSigner } from './signing.js';

describe('Standard Webhooks signing', () => {
  it('matches the standardwebhooks library byte for byte', () => {
    const secret = newKey.webhookSecret();
    const at = new Date('2026-03-04T05:06:07.000Z');
    const body = '{"event_type":"preauth","data":{"amount":1}}';
    expect(signWebhook(secret, 'evt_x', Math.floor(at.getTime() / 1000), body)).toBe(
      new Webhook(secret).sign('evt_x', at, body),
    );
  });

  it('makes headers the library verifies', () => {
    const secret = newKey.webhookSecret();
    const body = '{"event_type":"payment.void","data":{}}';
    const headers = webhookHeaders(secret, 'evt_y', body, new Date());
    expect(Object.keys(headers)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('a signer made once signs as webhookHeaders does, attempt after attempt', () => {
    const secret = newKey.webhookSecret();
    const sign = webhookSigner(secret);
    const at = new Date('2026-03-04T05:06:07.000Z');
    for (const body of ['{"a":1}', '{"a":2}']) {
      expect(sign('evt_z', body, at)).toEqual(webhookHeaders(secret, 'evt_z', body, at));
      expect(new Webhook(secret).verify(body, sign('evt_z', body, new Date()))).toEqual(JSON.parse(body));
    }
    expect(sign('evt_z', '{"a":1}', at)['webhook-signature']).not.toBe(
      webhookSigner(newKey.webhookSecret())('evt_z', '{"a":1}', at)['webhook-signature'],
    );
  });

  it('with a previous secret (during an overlap): two signatures, new first, and either secret verifies', () => {
    const [fresh, old, other] = [newKey.webhookSecret(), newKey.webhookSecret(), newKey.webhookSecret()];
    const body = '{"event_type":"payment.void","data":{}}';
    const at = new Date();
    const headers = webhookSigner(fresh, old)('evt_r', body, at);
    const ts = Math.floor(at.getTime() / 1000);
    expect(headers['webhook-signature']).toBe(
      `${signWebhook(fresh, 'evt_r', ts, body)} ${signWebhook(old, 'evt_r', ts, body)}`,
    );
    expect(new Webhook(fresh).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(old).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(webhookSigner(fresh, null)('evt_r', body, at)).toEqual(webhookHeaders(fresh, 'evt_r', body, at));
  });
});
