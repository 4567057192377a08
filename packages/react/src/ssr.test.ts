import { createElement as h, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from './index.js';

describe('@remit/react on the server (no window)', () => {
  it('renders the buttons and the table placeholder, loads nothing, throws nothing', () => {
    expect(typeof window).toBe('undefined');
    const html = renderToString(
      h(
        StrictMode,
        null,
        h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: '12.30' }, 'Pay $12.30'),
        h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 5, phone_number: '4155550123' }),
        h(CompletedTransactions, { clientKey: 'pk_test_abc' }),
      ),
    );
    expect(html).toBe(
      '<button type="button">Pay $12.30</button><button type="button">Request payment</button><div data-remit-widget="completed-transactions"></div>',
    );
  });
});
