import type { EmbedPolicy } from '@remit/contract';
import { CopyButton } from './copy-button.js';

/**
 * The merchant's pinned script tag and the Content-Security-Policy its page needs, to copy as they
 * are (`GET /api/v1/merchant/embed-policy` gives the same): what the SAQ A document's confirmation
 * rests on (docs/embedding.md "Your PCI scope (SAQ A)").
 */
export function EmbedPolicyCard({ policy }: { policy: EmbedPolicy }) {
  const parts = [
    { id: 'pinned-tag', title: 'Pinned script tag', code: policy.script_tag },
    { id: 'page-csp', title: 'Content-Security-Policy header', code: policy.csp },
  ];
  return (
    <section class="card snippet" aria-labelledby="embed-policy">
      <h2 id="embed-policy" class="item__title">
        Pinned tag and policy (PCI SAQ A)
      </h2>
      <p class="note">
        This release's loader, pinned by its integrity, and the exact policy for the page that embeds it. Violations the
        page reports are listed by GET /api/v1/merchant/csp-reports; GET /api/v1/merchant/saq-a is the document to keep.
      </p>
      {parts.map((p) => (
        <div key={p.id}>
          <div class="item__head">
            <h3 id={p.id} class="item__title">
              {p.title}
            </h3>
            <CopyButton text={p.code} label={`Copy ${p.title}`} />
          </div>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a scrolling code block must take keyboard focus and be named (axe scrollable-region-focusable) */}
          <pre class="code" tabIndex={0} aria-labelledby={p.id}>
            <code>{p.code}</code>
          </pre>
        </div>
      ))}
    </section>
  );
}
