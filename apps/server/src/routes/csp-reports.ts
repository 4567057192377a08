import { CSP_REPORT_MAX_BYTES, legacyCspReportBody, reportingApiBody } from '@remit/contract';
import { addressKey, merchantWithPublicKey, recordCspReports, violationsOf, type Ctx } from '@remit/core';
import * as z from 'zod';
import { sendError } from '../plugins/errors.js';
import { enforce, type WidgetLimiter, type WidgetLimits } from '../plugins/widget-limits.js';
import type { App } from './types.js';

/**
 * `POST /csp-reports/{public_key}`: where a merchant's page sends its Content-Security-Policy
 * violations (the `report-uri` of `GET /merchant/embed-policy`). Public, like the public key in its
 * path: the body is bounded, each address is rate limited, and what is stored is only what the
 * browser reports. `application/csp-report` (report-uri) and `application/reports+json`
 * (Reporting API), and plain JSON of either shape.
 */

const REPORT_TYPES = ['application/csp-report', 'application/reports+json'];
const params = z.object({ public_key: z.string().max(200) });

export const cspReportRoutes = (opts: { limits: WidgetLimits; limiter: WidgetLimiter }) => (app: App, ctx: Ctx) => {
  // Parsed here as text: the body's shape is checked against both formats below.
  app.addContentTypeParser(REPORT_TYPES, { parseAs: 'string', bodyLimit: CSP_REPORT_MAX_BYTES }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, undefined);
    }
  });

  // The Reporting API sends with CORS: a preflight from the merchant's page must pass.
  app.options('/csp-reports/:public_key', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
    reply
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .status(204)
      .send(),
  );

  app.post(
    '/csp-reports/:public_key',
    {
      bodyLimit: CSP_REPORT_MAX_BYTES,
      config: { public: true },
      schema: {
        tags: ['widget backend'],
        summary: "A merchant's page reports a Content-Security-Policy violation",
        description:
          `application/csp-report (report-uri) or application/reports+json (Reporting API), at most ${CSP_REPORT_MAX_BYTES} bytes. ` +
          '204 when stored; 400 for a body of neither shape, 401 for an unknown key, 413 for a larger body, 429 past the per-address limit.',
        params,
      },
    },
    async (req, reply) => {
      reply.header('access-control-allow-origin', '*');
      await enforce(opts.limiter, reply, [[opts.limits.cspReportsPerAddress, addressKey(req.ip)]]);
      const merchant = await merchantWithPublicKey(ctx.db, req.params.public_key);
      const body = Array.isArray(req.body)
        ? reportingApiBody.safeParse(req.body)
        : legacyCspReportBody.safeParse(req.body);
      const violations = body.success ? violationsOf(body.data) : [];
      if (!violations.length)
        return sendError(req, reply, 400, 'invalid_request', 'Not a Content-Security-Policy violation report.');
      await recordCspReports(ctx, merchant, violations);
      return reply.status(204).send();
    },
  );
};
