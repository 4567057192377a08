/**
 * The card network and ACH provider sit behind this interface. The sandbox simulator is the
 * one shipped; a production connector implements the same calls.
 */
export type CardBrand = 'Visa' | 'Mastercard' | 'Amex' | 'Discover';

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  /** Checked by the network, never stored. */
  cvc?: string;
}

export type AuthorizeResult =
  | { approved: true; authCode: string; gatewayRef: string }
  | { approved: false; code: string; message: string; gatewayRef: string };

export interface BankDebitInput {
  routingNumber: string;
  accountNumber: string;
  amountCents: number;
}

export interface Processor {
  readonly name: string;
  /**
   * Authorize (and, with capture, settle-ready charge) an amount on a card. A card that needs
   * 3-D Secure declines with code `authentication_required` until `authenticated` says the
   * customer completed the challenge.
   */
  authorizeCard(card: CardInput, amountCents: number, opts: { capture: boolean; now: Date; authenticated?: boolean }): Promise<AuthorizeResult>;
  /** Start an ACH debit; it stays pending until the bank approves or returns it. */
  startAchDebit(input: BankDebitInput): Promise<{ gatewayRef: string }>;
  /** What the bank will answer for this debit when it is resolved (sandbox: by account number). */
  achOutcome(accountNumber: string): { approved: true } | { approved: false; code: string; message: string };
  /** Checks a card number before it is stored; null when acceptable, else the reason. */
  checkCardNumber(number: string): string | null;
}
