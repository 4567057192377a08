import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * A decline or failure: says why, in an alert that takes focus so the customer hears it first,
 * then the form below lets them try again.
 */
export function Outcome({ title, message, hint, id }: { title: string; message: string; hint?: string; id: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => ref.current?.focus(), [id]);
  return (
    <div class="alert" role="alert" tabIndex={-1} ref={ref} aria-labelledby="alert-title">
      <h2 class="alert__title" id="alert-title">
        {title}
      </h2>
      <p>{message}</p>
      {hint && <p>{hint}</p>}
    </div>
  );
}
