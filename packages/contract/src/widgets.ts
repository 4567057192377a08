import * as z from 'zod';
import { amount, flag, merchantKey, text } from './fields.js';
import { originField } from './origins.js';

/** `GET /widgets` and `PUT /widgets/{id}`: the merchant's widget settings (DESIGN.md "widget settings"). */

export const MAX_ALLOWED_ORIGINS = 20;
export const BUTTON_TEXT_MAX = 40;
export const DEFAULT_BUTTON_TEXT = 'Pay now';

const COLOR_RULE = 'must be a colour #rrggbb (for example #1a56db)';
const LOGO_RULE = 'must be an https:// address of an image, at most 2048 characters';

export const listWidgetsInput = z.object({ merchant_key: merchantKey() });
export type ListWidgetsInput = z.output<typeof listWidgetsInput>;

export const widgetIdParams = z.object({ id: z.string().min(1).max(100) });

const logoUrl = () =>
  z
    .string()
    .trim()
    .max(2048, LOGO_RULE)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'https:' && u.hostname.length > 0 && !u.username && !u.password;
      } catch {
        return false;
      }
    }, LOGO_RULE);

/** Every field but merchant_key is optional: what is given replaces what was stored; null clears. */
export const updateWidgetInput = z.object({
  merchant_key: merchantKey(),
  allowed_origins: z
    .array(originField())
    .max(MAX_ALLOWED_ORIGINS, `must list at most ${MAX_ALLOWED_ORIGINS} origins`)
    .transform((list) => [...new Set(list)])
    .optional(),
  button_text: text(BUTTON_TEXT_MAX).optional(),
  theme: z
    .object({
      primary_color: z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/, COLOR_RULE)
        .transform((c) => c.toLowerCase())
        .nullable()
        .optional(),
    })
    .optional(),
  request_payment_enabled: flag().optional(),
  completed_transactions_enabled: flag().optional(),
  max_amount: amount().nullable().optional(),
  logo_url: logoUrl().nullable().optional(),
});
export type UpdateWidgetInput = z.output<typeof updateWidgetInput>;

/** A merchant's widget settings as the API answers them. */
export const widgetSchema = z.object({
  id: z.string().describe('wdg_…'),
  merchant_id: z.string(),
  allowed_origins: z
    .array(z.string())
    .describe('exact origins allowed to embed the widgets and the pay page; empty: any origin in sandbox, none in production'),
  button_text: z.string(),
  theme: z.object({ primary_color: z.string().nullable().describe('#rrggbb') }),
  logo_url: z.string().nullable().describe('https address of the logo the pay page shows'),
  request_payment_enabled: z.boolean(),
  completed_transactions_enabled: z.boolean(),
  max_amount: z.string().nullable().describe("decimal text; null: the merchant's own limit"),
  created_date: z.string(),
  updated_date: z.string(),
});
export type Widget = z.infer<typeof widgetSchema>;
