import twilio from 'twilio';
import { RejectedMessageError, type SmsConnector } from './sms.js';

/** The path Twilio posts a message's delivery status to (its `StatusCallback`), under PUBLIC_URL. */
export const TWILIO_STATUS_PATH = '/twilio/status';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or alphanumeric sender id; or else `messagingServiceSid`. */
  from?: string;
  messagingServiceSid?: string;
  /** Another base than https://api.twilio.com (an emulator in tests). */
  apiUrl?: string;
}

/**
 * `TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN`, `TWILIO_FROM` or `TWILIO_MESSAGING_SERVICE_SID`, and
 * `REMIT_TWILIO_API_URL`. Null when none is set; a partial set is an error (SMS would silently not go).
 */
export function twilioSettingsFromEnv(env: Record<string, string | undefined>): TwilioSettings | null {
  const v = (name: string) => env[name]?.trim() || undefined;
  const accountSid = v('TWILIO_ACCOUNT_SID');
  const authToken = v('TWILIO_AUTH_TOKEN');
  const from = v('TWILIO_FROM');
  const messagingServiceSid = v('TWILIO_MESSAGING_SERVICE_SID');
  const apiUrl = v('REMIT_TWILIO_API_URL');
  if (!accountSid && !authToken && !from && !messagingServiceSid) return null;
  if (!accountSid || !authToken)
    throw new Error('TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must both be set to send SMS through Twilio');
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid))
    throw new Error('TWILIO_ACCOUNT_SID must be an account SID (AC followed by 32 hex digits)');
  if (!from && !messagingServiceSid)
    throw new Error('set TWILIO_FROM (the sending number) or TWILIO_MESSAGING_SERVICE_SID');
  if (messagingServiceSid && !/^MG[0-9a-fA-F]{32}$/.test(messagingServiceSid)) {
    throw new Error('TWILIO_MESSAGING_SERVICE_SID must be a messaging service SID (MG followed by 32 hex digits)');
  }
  if (apiUrl && !URL.canParse(apiUrl)) throw new Error(`REMIT_TWILIO_API_URL is not a URL: ${apiUrl}`);
  return { accountSid, authToken, from, messagingServiceSid, apiUrl };
}

type RequestOptions<T> = Parameters<twilio.RequestClient['request']>[0] & { data?: T };

/** The SDK's own HTTP client, with every request sent to `base` instead of Twilio's hosts. */
class BaseUrlClient extends twilio.RequestClient {
  readonly #base: string;
  constructor(base: string) {
    super();
    this.#base = base.replace(/\/+$/, '');
  }
  override request<TData>(opts: RequestOptions<TData>) {
    const u = new URL(opts.uri);
    return super.request<TData>({ ...opts, uri: `${this.#base}${u.pathname}${u.search}` });
  }
}

interface TwilioFailure {
  status?: number;
  code?: number;
  message?: string;
  moreInfo?: string;
}

/**
 * Twilio's answer to a create that failed. A 4xx other than 401, 403 and 429 is about this
 * message (21211 an invalid number, 21610 an opted-out one): trying again cannot help.
 */
function failure(err: unknown): Error {
  const e = err as TwilioFailure;
  if (typeof e?.status !== 'number') return err as Error;
  const text = `Twilio error ${e.code ?? e.status}: ${e.message ?? 'request failed'}`;
  const permanent = e.status >= 400 && e.status < 500 && ![401, 403, 429].includes(e.status);
  return permanent ? new RejectedMessageError(text) : new Error(text);
}

/** SMS through Twilio's Messages API with the official SDK; delivery reports come back at TWILIO_STATUS_PATH. */
export function twilioConnector(s: TwilioSettings): SmsConnector {
  const client = twilio(s.accountSid, s.authToken, { httpClient: s.apiUrl ? new BaseUrlClient(s.apiUrl) : undefined });
  return {
    name: 'twilio',
    async send(to, text, opts) {
      try {
        const m = await client.messages.create({
          to,
          body: text,
          ...(s.messagingServiceSid ? { messagingServiceSid: s.messagingServiceSid } : { from: s.from! }),
          ...(opts?.publicUrl ? { statusCallback: `${opts.publicUrl}${TWILIO_STATUS_PATH}` } : {}),
        });
        return { id: m.sid };
      } catch (err) {
        throw failure(err);
      }
    },
  };
}

/** Twilio's X-Twilio-Signature over the callback's full URL and its form parameters. */
export function validTwilioSignature(
  authToken: string,
  signature: string,
  url: string,
  params: Record<string, string>,
): boolean {
  return signature !== '' && twilio.validateRequest(authToken, signature, url, params);
}
