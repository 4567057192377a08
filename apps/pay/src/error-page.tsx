import { t } from './i18n.js';

/** 404 unknown link or token, 410 cancelled by the merchant. */
export function ErrorPage({ status }: { status: 404 | 410 }) {
  const m = t();
  return (
    <main class="page" id="main">
      <section class="panel notice">
        <h1>{status === 410 ? m.cancelledTitle : m.notFoundTitle}</h1>
        <p>{status === 410 ? m.cancelledText : m.notFoundText}</p>
      </section>
    </main>
  );
}
