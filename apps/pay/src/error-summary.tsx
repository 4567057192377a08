import { useLayoutEffect, useRef } from 'preact/hooks';
import { t } from './i18n.js';

/**
 * GOV.UK error summary: on a submit with errors it lists them at the top, each linked to its
 * field, and takes focus so a screen reader reads it at once.
 */
export function ErrorSummary({ items }: { items: Array<[string, string]> }) {
  const ref = useRef<HTMLDivElement>(null);
  // Focus moves in the same task as the render, so no key or click lands on the button in between.
  useLayoutEffect(() => {
    if (items.length) ref.current?.focus();
  }, [items]);
  if (!items.length) return null;
  return (
    <div class="error-summary" ref={ref} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 class="error-summary__title" id="error-summary-title">
        {t().errorSummary}
      </h2>
      <ul class="error-summary__list">
        {items.map(([id, message]) => (
          <li key={id}>
            <a
              href={`#${id}`}
              onClick={(e) => {
                e.preventDefault();
                document.getElementById(id)?.focus();
              }}
            >
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
