import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import { nothingDue, type MerchantWithKey } from '@remit/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';

const shop = (id: string, businessname: string) =>
  ({
    merchant_id: id,
    businessname,
    status: 'approved',
    merchant_key: `mk_${id}`,
    public_data: { public_key: `pk_${id}` },
    join_date: '2026-01-02T03:04:05.000Z',
    verification: { status: 'complete', ...nothingDue(), charges_enabled: true, payouts_enabled: true },
  }) as unknown as MerchantWithKey;
const signedIn = { client_id: 'cl_abcdefghijklmnopqrst', csrf_token: 't' };
vi.mock('./api.js', () => ({
  api: {
    session: async () => ({ ok: true, data: signedIn }),
    merchants: async () => ({
      ok: true,
      data: { merchants: [shop('m1', 'Old Shop'), shop('m2', 'Ada Coffee Roasters')] },
    }),
    webhook: async () => ({
      ok: true,
      data: { webhook_url: 'https://hooks.example/remit', signing_secret: 'whsec_abc', disabled: false },
    }),
    deliveries: async () => ({ ok: true, data: { deliveries: [], totalCount: 0 } }),
    messages: async () => ({ ok: true, data: { messages: [] } }),
  },
  setCsrfToken: () => {},
  whenSignedOut: () => {},
}));
const { App } = await import('./app.js');
const { view } = await import('./router.js');
const { merchants } = await import('./state.js');

describe('the merchant picker', () => {
  afterEach(cleanup);

  it('is not on the webhooks view: the URL, the secret and the deliveries are the client’s', async () => {
    view.value = 'webhooks';
    render(<App />);
    await screen.findByText('whsec_abc');
    await screen.findByText(/^No deliveries yet/);
    await waitFor(() => expect(merchants.value).toHaveLength(2));
    expect(screen.queryByLabelText('Merchant')).toBeNull();
    expect(screen.getByText(/^One URL and signing secret for your client/).textContent).toBe(
      'One URL and signing secret for your client: the events of all your merchants are sent here.',
    );
  });

  it('is on a view of one merchant, such as the inbox', async () => {
    view.value = 'inbox';
    render(<App />);
    const picker = (await screen.findByLabelText('Merchant')) as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual([
      'Old Shop (approved)',
      'Ada Coffee Roasters (approved)',
    ]);
  });
});
