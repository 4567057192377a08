import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { send, type HttpResponse } from './http.js';

/**
 * Twilio's Messages API as its wire shows it, for tests: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`
 * with a form body and HTTP Basic (account SID and auth token), answered with a Message resource
 * (201, status `queued`) or one of Twilio's errors `{code, message, more_info, status}`. It then
 * posts signed status callbacks (X-Twilio-Signature) to the message's StatusCallback on demand.
 * Written from Twilio's documentation, apart from the SDK, so that the server is tested against
 * the wire and not against itself.
 */

/** Twilio's test number that is not a valid phone number (21211). */
export const TWILIO_INVALID_NUMBER = '+15005550001';

export interface EmulatedMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
}

export interface TwilioEmulator {
  url: string;
  accountSid: string;
  authToken: string;
  /** Every message accepted, in order. */
  messages: EmulatedMessage[];
  /** Every create request, accepted or not: its form fields. */
  requests: Array<Record<string, string>>;
  /**
   * Posts `MessageStatus` for a message to its StatusCallback, signed as Twilio signs (with
   * `signWith`, default the account's auth token). Answers the server's response.
   */
  report(
    sid: string,
    status: string,
    opts?: { errorCode?: string; signWith?: string; signature?: string },
  ): Promise<HttpResponse>;
  close(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');

/** Twilio's signature: base64 HMAC-SHA1 of the URL followed by each parameter's name and value, sorted by name. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

function twilioError(res: ServerResponse, status: number, code: number, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

export async function startTwilioEmulator(): Promise<TwilioEmulator> {
  const accountSid = `AC${hex(16)}`;
  const authToken = hex(16);
  const messages: EmulatedMessage[] = [];
  const requests: Array<Record<string, string>> = [];

  const server = createServer(async (req, res) => {
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (!m || req.method !== 'POST') return twilioError(res, 404, 20404, 'The requested resource was not found');
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return twilioError(res, 401, 20003, 'Authenticate');
    if (m[1] !== accountSid)
      return twilioError(
        res,
        404,
        20404,
        `The requested resource /2010-04-01/Accounts/${m[1]}/Messages.json was not found`,
      );
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return twilioError(res, 400, 20001, 'Unsupported content type');
    }
    const form = await readForm(req);
    requests.push(form);
    const { To: to, From: from, MessagingServiceSid: service, Body: body, StatusCallback: statusCallback } = form;
    if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
    if (!from && !service) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
    if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
    if (to === TWILIO_INVALID_NUMBER || !/^\+[1-9]\d{7,14}$/.test(to)) {
      return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    }
    const sid = `SM${hex(16)}`;
    messages.push({
      sid,
      to,
      from: from ?? null,
      messagingServiceSid: service ?? null,
      body,
      statusCallback: statusCallback ?? null,
    });
    const now = new Date().toUTCString().replace('GMT', '+0000');
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        account_sid: accountSid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: from ?? null,
        messaging_service_sid: service ?? null,
        num_media: '0',
        num_segments: String(Math.ceil(body.length / 160)),
        price: null,
        price_unit: 'USD',
        sid,
        status: from ? 'queued' : 'accepted',
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    accountSid,
    authToken,
    messages,
    requests,
    report(sid, status, opts = {}) {
      const msg = messages.find((x) => x.sid === sid);
      if (!msg?.statusCallback) throw new Error(`no message ${sid} with a StatusCallback`);
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        From: msg.from ?? '',
        MessageSid: sid,
        MessageStatus: status,
        SmsSid: sid,
        SmsStatus: status,
        To: msg.to,
        ...(msg.messagingServiceSid ? { MessagingServiceSid: msg.messagingServiceSid } : {}),
        ...(opts.errorCode ? { ErrorCode: opts.errorCode } : {}),
      };
      const signature = opts.signature ?? twilioSignature(opts.signWith ?? authToken, msg.statusCallback, params);
      return send({
        method: 'POST',
        url: msg.statusCallback,
        form: params,
        headers: { 'x-twilio-signature': signature, 'user-agent': 'TwilioProxy/1.1' },
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
