import * as z from 'zod';
import { envelope } from './envelope.js';
import { merchantKeyInput } from './customers.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE_NUMBER, optional, wholeNumber } from './transactions.js';

/**
 * A merchant's embedding kit (docs/embedding.md "Your PCI scope (SAQ A)"): the pinned script tag and
 * the page's Content-Security-Policy (`GET /merchant/embed-policy`), the violation reports its page
 * sends (`POST /csp-reports/{public_key}`, listed by `GET /merchant/csp-reports`), and the SAQ A
 * document (`GET /merchant/saq-a`).
 */

export const embedPolicySchema = z.object({
  /** This release's loader at its versioned, immutable address, with the merchant's public key. */
  loader_url: z.string(),
  /** `sha384-…`: the loader's Subresource Integrity. */
  integrity: z.string(),
  /** The exact `<script>` tag: the loader, its integrity and `crossorigin="anonymous"`. */
  script_tag: z.string(),
  /** The exact `Content-Security-Policy` header value the page needs for the widgets. */
  csp: z.string(),
  /** Where the page's browser sends violation reports (the policy's `report-uri`). */
  report_uri: z.string(),
  /** A `Reporting-Endpoints` header value naming the same address as `remit`, for `report-to remit`. */
  report_to: z.string().optional(),
});
export type EmbedPolicy = z.infer<typeof embedPolicySchema>;
export const embedPolicyResponseSchema = envelope(embedPolicySchema);

export const cspReportSchema = z.object({
  /** `csp_…`. */
  id: z.string(),
  /** What was blocked: an address, or `inline`, `eval`, … as the browser names it. */
  blocked_uri: z.string(),
  /** The directive that blocked it (`script-src-elem`, `frame-src`, …). */
  directive: z.string(),
  /** The page it happened on. */
  document_uri: z.string(),
  /** `enforce` or `report`. */
  disposition: z.string(),
  /** True when what was blocked is Remit's own script or frame: the snippet or the policy is wrong. */
  remit_resource: z.boolean(),
  /** ISO 8601 UTC: when Remit received it. */
  received_at: z.string(),
});
export type CspReport = z.infer<typeof cspReportSchema>;

export const listCspReportsInput = merchantKeyInput.extend({
  limit: optional(
    wholeNumber(1, MAX_LIMIT, `must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  ).describe(`Page size, 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}`),
  pageNumber: optional(
    wholeNumber(0, MAX_PAGE_NUMBER, `must be a whole number from 0 (the first page) to ${MAX_PAGE_NUMBER}`),
  ).describe('Zero-based page'),
});
export type ListCspReportsInput = z.output<typeof listCspReportsInput>;

export const cspReportListResponseSchema = envelope(z.array(cspReportSchema)).extend({
  /** Every report kept for the merchant, not just this page. */
  total: z.number().int(),
});

/** The largest report body accepted (a browser's report is well under 4 KB). */
export const CSP_REPORT_MAX_BYTES = 16 * 1024;

const reportText = z.string().max(2048);

/** `application/csp-report` (CSP Level 2's `report-uri`). */
export const legacyCspReportBody = z.object({
  'csp-report': z.object({
    'document-uri': reportText,
    'blocked-uri': reportText.optional(),
    'effective-directive': reportText.optional(),
    'violated-directive': reportText.optional(),
    disposition: reportText.optional(),
  }),
});

/** `application/reports+json` (the Reporting API's `report-to`): a list of reports; only `csp-violation` ones count. */
export const reportingApiBody = z
  .array(
    z.object({
      type: reportText,
      url: reportText.optional(),
      body: z
        .object({
          documentURL: reportText.optional(),
          blockedURL: reportText.optional(),
          effectiveDirective: reportText.optional(),
          disposition: reportText.optional(),
        })
        .optional(),
    }),
  )
  .min(1)
  .max(20);

/** A violation as both formats give it. */
export interface CspViolation {
  blockedUri: string;
  directive: string;
  documentUri: string;
  disposition: string;
}
