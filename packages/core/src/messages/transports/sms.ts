/**
 * An SMS provider. None ships with Remit: an operator plugs one in (Twilio, Vonage, …) by
 * implementing this and passing it to the message dispatcher. Without one, sandbox messages stay
 * in the sandbox inbox (`GET /sandbox/messages`).
 */
export interface SmsConnector {
  readonly name: string;
  /** Sends `text` to an E.164 number; resolves with the provider's id, rejects on failure. */
  send(to: string, text: string): Promise<{ id?: string }>;
}

/** Status of a message the sandbox kept instead of sending (no transport configured). */
export const SANDBOX_INBOX_STATUS = 'delivered_to_inbox';
