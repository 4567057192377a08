import { randomInt } from 'node:crypto';
import { newId } from '../ids.js';
import { EXPIRY_PAST, expiryProblem, luhnValid } from '@remit/contract';
import type { AuthorizeResult, Processor } from './connector.js';

/** The sandbox test cards (docs/concepts.md "Test cards") and what the simulated network answers for each. */
export const TEST_CARDS: Record<
  string,
  { outcome: 'approve' } | { outcome: 'decline'; code: string; message: string }
> = {
  '4242424242424242': { outcome: 'approve' },
  '5555555555554444': { outcome: 'approve' },
  '378282246310005': { outcome: 'approve' },
  '6011111111111117': { outcome: 'approve' },
  '4000000000000002': { outcome: 'decline', code: 'card_declined', message: 'Your card was declined.' },
  '4000000000009995': { outcome: 'decline', code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000000069': { outcome: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { outcome: 'decline', code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000000000003220': {
    outcome: 'decline',
    code: 'authentication_required',
    message: 'This card requires 3-D Secure authentication; complete it on the hosted pay page.',
  },
};

/** The decline code of a card that needs a 3-D Secure challenge first. */
export const AUTHENTICATION_REQUIRED = 'authentication_required';

const TEST_CARD_LIST = Object.keys(TEST_CARDS).join(', ');

const authCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * The sandbox network: test cards decide authorizations; capture, cancel, refund and increment
 * always succeed (the database already holds every rule), so they only answer.
 */
export function createSimulator(): Processor {
  return {
    name: 'simulator',
    bookkeepingOnly: true,
    checkCardNumber(number) {
      if (!luhnValid(number)) return 'Card number is not valid (Luhn check failed).';
      if (!(number in TEST_CARDS)) return `Only sandbox test cards are accepted: ${TEST_CARD_LIST}.`;
      return null;
    },
    async authorizeCard(card, _amount, { now, authenticated }): Promise<AuthorizeResult> {
      const gatewayRef = newId.gatewayRef();
      // The simulator keeps no cards (tokenizeCard answers null), so it is always given a number.
      if (!('number' in card))
        return { approved: false, code: 'card_declined', message: 'Your card was declined.', gatewayRef };
      const rule = TEST_CARDS[card.number];
      if (!rule) return { approved: false, code: 'card_declined', message: 'Your card was declined.', gatewayRef };
      const passed3ds = authenticated && rule.outcome === 'decline' && rule.code === AUTHENTICATION_REQUIRED;
      if (rule.outcome === 'decline' && !passed3ds)
        return { approved: false, code: rule.code, message: rule.message, gatewayRef };
      if (expiryProblem(card.expMonth, card.expYear, now) === EXPIRY_PAST)
        return { approved: false, code: 'expired_card', message: 'Your card has expired.', gatewayRef };
      return { approved: true, authCode: authCode(), gatewayRef };
    },
    async capture() {},
    async cancel() {},
    async refund() {},
    async incrementAuthorization() {
      return { approved: true };
    },
    async startAchDebit() {
      return { gatewayRef: newId.gatewayRef() };
    },
    async tokenizeCard() {
      return null;
    },
  };
}
