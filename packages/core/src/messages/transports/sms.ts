/**
 * An SMS provider: Twilio ships (twilio.ts); another (Vonage, …) plugs in by implementing this and
 * passing it to the message dispatcher. Without one, sandbox messages stay in the sandbox inbox
 * (`GET /sandbox/messages`).
 */
export interface SmsConnector {
  readonly name: string;
  /**
   * Sends `text` to an E.164 number; resolves with the provider's id, rejects on failure
   * (RejectedMessageError when trying again cannot help). `publicUrl`: where the provider can
   * report delivery.
   */
  send(to: string, text: string, opts?: { publicUrl: string }): Promise<{ id?: string }>;
}

/** The provider refused this message for good (an invalid number): it fails now, without retries. */
export class RejectedMessageError extends Error {
  override name = 'RejectedMessageError';
}

/** Status of a message the sandbox kept instead of sending (no transport configured). */
export const SANDBOX_INBOX_STATUS = 'delivered_to_inbox';
