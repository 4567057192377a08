import type { PayPageState } from '@remit/contract';
import { AddCardPage } from './add-card-page.js';
import { ErrorPage } from './error-page.js';
import { LinkPage } from './link-page.js';

export function App({ state }: { state: PayPageState }) {
  if (state.page === 'link') return <LinkPage view={state.view} />;
  if (state.page === 'card') return <AddCardPage view={state.view} />;
  return <ErrorPage status={state.status} />;
}
