import { z } from 'zod';
import { listWidgets, listWidgetsInput, updateWidget, updateWidgetInput, widgetIdParams, type Ctx } from '@remit/core';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import { envelopeSchema, errorResponses, errorSchema, ok } from './envelope.js';
import type { App } from './types.js';

const widgetSchema = z.object({
  id: z.string().describe('wdg_…'),
  merchant_id: z.string(),
  allowed_origins: z.array(z.string()).describe('exact origins allowed to embed the widgets and the pay page; empty: any origin in sandbox, none in production'),
  button_text: z.string(),
  theme: z.object({ primary_color: z.string().nullable().describe('#rrggbb') }),
  logo_url: z.string().nullable().describe('https address of the logo the pay page shows'),
  request_payment_enabled: z.boolean(),
  completed_transactions_enabled: z.boolean(),
  max_amount: z.string().nullable().describe("decimal text; null: the merchant's own limit"),
  created_date: z.string(),
  updated_date: z.string(),
});

export function widgetRoutes(app: App, ctx: Ctx) {
  app.get(
    '/widgets',
    {
      preValidation: mergeGetBodyIntoQuery,
      schema: {
        tags: ['widgets'],
        summary: "The merchant's widget settings",
        description: 'merchant_key in the JSON body or the query string. One widget per merchant, made with defaults on first read.',
        querystring: listWidgetsInput,
        response: { 200: envelopeSchema(z.array(widgetSchema)), ...errorResponses },
      },
    },
    async (req) => ok('Widgets.', await listWidgets(ctx, req.client.id, req.query)),
  );

  app.put(
    '/widgets/:id',
    {
      schema: {
        tags: ['widgets'],
        summary: 'Update widget settings',
        description:
          'Fields given replace what is stored; absent fields stay; null clears logo_url, theme.primary_color and max_amount. ' +
          'allowed_origins: exact origins, https:// (http://localhost… too in sandbox), at most 20. theme.primary_color: #rrggbb. logo_url: https.',
        params: widgetIdParams,
        body: updateWidgetInput,
        response: { 200: envelopeSchema(widgetSchema), ...errorResponses, 404: errorSchema },
      },
    },
    async (req) => ok('Widget updated.', await updateWidget(ctx, req.client.id, req.params.id, req.body)),
  );
}
