import {
  AUTHENTICATION_REQUIRED,
  createSimulator,
  OutcomeUnknown,
  type AuthorizeResult,
  type Processor,
} from '@remit/core';
import { FORCED_OUTCOMES, type ForcedOutcome } from './outcomes.js';

type CardOutcome = Exclude<ForcedOutcome, 'ach_return'>;

const DECLINES: Record<'decline' | 'insufficient_funds', { code: string; message: string }> = {
  decline: { code: 'card_declined', message: 'Your card was declined.' },
  insufficient_funds: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

/**
 * The sandbox simulator with a queue of forced outcomes in front of it: card outcomes apply to the
 * next card authorization, `ach_return` to the next ACH debit (`onAchReturn` is told its reference).
 */
export function forcingSimulator(onAchReturn: (gatewayRef: string) => void) {
  const sim = createSimulator();
  const card: CardOutcome[] = [];
  let achReturns = 0;
  /** A `3ds_failure` whose challenge was asked for: the authenticated attempt that follows declines. */
  let challenged = false;
  const processor: Processor = {
    ...sim,
    async authorizeCard(input, amount, opts): Promise<AuthorizeResult> {
      const gatewayRef = `sim_forced_${Math.random().toString(36).slice(2, 12)}`;
      if (challenged && opts.authenticated) {
        challenged = false;
        return {
          approved: false,
          code: 'authentication_failed',
          message: '3-D Secure authentication failed.',
          gatewayRef,
        };
      }
      const forced = card.shift();
      if (forced === 'decline' || forced === 'insufficient_funds')
        return { approved: false, ...DECLINES[forced], gatewayRef };
      if (forced === 'timeout')
        throw new OutcomeUnknown(new Error('The processor did not answer in time (forced by sandbox.fail).'));
      if (forced === '3ds_failure') {
        challenged = true;
        if (opts.authenticated) {
          challenged = false;
          return {
            approved: false,
            code: 'authentication_failed',
            message: '3-D Secure authentication failed.',
            gatewayRef,
          };
        }
        return {
          approved: false,
          code: AUTHENTICATION_REQUIRED,
          message: 'This card requires 3-D Secure authentication; complete it on the hosted pay page.',
          gatewayRef,
        };
      }
      return sim.authorizeCard(input, amount, opts);
    },
    async startAchDebit(input) {
      const started = await sim.startAchDebit(input);
      if (achReturns > 0) {
        achReturns--;
        onAchReturn(started.gatewayRef);
      }
      return started;
    },
  };
  return {
    processor,
    force(outcome: ForcedOutcome) {
      if (!FORCED_OUTCOMES.includes(outcome))
        throw new RangeError(`Unknown outcome ${JSON.stringify(outcome)}; one of ${FORCED_OUTCOMES.join(', ')}`);
      if (outcome === 'ach_return') achReturns++;
      else card.push(outcome);
    },
    /** What is still queued: the card outcomes in order, then the bank returns. */
    queued: (): ForcedOutcome[] => [...card, ...Array<ForcedOutcome>(achReturns).fill('ach_return')],
    clear() {
      card.length = 0;
      achReturns = 0;
      challenged = false;
    },
  };
}
