import type { CspReport, EmbedPolicy } from '@remit/contract';

/** The operator of this Remit server, who gives the confirmation as the merchant's provider. */
export interface Operator {
  /** REMIT_OPERATOR_NAME. */
  name?: string;
  /** REMIT_OPERATOR_CONTACT: an address or email for questions about it. */
  contact?: string;
}

export interface SaqAInput {
  merchant: { id: string; businessname: string; website: string };
  policy: EmbedPolicy;
  /** The widget settings' allowed origins; empty: none set (any origin in sandbox, none in production). */
  allowedOrigins: readonly string[];
  /** Violations reported in the last `days` days, newest first. */
  reports: readonly CspReport[];
  days: number;
  operator: Operator;
  /** When the document was made. */
  date: Date;
}

/** One part of the document, written once and rendered as Markdown or as HTML. */
type Block =
  | { h: 1 | 2; text: string }
  | { p: string }
  | { code: string }
  | { list: string[]; ordered?: boolean }
  | { table: string[][] };

const OPERATOR_UNSET = '(the operator of this Remit server: set REMIT_OPERATOR_NAME)';

function blocks(d: SaqAInput): Block[] {
  const operator = d.operator.name || OPERATOR_UNSET;
  const contact = d.operator.contact ? ` (${d.operator.contact})` : '';
  const date = d.date.toISOString().slice(0, 10);
  const remitBlocked = d.reports.filter((r) => r.remit_resource).length;
  return [
    { h: 1, text: `SAQ A: script security of ${d.merchant.businessname}'s payment page` },
    {
      table: [
        ['Merchant', `${d.merchant.businessname} (${d.merchant.id})`],
        ['Website', d.merchant.website || '(none given)'],
        ['Provider', `${operator}${contact}`],
        ['Date', date],
      ],
    },
    { h: 2, text: 'What SAQ A asks' },
    {
      p:
        'PCI DSS v4.0.1 SAQ A (January 2025 revision), an eligibility criterion for e-commerce merchants: the merchant ' +
        '"has confirmed that their site is not susceptible to attacks from scripts that could affect the merchant\'s ' +
        'e-commerce system(s)". PCI SSC FAQ 1588: a merchant that embeds a provider\'s payment page meets it either by ' +
        'applying requirements 6.4.3 and 11.6.1 to its own page, or with written confirmation from its PCI DSS ' +
        "compliant provider that the provider's solution, implemented as instructed, protects the page.",
    },
    { h: 2, text: "The provider's confirmation" },
    {
      p:
        `${operator}${contact}, as the provider of the payment page and widgets this merchant embeds, confirms that ` +
        "its solution, when the merchant implements it exactly as instructed below, protects the merchant's payment " +
        "page from attacks by scripts that could affect the merchant's e-commerce system: every script the page " +
        "loads from the provider is pinned by its integrity hash, the page's Content-Security-Policy allows scripts " +
        "only from the merchant's own origin and the provider's, and the provider collects the page's policy " +
        'violations and reports them to the merchant. The confirmation holds only while every instruction is followed.',
    },
    { h: 2, text: 'The instructions it is conditional on' },
    {
      ordered: true,
      list: [
        'Load the widgets with exactly this script tag, integrity and crossorigin included:',
        'Serve every page that embeds the widgets with exactly this Content-Security-Policy header (it may be made stricter, never looser):',
        'Keep the payment frame as the loader makes it, with allow="payment"; frame a pay link yourself only with allow="payment".',
        "Load no other script into the payment frame's path: no script of another party on the page that opens it, no script added into or around the frame, no browser extension or tag manager that injects scripts on it.",
        'Watch the violations the page reports (GET /merchant/csp-reports, the merchant.csp_violation webhook) and act on each.',
      ],
    },
    { p: 'The script tag:' },
    { code: d.policy.script_tag },
    { p: `Its integrity: ${d.policy.integrity}` },
    { p: 'The Content-Security-Policy:' },
    { code: d.policy.csp },
    { p: `Violation reports go to ${d.policy.report_uri}.` },
    { h: 2, text: "The merchant's allowed origins" },
    d.allowedOrigins.length
      ? { list: [...d.allowedOrigins] }
      : { p: 'None set: the widget settings must name the origins of the pages that embed the widgets.' },
    { h: 2, text: `Violations reported in the last ${d.days} days` },
    d.reports.length
      ? {
          table: [
            ['Received (UTC)', 'Blocked', 'Directive', 'Page', "Remit's own"],
            ...d.reports.map((r) => [
              r.received_at.replace('T', ' ').slice(0, 19),
              r.blocked_uri,
              r.directive,
              r.document_uri,
              r.remit_resource ? 'yes: the tag or the policy is wrong' : 'no',
            ]),
          ],
        }
      : { p: 'None.' },
    ...(remitBlocked
      ? [
          {
            p: `${remitBlocked} of them blocked the provider's own script or frame: the tag or the policy is not as instructed.`,
          },
        ]
      : []),
  ];
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The document in Markdown (`Accept: text/markdown`). */
export function saqAMarkdown(d: SaqAInput): string {
  const out: string[] = [];
  for (const b of blocks(d)) {
    if ('h' in b) out.push(`${'#'.repeat(b.h)} ${b.text}`);
    else if ('p' in b) out.push(b.p);
    else if ('code' in b) out.push('```\n' + b.code + '\n```');
    else if ('list' in b) out.push(b.list.map((x, i) => `${b.ordered ? `${i + 1}.` : '-'} ${x}`).join('\n'));
    else {
      const [head, ...rows] = b.table;
      const line = (r: string[]) => `| ${r.map(mdCell).join(' | ')} |`;
      out.push([line(head!), line(head!.map(() => '---')), ...rows.map(line)].join('\n'));
    }
  }
  return out.join('\n\n') + '\n';
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The document as a printable HTML page, with no script and no outside resource. */
export function saqAHtml(d: SaqAInput): string {
  const body = blocks(d)
    .map((b) => {
      if ('h' in b) return `<h${b.h}>${esc(b.text)}</h${b.h}>`;
      if ('p' in b) return `<p>${esc(b.p)}</p>`;
      if ('code' in b) return `<pre><code>${esc(b.code)}</code></pre>`;
      if ('list' in b) {
        const tag = b.ordered ? 'ol' : 'ul';
        return `<${tag}>${b.list.map((x) => `<li>${esc(x)}</li>`).join('')}</${tag}>`;
      }
      const [head, ...rows] = b.table;
      const cells = (r: string[], tag: string) => `<tr>${r.map((c) => `<${tag}>${esc(c)}</${tag}>`).join('')}</tr>`;
      return `<table>${cells(head!, 'th')}${rows.map((r) => cells(r, 'td')).join('')}</table>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SAQ A: ${esc(d.merchant.businessname)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#111}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:.75rem;border-radius:4px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d1d5db;padding:.25rem .5rem;text-align:left;vertical-align:top;word-break:break-all}
@media print{body{margin:0;max-width:none}pre{background:none;border:1px solid #999}}</style></head>
<body>
${body}
</body></html>
`;
}
