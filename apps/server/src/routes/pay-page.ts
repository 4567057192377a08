import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml as e, formatDollars, payPageView, type Ctx, type PayPageView } from '@remit/core';
import type { App } from './types.js';

/**
 * `GET /pay/{linkId}`: the public page behind a pay link, rendered on the server. It shows what
 * the customer pays and for whom; the interactive pay page replaces it later.
 */

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f5f6f8;color:#1a1a1a;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.25rem;margin:0 0 .25rem}
.total{font-size:2rem;font-weight:600;margin:.75rem 0 1rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}
td{padding:.35rem 0;border-bottom:1px solid #eee}
td:last-child{text-align:right}
.muted{color:#555;font-size:.9rem}
.notice{background:#fff7e0;border:1px solid #f0d78c;border-radius:8px;padding:.75rem;margin:1rem 0}
`;

/**
 * Only this stylesheet applies: no scripts, no outside resources, no form posts. No frame-ancestors:
 * the pay modal frames this page on merchants' sites.
 */
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function linkPage(v: PayPageView): string {
  const t = v.totals;
  const lines: Array<[string, string]> = [['Amount', formatDollars(t.amount)]];
  if (t.tax) lines.push(['Tax', formatDollars(t.tax)]);
  if (t.surcharge) lines.push(['Surcharge', formatDollars(t.surcharge)]);
  if (t.discount) lines.push(['Discount', `-${formatDollars(t.discount)}`]);
  if (t.passedFee) lines.push(['Processing fee', formatDollars(t.passedFee)]);
  // The itemized table only when there is more than the amount to show.
  lines.push(['Total', formatDollars(t.total)]);
  const methods = [v.allowCard ? 'card' : null, v.allowAch ? 'bank account (ACH)' : null].filter(Boolean).join(' or ');
  const notice =
    v.state === 'paid'
      ? '<p class="notice">This link has already been paid.</p>'
      : v.merchantPending
        ? '<p class="notice">This merchant cannot accept payments yet.</p>'
        : '';
  return page(
    `${v.preauth ? 'Authorize' : 'Pay'} ${formatDollars(t.total)} to ${v.businessName}`,
    `<h1>${e(v.businessName)}</h1>
<p class="muted">${v.preauth ? 'Authorization request' : 'Payment request'}</p>
<p class="total">${e(formatDollars(t.total))}</p>
${v.description ? `<p>${e(v.description)}</p>` : ''}
${lines.length > 2 ? `<table>\n${lines.map(([k, val]) => `<tr><td>${e(k)}</td><td>${e(val)}</td></tr>`).join('\n')}\n</table>` : ''}
<p class="muted">Order: ${e(v.orderId)}${v.invoiceNumber ? ` · Invoice: ${e(v.invoiceNumber)}` : ''}</p>
<p class="muted">Pay by ${e(methods)}.</p>
${notice}`,
  );
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(html);
}

export function payPageRoutes(app: App, ctx: Ctx) {
  app.get<{ Params: { linkId: string } }>(
    '/pay/:linkId',
    { config: { public: true }, schema: { hide: true } },
    async (req, reply) => {
      const view = await payPageView(ctx, req.params.linkId);
      if (!view.found) {
        return send(reply, 404, page('Link not found', '<h1>Link not found</h1>\n<p>Check the address you were sent.</p>'));
      }
      if (view.deleted) {
        return send(
          reply,
          410,
          page('Link no longer available', '<h1>This link is no longer available</h1>\n<p>The merchant has cancelled it.</p>'),
        );
      }
      return send(reply, 200, linkPage(view));
    },
  );
}
