import { useLayoutEffect, useRef } from 'preact/hooks';
import './error-summary.css';

export interface ErrorSummaryProps {
  /** `[input id, message]` of every error, in the form's order; an empty id is a message that belongs to no field. */
  items: Array<[string, string]>;
  title?: string;
}

/**
 * GOV.UK error summary: after a submit with errors it lists them at the top, each linked to its
 * field, and takes focus so a screen reader reads it at once. Nothing when there are no errors.
 */
export function ErrorSummary({ items, title = 'There is a problem' }: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  // Focus in the same task as the render, not after paint: nothing (a click, a key, a screen
  // reader's cursor) lands between the summary appearing and it taking focus.
  useLayoutEffect(() => {
    if (items.length) ref.current?.focus();
  }, [items]);
  if (!items.length) return null;
  return (
    <div class="error-summary" ref={ref} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 class="error-summary__title" id="error-summary-title">
        {title}
      </h2>
      <ul class="error-summary__list">
        {items.map(([id, message], i) => (
          <li key={i}>
            {id ? (
              <a
                href={`#${id}`}
                onClick={(e) => {
                  e.preventDefault();
                  // A field inside a closed <details> is opened first, or it could not take focus.
                  const el = document.getElementById(id);
                  el?.closest('details')?.setAttribute('open', '');
                  el?.focus();
                }}
              >
                {message}
              </a>
            ) : (
              message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
