import * as z from 'zod';
import { listWidgets, updateWidget, type Ctx } from '@remit/core';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import {
  envelope,
  errorEnvelopeSchema,
  listWidgetsInput,
  updateWidgetInput,
  widgetIdParams,
  widgetSchema,
} from '@remit/contract';
import { ok } from './envelope.js';
import type { App } from './types.js';

export function widgetRoutes(app: App, ctx: Ctx) {
  app.get(
    '/widgets',
    {
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['widgets'],
        summary: "The merchant's widget settings",
        description:
          'merchant_key in the JSON body or the query string. One widget per merchant, made with defaults on first read.',
        querystring: listWidgetsInput,
        response: { 200: envelope(z.array(widgetSchema)), 400: errorEnvelopeSchema, 401: errorEnvelopeSchema },
      },
    },
    async (req) => ok('Widgets.', await listWidgets(ctx, req.merchant)),
  );

  app.put(
    '/widgets/:id',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['widgets'],
        summary: 'Update widget settings',
        description:
          'Fields given replace what is stored; absent fields stay; null clears logo_url, theme.primary_color and max_amount. ' +
          'allowed_origins: exact origins, https:// (http://localhost… too in sandbox), at most 20. theme.primary_color: #rrggbb. logo_url: https. ' +
          'appearance: {theme: default|night|flat|auto, variables: {colorPrimary, colorBackground, colorText, colorDanger, colorBorder, fontFamily, fontSizeBase, borderRadius, spacingUnit}}; ' +
          'null goes back to the default; refused with 400 naming the pair and its ratio when text, button text, danger text or the focus ring would not read (WCAG 2.2 AA).',
        params: widgetIdParams,
        body: updateWidgetInput,
        response: {
          200: envelope(widgetSchema),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const { merchant_key: _key, ...settings } = req.body;
      return ok('Widget updated.', await updateWidget(ctx, req.merchant, req.params.id, settings));
    },
  );
}
