import type { Ctx } from '../context.js';
import { RemitError } from '../errors.js';
import type { Delivery } from './delivery.js';
import type { Channel } from './messaging.js';

export { defaultMessaging, type Channel, type Messaging } from './messaging.js';

export const channelName = (c: Channel) => (c === 'sms' ? 'SMS' : 'email');
const names = (cs: Channel[]) => cs.map(channelName).join(' and ');

/** Splits the channels a message is wanted on into those this server can send and those it cannot. */
export function deliverable(ctx: Pick<Ctx, 'messaging'>, wanted: Channel[]) {
  return { send: wanted.filter((c) => ctx.messaging[c]), unsent: wanted.filter((c) => !ctx.messaging[c]) };
}

/** A message is never reported sent when it was not: the answer names what was left unsent. */
export const unsentNote = (unsent: Channel[]) =>
  unsent.length === 0 ? '' : ` Not sent by ${names(unsent)}: this server has no ${names(unsent)} transport configured.`;

/** After "… sent by SMS.": the messages not yet sent, or refused, and why. */
export function deliveryNote(d: Pick<Delivery, 'queued' | 'failed'>): string {
  const failed = d.failed.map((f) => ` The ${channelName(f.channel)} could not be sent: ${f.error}`);
  const queued = d.queued.map((q) =>
    q.error === null
      ? ` The ${channelName(q.channel)} is queued: the provider has not answered yet.`
      : ` The ${channelName(q.channel)} is queued and will be tried again (first try: ${q.error}).`,
  );
  return [...failed, ...queued].map((t) => (/[.!?]$/.test(t) ? t : `${t}.`)).join('');
}

/** `what` cannot go out at all: 503 before anything is written. */
export function nothingSendable(what: string, wanted: Channel[]): RemitError {
  return new RemitError(
    'messaging_unavailable',
    `This server has no ${names(wanted)} transport configured: the ${what} could not be sent, and nothing was created.`,
  );
}
