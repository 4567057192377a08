import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { describe, expect, it } from 'vitest';
import { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from './index.js';

describe('@remit/vue on the server (createSSRApp, no window)', () => {
  it('renders the buttons and the table placeholder, loads nothing, throws nothing', async () => {
    expect(typeof window).toBe('undefined');
    const app = createSSRApp({
      render: () => [
        h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: '12.30' }, () => 'Pay $12.30'),
        h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 5, phone_number: '4155550123' }),
        h(CompletedTransactions, { clientKey: 'pk_test_abc' }),
      ],
    });
    expect(await renderToString(app)).toBe(
      '<!--[--><button type="button">Pay $12.30</button><button type="button">Request payment</button><div data-remit-widget="completed-transactions"></div><!--]-->',
    );
  });
});
