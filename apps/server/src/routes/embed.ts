import {
  cspReportListResponseSchema,
  embedPolicyResponseSchema,
  errorEnvelopeSchema,
  errorResponses,
  listCspReportsInput,
  merchantKeyInput,
} from '@remit/contract';
import {
  cspReportsSince,
  embedPolicy,
  listCspReports,
  listWidgets,
  saqAHtml,
  saqAMarkdown,
  type Ctx,
  type Merchant,
  type Operator,
} from '@remit/core';
import * as z from 'zod';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import { ok } from './envelope.js';
import type { App } from './types.js';
import { builtLoader } from './widget-assets.js';

/** How far back the SAQ A document lists violations. */
export const SAQ_A_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface EmbedRouteOptions {
  /** The built loader (`packages/loader/dist` by default): its bytes give the pinned address and integrity. */
  loaderDir?: string;
  /** REMIT_OPERATOR_NAME, REMIT_OPERATOR_CONTACT. */
  operator?: Operator;
}

/**
 * A merchant's embedding kit (docs/embedding.md "Your PCI scope (SAQ A)"): the pinned tag and the
 * page's policy, the violations its pages reported, and the SAQ A document that puts them together.
 */
export const embedRoutes =
  (opts: EmbedRouteOptions = {}) =>
  (app: App, ctx: Ctx) => {
    /** The policy of this release's loader (503 when the loader is not built). */
    const policyFor = async (merchant: Merchant) =>
      embedPolicy(ctx.publicUrl, merchant.publicKey, await builtLoader(opts.loaderDir));
    const merchantOnly = {
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' as const },
    };

    app.get(
      '/merchant/embed-policy',
      {
        ...merchantOnly,
        schema: {
          tags: ['widgets'],
          summary: "The merchant's pinned script tag and its page's Content-Security-Policy",
          description:
            'merchant_key in the JSON body or the query string. loader_url is this release of dynamic-launch.js at its versioned, immutable address; ' +
            'script_tag carries its integrity (sha384) and crossorigin; csp is the exact Content-Security-Policy a page needs for the widgets, ' +
            'reporting violations to report_uri; report_to is a Reporting-Endpoints header value naming the same address `remit`.',
          querystring: merchantKeyInput,
          response: { 200: embedPolicyResponseSchema, ...errorResponses, 503: errorEnvelopeSchema },
        },
      },
      async (req) => ok('Embed policy.', await policyFor(req.merchant)),
    );

    app.get(
      '/merchant/csp-reports',
      {
        ...merchantOnly,
        schema: {
          tags: ['widgets'],
          summary: "Content-Security-Policy violations the merchant's pages reported, newest first",
          description:
            'merchant_key, limit (1 to 100, default 20) and pageNumber (zero-based) in the JSON body or the query string. ' +
            "remit_resource is true when Remit's own script or frame was blocked: the tag or the policy is wrong. " +
            '`total` counts every report kept (REMIT_RETENTION_CSP_REPORTS_DAYS).',
          querystring: listCspReportsInput,
          response: { 200: cspReportListResponseSchema, ...errorResponses },
        },
      },
      async (req) => {
        const { data, total } = await listCspReports(ctx, req.merchant, req.query);
        return { result: true as const, message: 'CSP reports.', data, total };
      },
    );

    app.get(
      '/merchant/saq-a',
      {
        ...merchantOnly,
        schema: {
          tags: ['widgets'],
          summary: "The merchant's SAQ A document: the provider's confirmation and the instructions it rests on",
          description:
            'merchant_key in the JSON body or the query string. A printable HTML page; Markdown with `Accept: text/markdown`. ' +
            "It holds SAQ A's script criterion, the operator's confirmation (REMIT_OPERATOR_NAME, REMIT_OPERATOR_CONTACT), the exact " +
            `script tag, integrity and Content-Security-Policy, the allowed origins, the date and the violations of the last ${SAQ_A_DAYS} days.`,
          querystring: merchantKeyInput,
          produces: ['text/html', 'text/markdown'],
          response: {
            200: z.string().describe('The document (text/html, or text/markdown)'),
            ...errorResponses,
            503: errorEnvelopeSchema,
          },
        },
      },
      async (req, reply) => {
        const policy = await policyFor(req.merchant);
        const [widget] = await listWidgets(ctx, req.merchant);
        const now = ctx.now();
        const input = {
          merchant: req.merchant,
          policy,
          allowedOrigins: widget?.allowed_origins ?? [],
          reports: await cspReportsSince(ctx, req.merchant, new Date(now.getTime() - SAQ_A_DAYS * DAY_MS)),
          days: SAQ_A_DAYS,
          operator: opts.operator ?? {},
          date: now,
        };
        reply.header('vary', 'accept');
        if (/\btext\/markdown\b/.test(String(req.headers.accept ?? '')))
          return reply.type('text/markdown; charset=utf-8').send(saqAMarkdown(input));
        // Its own policy: the document loads nothing and runs nothing; its one stylesheet is inline.
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
          .send(saqAHtml(input));
      },
    );
  };
