import { useLayoutEffect, useRef } from 'preact/hooks';
import { t } from './i18n.js';

/** The sandbox 3-D Secure step: what a bank's challenge would ask, answered "Complete" or "Fail". */
export function Challenge(props: {
  brand: string;
  lastFour: string;
  busy: boolean;
  onAnswer: (o: 'complete' | 'fail') => void;
}) {
  const m = t();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <section class="panel challenge" aria-labelledby="challenge-title">
      <h2 id="challenge-title" tabIndex={-1} ref={heading}>
        {m.challengeTitle}
      </h2>
      <p>{m.challengeText(props.brand, props.lastFour)}</p>
      <div class="button-row">
        <button class="button" type="button" disabled={props.busy} onClick={() => props.onAnswer('complete')}>
          {props.busy ? m.processing : m.complete}
        </button>
        <button
          class="button button--secondary"
          type="button"
          disabled={props.busy}
          onClick={() => props.onAnswer('fail')}
        >
          {m.fail}
        </button>
      </div>
    </section>
  );
}
