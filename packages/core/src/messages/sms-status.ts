import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { messages } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { TWILIO_STATUS_PATH, validTwilioSignature } from './transports/twilio.js';

export interface SmsStatusCallback {
  /** The X-Twilio-Signature header ('' when missing). */
  signature: string;
  /** The form parameters as posted, every one of them (the signature covers them all). */
  params: Record<string, string>;
}

/** Twilio's final message statuses, as the message row keeps them. */
const FINAL = new Set(['delivered', 'failed', 'undelivered']);

/**
 * Twilio's delivery report for a message it accepted (`MessageSid`, `MessageStatus`, `ErrorCode`),
 * checked against its signature over PUBLIC_URL + TWILIO_STATUS_PATH: a report that does not
 * verify is refused (403) before anything is read or written. Intermediate statuses (sending,
 * sent) change nothing; a final one is recorded once, on a message that was sent.
 */
export async function recordSmsStatus(
  ctx: Pick<Ctx, 'db' | 'publicUrl' | 'twilioAuthToken'>,
  cb: SmsStatusCallback,
): Promise<{ updated: boolean }> {
  if (!ctx.twilioAuthToken)
    throw new RemitError(
      'route_not_found',
      'Twilio is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN).',
    );
  if (!validTwilioSignature(ctx.twilioAuthToken, cb.signature, `${ctx.publicUrl}${TWILIO_STATUS_PATH}`, cb.params)) {
    throw new RemitError('invalid_signature');
  }
  const sid = cb.params.MessageSid ?? cb.params.SmsSid;
  const status = cb.params.MessageStatus ?? cb.params.SmsStatus;
  if (!sid || !status || !FINAL.has(status)) return { updated: false };
  const code = cb.params.ErrorCode;
  const error =
    status === 'delivered'
      ? null
      : `Twilio ${status}${code ? `: error ${code}` : ''}${cb.params.ErrorMessage ? ` (${cb.params.ErrorMessage})` : ''}`;
  const rows = await ctx.db
    .update(messages)
    .set({ status, lastError: error })
    .where(and(eq(messages.providerId, sid), eq(messages.channel, 'sms'), eq(messages.status, 'sent')))
    .returning({ id: messages.id });
  return { updated: rows.length > 0 };
}
