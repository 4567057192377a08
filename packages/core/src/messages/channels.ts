import type { Ctx } from '../context.js';
import type { Env } from '../environment.js';
import { RemitError } from '../errors.js';

export type Channel = 'sms' | 'email';

/** Which channels this server can deliver on: a transport is configured, or (sandbox) the inbox keeps them. */
export type Messaging = Record<Channel, boolean>;

/** Without transports: the sandbox inbox takes both; production can send neither. */
export const defaultMessaging = (env: Env): Messaging => ({ sms: env === 'sandbox', email: env === 'sandbox' });

export const channelName = (c: Channel) => (c === 'sms' ? 'SMS' : 'email');
const names = (cs: Channel[]) => cs.map(channelName).join(' and ');

/** Splits the channels a message is wanted on into those this server can send and those it cannot. */
export function deliverable(ctx: Pick<Ctx, 'messaging'>, wanted: Channel[]) {
  return { send: wanted.filter((c) => ctx.messaging[c]), unsent: wanted.filter((c) => !ctx.messaging[c]) };
}

/** A message is never reported sent when it was not: the answer names what was left unsent. */
export const unsentNote = (unsent: Channel[]) =>
  unsent.length === 0 ? '' : ` Not sent by ${names(unsent)}: this server has no ${names(unsent)} transport configured.`;

/** `what` cannot go out at all: 503 before anything is written. */
export function nothingSendable(what: string, wanted: Channel[]): RemitError {
  return new RemitError('messaging_unavailable', `This server has no ${names(wanted)} transport configured: the ${what} could not be sent, and nothing was created.`);
}
