import type { PayPageState } from '@remit/contract';
import type { AddCardPage } from './add-card-page.js';
import { ErrorPage } from './error-page.js';
import { LinkPage } from './link-page.js';

/**
 * The add-card page is a chunk of its own, fetched before a card page starts (`loadPage`): the
 * pay page's script (20 KB budget) does not carry a page it never shows. The server renderer has it.
 */
let addCardPage: typeof AddCardPage | undefined;
export const setAddCardPage = (p: typeof AddCardPage) => void (addCardPage = p);
export async function loadPage(state: PayPageState): Promise<void> {
  if (state.page === 'card' && !addCardPage) setAddCardPage((await import('./add-card-page.js')).AddCardPage);
}

export function App({ state }: { state: PayPageState }) {
  if (state.page === 'link') return <LinkPage view={state.view} />;
  if (state.page === 'card') {
    const Page = addCardPage!;
    return <Page view={state.view} />;
  }
  return <ErrorPage status={state.status} />;
}
