import { and, eq } from 'drizzle-orm';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { widgets } from '../db/schema.js';
import { invalid, notFound, type FieldError } from '../errors.js';
import { newId } from '../ids.js';
import type { Env } from '../environment.js';
import { formatAmount } from '../money.js';
import { isLocalOrigin } from './origins.js';
import { isPhoneCountry } from './sms-countries.js';
import { appearanceProblems, underCurrentRules, withPrimaryColor } from './appearance.js';
import {
  DEFAULT_BUTTON_TEXT,
  type Appearance,
  type UpdateWidgetInput,
  type Widget,
  type WidgetTransactionsScope,
} from '@remit/contract';
import type { Merchant } from '../merchants/merchant-key.js';

export type WidgetRow = typeof widgets.$inferSelect;

/**
 * The merchant's widget settings, made with the defaults the first time they are asked for. The
 * completed-transactions widget shows sales to anyone with the public key: in production it starts off.
 */
export async function widgetFor(ctx: Pick<Ctx, 'db' | 'env' | 'now'>, merchant: Merchant): Promise<WidgetRow> {
  const { db } = ctx;
  const merchantId = merchant.id;
  const [found] = await db.select().from(widgets).where(eq(widgets.merchantId, merchantId)).limit(1);
  if (found) return found;
  const at = merchantNow(ctx.now, merchant);
  await db
    .insert(widgets)
    .values({
      id: newId.widget(),
      merchantId,
      buttonText: DEFAULT_BUTTON_TEXT,
      completedTransactionsEnabled: ctx.env === 'sandbox',
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(widgets).where(eq(widgets.merchantId, merchantId)).limit(1);
  return row!;
}

/** The settings without creating them (public readers: the pay page). */
export async function findWidget(db: Queryable, merchantId: string): Promise<WidgetRow | null> {
  const [row] = await db.select().from(widgets).where(eq(widgets.merchantId, merchantId)).limit(1);
  return row ?? null;
}

/** Widget settings as the API answers them. */
export function widgetView(w: WidgetRow): Widget {
  return {
    id: w.id,
    merchant_id: w.merchantId,
    allowed_origins: w.allowedOrigins,
    button_text: w.buttonText,
    theme: { primary_color: w.primaryColor },
    appearance: { theme: w.appearance?.theme ?? 'default', variables: { ...w.appearance?.variables } },
    logo_url: w.logoUrl,
    request_payment_enabled: w.requestPaymentEnabled,
    completed_transactions_enabled: w.completedTransactionsEnabled,
    completed_transactions_scope: w.completedTransactionsScope as WidgetTransactionsScope,
    sms_countries: w.smsCountries,
    max_amount: w.maxAmountCents === null ? null : formatAmount(w.maxAmountCents),
    created_date: w.createdAt.toISOString(),
    updated_date: w.updatedAt.toISOString(),
  };
}
export type WidgetView = Widget;

/** The appearance every surface shows: the settings' own (as today's rules take it), with the older `theme.primary_color` as its colorPrimary. */
export const widgetAppearance = (w: Pick<WidgetRow, 'appearance' | 'primaryColor'> | null): Appearance =>
  withPrimaryColor(underCurrentRules(w?.appearance), w?.primaryColor);

/** An appearance whose colours would not read is refused, each failing pair named with its ratio. */
function checkAppearance(appearance: Appearance): void {
  const errors: FieldError[] = appearanceProblems(appearance).map((p) => ({
    path: `appearance.variables.${p.path}`,
    message: p.message,
  }));
  if (errors.length) refuse(errors);
}

/** `GET /widgets`: the merchant's widgets (one per merchant). */
export async function listWidgets(ctx: Ctx, merchant: Merchant): Promise<WidgetView[]> {
  return [widgetView(await widgetFor(ctx, merchant))];
}

/** A 400 naming each field and what it must be. */
function refuse(errors: FieldError[]): never {
  throw invalid(
    'invalid_request',
    `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    errors,
  );
}

/** Production pages are served over https; plain http only for localhost, and only in sandbox. */
function checkOrigins(env: Env, origins: string[]): void {
  const errors: FieldError[] = [];
  origins.forEach((o, i) => {
    if (o.startsWith('https://')) return;
    if (env === 'sandbox' && isLocalOrigin(o)) return;
    errors.push({
      path: `allowed_origins.${i}`,
      message:
        env === 'sandbox' ? 'must be https://…, or http://localhost… in sandbox' : 'must be https://… in production',
    });
  });
  if (errors.length) refuse(errors);
}

/** Countries the phone library cannot place numbers in would never match a phone: refused. */
function checkCountries(countries: string[]): void {
  const errors: FieldError[] = [];
  countries.forEach((c, i) => {
    if (!isPhoneCountry(c))
      errors.push({
        path: `sms_countries.${i}`,
        message: `is not a country code phones can be placed in (ISO 3166 alpha-2, for example US), not "${c}"`,
      });
  });
  if (errors.length) refuse(errors);
}

/** `PUT /widgets/{id}`: sets what the body gives; the row is locked so concurrent updates apply one after the other. */
export async function updateWidget(
  ctx: Ctx,
  merchant: Merchant,
  id: string,
  input: Omit<UpdateWidgetInput, 'merchant_key'>,
): Promise<WidgetView> {
  if (input.allowed_origins) checkOrigins(ctx.env, input.allowed_origins);
  if (input.sms_countries) checkCountries(input.sms_countries);
  if (input.max_amount != null && input.max_amount > merchant.maxAmountCents) {
    const message = `must be at most ${formatAmount(merchant.maxAmountCents)}, the merchant's limit`;
    throw invalid('amount_over_limit', `max_amount ${message}.`, [{ path: 'max_amount', message }]);
  }
  const at = merchantNow(ctx.now, merchant);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(widgets)
      .where(and(eq(widgets.id, id), eq(widgets.merchantId, merchant.id)))
      .for('update');
    if (!row) throw notFound('widget_not_found', 'Widget not found: no widget with this id belongs to this merchant.');
    // The colours as they will be shown (a new primary colour counts as much as a new appearance).
    if (input.appearance !== undefined || input.theme?.primary_color !== undefined)
      checkAppearance(
        widgetAppearance({
          appearance: input.appearance !== undefined ? input.appearance : row.appearance,
          primaryColor: input.theme?.primary_color !== undefined ? input.theme.primary_color : row.primaryColor,
        }),
      );
    const [updated] = await tx
      .update(widgets)
      .set({
        ...(input.allowed_origins !== undefined && { allowedOrigins: input.allowed_origins }),
        ...(input.button_text !== undefined && { buttonText: input.button_text }),
        ...(input.theme?.primary_color !== undefined && { primaryColor: input.theme.primary_color }),
        ...(input.logo_url !== undefined && { logoUrl: input.logo_url }),
        ...(input.appearance !== undefined && { appearance: input.appearance }),
        ...(input.request_payment_enabled !== undefined && { requestPaymentEnabled: input.request_payment_enabled }),
        ...(input.completed_transactions_enabled !== undefined && {
          completedTransactionsEnabled: input.completed_transactions_enabled,
        }),
        ...(input.completed_transactions_scope !== undefined && {
          completedTransactionsScope: input.completed_transactions_scope,
        }),
        ...(input.sms_countries !== undefined && { smsCountries: input.sms_countries }),
        ...(input.max_amount !== undefined && { maxAmountCents: input.max_amount }),
        updatedAt: at,
      })
      .where(eq(widgets.id, row.id))
      .returning();
    return widgetView(updated!);
  });
}
