import type { EmbedPolicy } from '@remit/contract';

/** A release of the loader: its versioned name's part and its Subresource Integrity. */
export interface LoaderRelease {
  /** `dynamic-launch.<version>.js`. */
  version: string;
  /** `sha384-…`. */
  integrity: string;
}

/** Where a merchant's page sends its violation reports: its public key in the path. */
export const cspReportUri = (publicUrl: string, publicKey: string) =>
  `${publicUrl}/csp-reports/${encodeURIComponent(publicKey)}`;

/**
 * The script tag and the Content-Security-Policy a merchant's page needs for the widgets, and no
 * more: scripts from the page itself and Remit, the widget calls and the pay modal's frame to
 * Remit, no plugins, no `<base>` elsewhere, violations reported to Remit. The pay page's own
 * scripts (Stripe.js among them) run in Remit's frame, under Remit's policy.
 */
export function embedPolicy(publicUrl: string, publicKey: string, loader: LoaderRelease): EmbedPolicy {
  const remit = new URL(publicUrl).origin;
  const loaderUrl = `${publicUrl}/js/dynamic-launch.${loader.version}.js?remit_merchant_public_key=${encodeURIComponent(publicKey)}`;
  const reportUri = cspReportUri(publicUrl, publicKey);
  const csp = [
    `script-src 'self' ${remit}`,
    `connect-src 'self' ${remit}`,
    `frame-src ${remit}`,
    "object-src 'none'",
    "base-uri 'self'",
    `report-uri ${reportUri}`,
  ].join('; ');
  return {
    loader_url: loaderUrl,
    integrity: loader.integrity,
    script_tag: `<script src="${loaderUrl}" integrity="${loader.integrity}" crossorigin="anonymous"></script>`,
    csp,
    report_uri: reportUri,
    report_to: `remit="${reportUri}"`,
  };
}
