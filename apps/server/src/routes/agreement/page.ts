import { createHash } from 'node:crypto';
import { escapeHtml, type AgreementView } from '@remit/core';

/**
 * The merchant agreement page: plain HTML from the server, no script at all, so it works by
 * keyboard and without JavaScript, and its CSP allows nothing but its own stylesheet (by hash)
 * and a form post to itself. Errors follow the GOV.UK pattern: a summary at the top linked to
 * the field, the field's own message tied to it.
 */

/** Stripe's Connected Account Agreement, which a Custom account's owner must accept through us. */
export const STRIPE_CONNECTED_ACCOUNT_AGREEMENT = 'https://stripe.com/connect-account/legal';
export const STRIPE_SERVICES_AGREEMENT = 'https://stripe.com/legal/ssa';

const CSS = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1a1a1a;background:#f6f7f9}
body{margin:0}
main{max-width:42rem;margin:0 auto;padding:1.5rem 1rem 3rem;background:#fff;min-height:100vh;box-sizing:border-box}
h1{font-size:1.6rem;margin:0 0 .25rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.lede{margin:0 0 1rem;color:#404040}
ol{padding-left:1.4rem}
li{margin:.35rem 0}
a{color:#0b57d0}
a:focus,button:focus,input:focus,.error-summary:focus{outline:3px solid #1a1a1a;outline-offset:2px}
.error-summary{border:4px solid #b3261e;padding:1rem;margin:1rem 0}
.error-summary h2{margin-top:0}
.error-summary a{color:#b3261e;font-weight:600}
.field{margin:1.5rem 0 1rem;display:flex;gap:.75rem;align-items:flex-start;flex-wrap:wrap}
.field-error{border-left:4px solid #b3261e;padding-left:.75rem}
.error{color:#b3261e;font-weight:600;margin:0;flex-basis:100%}
input[type=checkbox]{width:1.5rem;height:1.5rem;margin:0;flex:none}
label{flex:1 1 16rem}
button{font:inherit;font-weight:600;min-height:2.75rem;padding:.5rem 1.25rem;border:0;border-radius:.375rem;background:#0b57d0;color:#fff;cursor:pointer}
button:hover{background:#0842a0}
.signed{border-left:4px solid #146c2e;padding:.5rem 1rem;background:#e6f4ea}
`;

/** The page's stylesheet, allowed by its hash alone (no style attribute, no other origin). */
export const AGREEMENT_STYLE_HASH = `sha256-${createHash('sha256').update(CSS).digest('base64')}`;

export const agreementCsp = () =>
  [
    "default-src 'none'",
    `style-src '${AGREEMENT_STYLE_HASH}'`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** A page of the owner's hosted pages (the agreement, verification): this stylesheet, no script. */
export const ownerPage = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

/** What the merchant agrees to with us; Stripe's own agreement is added with the Stripe connector. */
const TERMS = [
  'You will take payments only for the goods and services your onboarding submission describes, and tell us before that changes.',
  'Our fee for each payment is kept back from it; what you receive is the net amount shown for each transaction.',
  'Refunds are paid from your balance; our fee on a refunded payment is not returned. A voided payment carries no fee.',
  'Disputes (chargebacks) raised by cardholders are yours to answer; a dispute you lose is taken from your balance.',
  'You will keep the customer data you receive safe and never ask customers for card numbers outside the hosted pay page.',
  'Either party may end this agreement with notice; payments already taken are settled under it.',
];

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}" rel="noreferrer">${escapeHtml(text)}</a>`;

export interface AgreementPageState {
  view: AgreementView;
  /** The address the form posts to. */
  action: string;
  /** The acceptance box was not ticked. */
  error?: string;
}

export function agreementPage({ view, action, error }: AgreementPageState): string {
  const business = escapeHtml(view.business_name);
  const stripe = view.stripe
    ? `<h2 id="stripe">Stripe's agreement</h2>
<p>Payment processing services for ${business} are provided by Stripe and are subject to the ${link(STRIPE_CONNECTED_ACCOUNT_AGREEMENT, 'Stripe Connected Account Agreement')}, which includes the ${link(STRIPE_SERVICES_AGREEMENT, 'Stripe Terms of Service')} (together, the "Stripe Services Agreement"). By accepting, you agree to be bound by the Stripe Services Agreement, as it may be modified by Stripe from time to time. As a condition of our enabling payment processing services through Stripe, you agree to provide us accurate and complete information about you and your business, and you authorize us to share it and transaction information related to your use of the payment processing services provided by Stripe.</p>`
    : '';
  const terms = `<h2 id="terms">Terms</h2>
<ol>
${TERMS.map((t) => `<li>${escapeHtml(t)}</li>`).join('\n')}
</ol>
${stripe}`;
  if (view.signed_at) {
    const when = new Date(view.signed_at).toUTCString();
    return ownerPage(
      `Agreement accepted – ${view.business_name}`,
      `<h1>Agreement accepted</h1>
<p class="lede">For ${business}</p>
<p class="signed" role="status">Accepted on <time datetime="${escapeHtml(view.signed_at)}">${escapeHtml(when)}</time>. Nothing more is needed; you can close this page.</p>
${terms}`,
    );
  }
  const summary = error
    ? `<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
<h2 id="error-summary-title">There is a problem</h2>
<ul><li><a href="#accept">${escapeHtml(error)}</a></li></ul>
</div>`
    : '';
  const described = error ? ' aria-invalid="true" aria-describedby="accept-error"' : '';
  const what = view.stripe
    ? 'the merchant agreement and the Stripe Connected Account Agreement'
    : 'the merchant agreement';
  return ownerPage(
    `${error ? 'Error: ' : ''}Merchant agreement – ${view.business_name}`,
    `<h1>Merchant agreement</h1>
<p class="lede">For ${business}. Read the terms below, then accept them as the business's owner.</p>
${summary}
${terms}
<form method="post" action="${escapeHtml(action)}" novalidate>
<div class="field${error ? ' field-error' : ''}">
${error ? `<p class="error" id="accept-error">Error: ${escapeHtml(error)}</p>` : ''}
<input type="checkbox" id="accept" name="accept" value="yes"${described}>
<label for="accept">I have read and accept ${what} on behalf of ${business}.</label>
</div>
<button type="submit">Accept the agreement</button>
</form>`,
  );
}

/** A page that is not the agreement: an unknown link, or Stripe could not be reached. */
export function agreementProblemPage(title: string, message: string): string {
  return ownerPage(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>`);
}
