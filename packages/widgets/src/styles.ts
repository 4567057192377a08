import { lang } from './i18n.js';

/**
 * The widgets' styles, applied to their shadow roots as constructable stylesheets
 * (`adoptedStyleSheets`): no <style> element and no style attribute, so a page whose CSP has no
 * 'unsafe-inline' for styles still shows them styled. The custom properties are the default
 * theme's; the merchant's appearance comes resolved from the server as a second sheet over them.
 */
export const CSS = `
:host{all:initial;display:block;background:var(--surface);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);--brand:#1d4ed8;--brand-ink:#fff;--ink:#111827;--muted:#4b5563;--line:#d1d5db;--field:#6b7280;--error:#b91c1c;--focus:#2563eb;--surface:#fff;--bg:#f3f4f6;--radius:8px}
*{box-sizing:border-box}
dialog{border:0;border-radius:calc(var(--radius)*1.5);padding:0;box-shadow:0 20px 50px rgb(0 0 0/.3);color:inherit;background:var(--surface);max-width:calc(100vw - 16px);max-height:calc(100vh - 16px)}
dialog::backdrop{background:rgb(17 24 39/.55)}
.pay{width:480px;height:min(820px,calc(100vh - 16px));display:flex;flex-direction:column}
.bar{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:8px;padding-inline-start:16px;border-bottom:1px solid var(--line);font-weight:600}
iframe{flex:1;width:100%;border:0;display:block}
.wait{flex:1;margin:0;padding:24px;color:var(--muted)}
.guard{position:fixed;width:1px;height:1px;overflow:hidden}
button{font:inherit;cursor:pointer;min-height:44px;min-width:44px;border-radius:var(--radius)}
.x{border:1px solid transparent;background:transparent;font-size:24px;line-height:1;color:var(--muted)}
.x:hover{background:var(--bg)}
.head{flex:1}
.test{padding:2px 8px;border-radius:4px;background:#fef3c7;color:#78350f;font-size:13px;font-weight:700}
button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.box{padding:24px;width:380px}
h2{margin:0 0 8px;font-size:20px}
p{margin:0 0 16px}
.go{background:var(--brand);border:0;color:var(--brand-ink);padding:0 20px;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:14px}
caption{text-align:start;font-weight:600;padding:8px 0}
th,td{text-align:start;padding:8px;border-bottom:1px solid var(--line)}
th{color:var(--muted)}
.num{text-align:end;font-variant-numeric:tabular-nums}
.pager{display:flex;gap:8px;align-items:center;justify-content:flex-end}
.pager button{border:1px solid var(--field);color:inherit;background:var(--surface);padding:0 12px}
.pager button:disabled{opacity:.5;cursor:default}
.err{color:var(--error)}
`;

let sheets: [CSSStyleSheet, CSSStyleSheet] | null = null;
const ours = () => {
  if (!sheets) {
    sheets = [new CSSStyleSheet(), new CSSStyleSheet()];
    sheets[0].replaceSync(CSS);
  }
  return sheets;
};

/** The same two sheets on every widget root: the styles, and over them the appearance. */
export function adoptStyles(root: ShadowRoot): void {
  root.adoptedStyleSheets = ours();
}

/** The appearance (`:host{…}` as the server resolved it): every widget root, mounted or not yet, wears it at once. */
export const setAppearance = (css: string): void => ours()[1].replaceSync(css);

/** A host element at the end of <body> with an open shadow root (reachable by assistive tools and tests). */
export function shadowHost(name: string): { host: HTMLElement; root: ShadowRoot } {
  const host = document.createElement('remit-' + name);
  host.dir = lang.dir; // Arabic: the modal and its bar read right to left
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root);
  document.body.append(host);
  return { host, root };
}
