import type { Env } from '../environment.js';

export type Channel = 'sms' | 'email';

/** Which channels this server can deliver on: a transport is configured, or (sandbox) the inbox keeps them. */
export interface Messaging {
  sms: boolean;
  email: boolean;
  /**
   * The channels that go out through a real provider (Twilio, SMTP): an answer that sends on them
   * waits for the first try (first-try.ts), so that it says whether the message went.
   */
  providers?: Channel[];
}

/** Without transports: the sandbox inbox takes both; production can send neither. */
export const defaultMessaging = (env: Env): Messaging => ({ sms: env === 'sandbox', email: env === 'sandbox' });
