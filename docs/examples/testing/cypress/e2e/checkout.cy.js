// The customer pays a Remit pay link with the approved test card (labels as a person reads them).
describe('checkout', () => {
  it('pays a link', () => {
    const { url, credentials, merchant } = Cypress.env('remit');
    cy.request({
      method: 'POST',
      url: `${url}/api/v1/pay-link`,
      auth: { username: credentials.clientId, password: credentials.secretKey },
      body: { merchant_key: merchant.merchantKey, amount: '19.99', order_id: 'cy-1' },
    }).then(({ body }) => {
      cy.visit(body.data.payment_link);
      cy.contains('label', 'Card number').click().type('4242424242424242');
      cy.contains('label', 'Expiry date').click().type('12 / 30');
      cy.contains('label', 'Security code').click().type('123');
      cy.contains('label', 'Name on card').click().type('Ada Lovelace');
      cy.contains('label', 'ZIP code').click().type('94105');
      cy.contains('button', 'Pay $19.99').click();
      cy.contains('h1, h2', 'Payment successful');
    });
  });
});
