/** A card for the sandbox's simulated network. */
export interface TestCard {
  number: string;
  /** `MM/YY`, as typed into the expiry field. */
  expiry: string;
  cvc: string;
  zip: string;
}

const expiry = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
const card = (number: string): TestCard => ({ number, expiry, cvc: '123', zip: '94105' });

/** The sandbox's test cards (docs/testing.md): what the simulated network answers for each. */
export const testCards = {
  /** Approved (Visa). */
  success: card('4242424242424242'),
  /** Declined: "Your card was declined." */
  decline: card('4000000000000002'),
  /** Asks for a 3-D Secure challenge; approved once it is passed. */
  threeDSecure: card('4000000000003220'),
  /** Declined: "Your card has insufficient funds." */
  insufficientFunds: card('4000000000009995'),
  /** Approved (Mastercard). */
  mastercard: card('5555555555554444'),
} as const satisfies Record<string, TestCard>;
