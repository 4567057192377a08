import type { PayPageState } from '@remit/contract';

/** The state the server embedded in the page (no request before the first render). */
export function readState(doc: Document): PayPageState {
  const el = doc.getElementById('remit-state');
  try {
    if (el?.textContent) return JSON.parse(el.textContent) as PayPageState;
  } catch {
    /* fall through: a page without usable state shows the not-found page */
  }
  return { page: 'error', status: 404 } as PayPageState; // the error page reads the status alone
}
