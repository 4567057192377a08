import { lang } from './i18n.js';

/**
 * The widgets' styles, applied to their shadow roots as constructable stylesheets
 * (`adoptedStyleSheets`): no <style> element and no style attribute, so a page whose CSP has no
 * 'unsafe-inline' for styles still shows them styled. `--remit-primary` comes from the widget
 * settings' primary colour.
 */
export const CSS = `
:host{all:initial;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;--remit-primary:#1a56db}
*{box-sizing:border-box}
dialog{border:0;border-radius:12px;padding:0;box-shadow:0 20px 50px rgb(0 0 0/.3);color:inherit;background:#fff;max-width:calc(100vw - 16px);max-height:calc(100vh - 16px)}
dialog::backdrop{background:rgb(17 24 39/.55)}
.pay{width:480px;height:min(820px,calc(100vh - 16px));display:flex;flex-direction:column}
.bar{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:8px;padding-inline-start:16px;border-bottom:1px solid #e5e7eb;font-weight:600}
iframe{flex:1;width:100%;border:0;display:block}
.wait{flex:1;margin:0;padding:24px;color:#374151}
.guard{position:fixed;width:1px;height:1px;overflow:hidden}
button{font:inherit;cursor:pointer;min-height:44px;min-width:44px;border-radius:8px}
.x{border:1px solid transparent;background:transparent;font-size:24px;line-height:1;color:#374151}
.x:hover{background:#f3f4f6}
button:focus-visible{outline:3px solid var(--remit-primary);outline-offset:2px}
.box{padding:24px;width:380px}
h2{margin:0 0 8px;font-size:20px}
p{margin:0 0 16px}
.go{background:var(--remit-primary);border:0;color:#fff;padding:0 20px;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:14px}
caption{text-align:start;font-weight:600;padding:8px 0}
th,td{text-align:start;padding:8px;border-bottom:1px solid #e5e7eb}
th{color:#374151}
.num{text-align:end;font-variant-numeric:tabular-nums}
.pager{display:flex;gap:8px;align-items:center;justify-content:flex-end}
.pager button{border:1px solid #d1d5db;background:#fff;padding:0 12px}
.pager button:disabled{opacity:.5;cursor:default}
.err{color:#b91c1c}
`;

let shared: CSSStyleSheet | null = null;

/** One sheet for every widget root; the theme sheet per root carries the merchant's colour. */
export function adoptStyles(root: ShadowRoot, primary?: string | null): void {
  if (!shared) {
    shared = new CSSStyleSheet();
    shared.replaceSync(CSS);
  }
  const sheets = [shared];
  if (primary && /^#[0-9a-f]{6}$/i.test(primary)) {
    const theme = new CSSStyleSheet();
    theme.replaceSync(`:host{--remit-primary:${primary}}`);
    sheets.push(theme);
  }
  root.adoptedStyleSheets = sheets;
}

/** A host element at the end of <body> with an open shadow root (reachable by assistive tools and tests). */
export function shadowHost(name: string, primary?: string | null): { host: HTMLElement; root: ShadowRoot } {
  const host = document.createElement('remit-' + name);
  host.dir = lang.dir; // Arabic: the modal and its bar read right to left
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, primary);
  document.body.append(host);
  return { host, root };
}
