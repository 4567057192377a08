import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

/**
 * The emulator's browser side: the Stripe.js stand-in (`/v3/`), the Payment Element's frame
 * (`/elements/payment`), and the HTML of Stripe's own pages (3-D Secure, microdeposit verification).
 * The scripts are plain JavaScript files beside this one, served as text.
 */

const STRIPE_JS = readFileSync(new URL('./v3.js', import.meta.url), 'utf8');
const ELEMENT_JS = readFileSync(new URL('./element.js', import.meta.url), 'utf8');

/** What the element's frame needs to know about its intent (the emulator checks key and client secret first). */
export interface FrameData {
  kind: 'payment_intent' | 'setup_intent';
  amount: number | null;
  currency: string;
  types: string[];
  /** The business the bank mandate names (the connected account's name). */
  business: string;
  apiUrl: string;
  /** Stripe.js's `locale` option (`auto`: the browser's). */
  locale: string;
  publishableKey: string;
  clientSecret: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const STYLE = `<style>
body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;margin:0;padding:16px}
main,.frame{max-width:32rem;margin:0 auto}
button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #0a5cd5;background:#0a5cd5;color:#fff;cursor:pointer;margin:4px 0}
button.secondary{background:#fff;color:#0a5cd5}
label{display:block;margin-top:8px;font-weight:600}
input{font:inherit;padding:8px;border:1px solid #6b6b6b;border-radius:6px;width:100%;box-sizing:border-box}
.error{color:#b00020}
</style>`;
/** `framed`: shown in a frame of the merchant's page, which has its own main landmark. */
const page = (title: string, body: string, framed = false) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>${STYLE}</head><body>${framed ? `<div class="frame">${body}</div>` : `<main>${body}</main>`}</body></html>`;

export const pages = {
  missing: (title: string, message: string) => page(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`),

  challenge: (iid: string, amount: string | null, framed: boolean) =>
    page(
      '3D Secure 2 Test Page',
      `<h1>3D Secure 2 Test Page</h1>` +
        `<p>${amount ? `Authenticate the payment of ${esc(amount)}.` : 'Authenticate saving this card.'}</p>` +
        `<form method="post" action="/3ds/${esc(iid)}/complete"><button id="test-source-authorize-3ds">Complete</button></form>` +
        `<form method="post" action="/3ds/${esc(iid)}/fail"><button id="test-source-fail-3ds" class="secondary">Fail</button></form>`,
      framed,
    ),

  /** The end of a challenge in Stripe.js's modal: the frame tells the page that opened it. */
  challengeDone: (iid: string, passed: boolean) =>
    page(
      '3D Secure 2 Test Page',
      `<h1>3D Secure 2 Test Page</h1><p role="status">${passed ? 'Authentication complete.' : 'Authentication failed.'}</p>`,
      true,
    ).replace(
      '</body>',
      `<script>parent.postMessage({ source: 'stripe-emulator', type: 'three_d_secure_done', intent: ${JSON.stringify(iid)} }, '*');</script></body>`,
    ),

  microdeposits: (iid: string, business: string, done: string | null, error?: string) =>
    page(
      'Verify your bank account',
      `<h1>Verify your bank account</h1>` +
        (done
          ? `<p role="status">${esc(done)}</p>`
          : `<p>${esc(business)} sent a deposit of $0.01 to your bank account. Its statement descriptor starts with SM followed by a 4-character code (in test mode: SM11AA). Enter the 6-character code to verify your account.</p>` +
            (error ? `<p class="error" role="alert">${esc(error)}</p>` : '') +
            `<form method="post" action="/microdeposit/${esc(iid)}"><label for="code">Descriptor code</label><input id="code" name="descriptor_code" autocomplete="off" required maxlength="6"><button>Verify account</button></form>`),
    ),

  /** The Payment Element's frame: its fields are built by element.js from the data embedded here. */
  element: (data: FrameData) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Secure payment input</title><link rel="stylesheet" href="/elements/element.css"></head>` +
    `<body><div id="root"></div>` +
    `<script type="application/json" id="data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script><script src="/elements/element.js"></script></body></html>`,
};

const ELEMENT_CSS = `body{font:16px/1.4 system-ui,sans-serif;color:#1a1a1a;margin:0;padding:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[role=tablist]{display:flex;gap:8px;margin-bottom:12px}
[role=tab]{flex:1;font:inherit;padding:10px;border:1px solid #6b6b6b;border-radius:6px;background:#fff;color:#1a1a1a;cursor:pointer;text-align:left}
[role=tab][aria-selected=true]{border:2px solid #0a5cd5;color:#0a4aa8;font-weight:600}
label{display:block;margin:10px 0 4px;font-size:14px;font-weight:600}
input{font:inherit;padding:10px;border:1px solid #6b6b6b;border-radius:6px;width:100%;box-sizing:border-box}
input[aria-invalid=true]{border-color:#b00020}
.row{display:flex;gap:8px}.row>div{flex:1}
.error{color:#b00020;font-size:14px;margin:4px 0 0}
.mandate,.note{font-size:13px;color:#4a4a4a}
button.link{font:inherit;padding:10px;border:1px solid #0a5cd5;border-radius:6px;background:#fff;color:#0a4aa8;cursor:pointer;width:100%;margin-top:8px;text-align:left}
.linked{margin-top:8px;padding:10px;border:1px solid #1b7f3b;border-radius:6px}
[hidden]{display:none!important}`;

/** Serves the stand-in's own files; false when `path` is not one of them. */
export function servePage(
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  frameData: (q: URLSearchParams) => FrameData | null,
): boolean {
  const send = (type: string, body: string, status = 200) => {
    res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
    res.end(body);
    return true;
  };
  if (path === '/v3' || path === '/v3/') return send('text/javascript; charset=utf-8', STRIPE_JS);
  if (path === '/elements/element.js') return send('text/javascript; charset=utf-8', ELEMENT_JS);
  if (path === '/elements/element.css') return send('text/css; charset=utf-8', ELEMENT_CSS);
  if (path === '/elements/payment') {
    const data = frameData(query);
    if (!data)
      return send(
        'text/html; charset=utf-8',
        pages.missing('Secure payment input', 'This payment form could not be loaded (unknown key or client secret).'),
        404,
      );
    return send('text/html; charset=utf-8', pages.element(data));
  }
  return false;
}
