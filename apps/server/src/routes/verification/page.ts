import type { Requirement, Verification } from '@remit/contract';
import { escapeHtml, type VerificationPageView } from '@remit/core';
import { ownerPage } from '../agreement/page.js';

/**
 * The verification pages (`/verify/{token}`): what the processor still needs from the business,
 * in plain words with Stripe's names beside them. Plain HTML, no script, the agreement page's
 * stylesheet and CSP.
 */

const SUMMARY: Record<Verification['status'], string> = {
  action_required: 'Some information is still needed before the deadline.',
  pending_review: 'Nothing more is needed from you for now: Stripe is reviewing what was sent.',
  complete: 'Verification is complete: the business can take payments.',
  restricted: 'Payments are paused until the information below is sent.',
  rejected: 'The payment processor has declined this account. Contact the platform.',
};

const TITLE: Record<Verification['status'], string> = {
  action_required: 'Information needed',
  pending_review: 'Stripe is reviewing',
  complete: 'Verification complete',
  restricted: 'Payments paused',
  rejected: 'Account declined',
};

const list = (heading: string, items: Requirement[]) =>
  items.length === 0
    ? ''
    : `<h2>${escapeHtml(heading)}</h2>
<ul>
${items.map((i) => `<li>${escapeHtml(i.label)} <small>(<code>${escapeHtml(i.requirement)}</code>)</small></li>`).join('\n')}
</ul>`;

export function verificationPage(view: VerificationPageView, opts: { action?: string; returned?: boolean } = {}) {
  const v = view.verification;
  const business = escapeHtml(view.business_name);
  const deadline = v.deadline
    ? `<p>Send it by <time datetime="${escapeHtml(v.deadline)}">${escapeHtml(new Date(v.deadline).toUTCString())}</time>.</p>`
    : '';
  const errors =
    v.errors.length === 0
      ? ''
      : `<h2>Sent but not accepted</h2>
<ul>
${v.errors.map((e) => `<li>${escapeHtml(e.label)}: ${escapeHtml(e.reason)} <small>(<code>${escapeHtml(e.code)}</code>)</small></li>`).join('\n')}
</ul>`;
  const due = [...new Map([...v.past_due, ...v.currently_due].map((i) => [i.requirement, i])).values()];
  const form =
    opts.action && view.can_submit && due.length > 0
      ? `<form method="post" action="${escapeHtml(opts.action)}">
<p>Sandbox: no real documents are asked for. Submitting sends everything listed as if the business had.</p>
<button type="submit">Submit the information</button>
</form>`
      : '';
  const next = view.return_url
    ? `<p><a href="${escapeHtml(view.return_url)}" rel="noreferrer">Continue</a></p>`
    : '<p>You can close this page.</p>';
  return ownerPage(
    `${TITLE[v.status]} – ${view.business_name}`,
    `<h1>${escapeHtml(TITLE[v.status])}</h1>
<p class="lede">For ${business}</p>
<p role="status" class="${v.status === 'complete' ? 'signed' : ''}">${escapeHtml(SUMMARY[v.status])}</p>
${errors}
${list('Needed now', due)}
${deadline}
${list('Being verified', v.pending_verification)}
${list(
  'Needed later',
  v.eventually_due.filter((i) => !due.some((d) => d.requirement === i.requirement)),
)}
${form}
${opts.returned || !form ? next : ''}`,
  );
}
