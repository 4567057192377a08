import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { nothingDue, type MerchantWithKey } from '@remit/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';

const m = (id: string, businessname: string, status: string, verification: object = {}) =>
  ({
    merchant_id: id,
    businessname,
    status,
    merchant_key: `mk_${id}`,
    public_data: { public_key: `pk_${id}` },
    join_date: '2026-01-02T03:04:05.000Z',
    verification: {
      status: status === 'approved' ? 'complete' : 'pending_review',
      ...nothingDue(),
      charges_enabled: status === 'approved',
      payouts_enabled: status === 'approved',
      ...verification,
    },
  }) as unknown as MerchantWithKey;
const DOC = { requirement: 'individual.verification.document', label: 'Identity document of the owner' };
const list = [
  m('m1', 'Old Shop', 'approved'),
  m('m2', 'Ada Coffee Roasters', 'pending'),
  m('m3', 'Held Goods', 'approved', {
    status: 'restricted',
    charges_enabled: false,
    disabled_reason: 'requirements.past_due',
    past_due: [DOC],
    currently_due: [DOC],
    errors: [{ ...DOC, code: 'verification_document_expired', reason: 'The document has expired.' }],
  }),
];
vi.mock('./api.js', () => ({
  api: {
    merchants: async () => ({ ok: true, data: { merchants: list } }),
    approve: async (id: string) => ({
      ok: true,
      data: { merchant: { ...list.find((x) => x.merchant_id === id)!, status: 'approved' } },
    }),
  },
}));
const { MerchantsView } = await import('./merchants-view.js');
const { merchant } = await import('./state.js');
const { view } = await import('./router.js');

describe('the merchants view', () => {
  afterEach(cleanup);

  it('after Approve, says what to do next and links to the pay link and the snippets', async () => {
    render(<MerchantsView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Ada Coffee Roasters' }));
    await waitFor(() => expect(document.querySelector('.next')).not.toBeNull());
    expect(document.querySelector('.next')!.textContent).toBe(
      'Ada Coffee Roasters approved. Next: take a test payment. Make a pay link and pay it with the test card 4242 4242 4242 4242, or copy a snippet to put a pay button on your page.',
    );
    // The next step is for the merchant just approved.
    expect(merchant.value?.merchant_id).toBe('m2');
    expect(screen.getByRole('link', { name: 'copy a snippet' }).getAttribute('href')).toBe('/portal/snippets');
    const payLink = screen.getByRole('link', { name: 'Make a pay link' });
    expect(payLink.getAttribute('href')).toBe('/portal/transactions');
    fireEvent.click(payLink);
    expect(view.value).toBe('transactions');
    expect(location.pathname).toBe('/portal/transactions');
  });

  it('shows each merchant’s verification: status, what is needed, what was refused and why, charges and payouts', async () => {
    render(<MerchantsView />);
    const held = (await screen.findByRole('heading', { name: 'Held Goods' })).closest('li')!;
    const facts = [...held.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]);
    expect(facts.slice(-4)).toEqual([
      ['Verification', 'Restricted: payments paused requirements.past_due'],
      ['Needed', 'Identity document of the owner individual.verification.document'],
      ['Refused', 'Identity document of the owner: The document has expired. verification_document_expired'],
      ['Charges, payouts', 'Charges off, payouts on'],
    ]);
    const ok = screen.getByRole('heading', { name: 'Old Shop' }).closest('li')!;
    expect(ok.querySelector('.badge--approved + dd, dd .badge')?.textContent).toBe('Complete');
  });

  it('shows no next step before anything is approved', async () => {
    render(<MerchantsView />);
    await screen.findByRole('button', { name: 'Approve Ada Coffee Roasters' });
    expect(document.querySelector('.next')).toBeNull();
  });
});
