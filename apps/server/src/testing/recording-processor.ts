import { createSimulator, type Processor } from '@remit/core';

export interface ProcessorCall {
  call: string;
  idempotencyKey: string;
  gatewayRef?: string;
  amountCents?: number;
}

/**
 * The simulator, but remote as far as the core can tell (`bookkeepingOnly` false), recording each
 * call; `failNext(call)` makes the next such call throw after it is recorded, as a processor that
 * moved the money and then lost the connection (or a crash just after) would look.
 */
export function recordingProcessor() {
  const sim = createSimulator();
  const calls: ProcessorCall[] = [];
  const failing = new Set<string>();
  const record = (call: string, input: { idempotencyKey: string; gatewayRef?: string; amountCents?: number }) => {
    calls.push({
      call,
      idempotencyKey: input.idempotencyKey,
      gatewayRef: input.gatewayRef,
      amountCents: input.amountCents,
    });
    if (failing.delete(call)) throw new Error(`simulated failure after ${call}`);
  };
  const processor: Processor = {
    name: 'simulator',
    bookkeepingOnly: false,
    checkCardNumber: (n) => sim.checkCardNumber(n),
    async authorizeCard(card, amountCents, opts) {
      const result = await sim.authorizeCard(card, amountCents, opts);
      record('authorize', { ...opts, gatewayRef: result.gatewayRef, amountCents });
      return result;
    },
    async capture(input) {
      record('capture', input);
    },
    async cancel(input) {
      record('cancel', input);
    },
    async refund(input) {
      record('refund', input);
    },
    async incrementAuthorization(input) {
      record('increment', input);
      return { approved: true };
    },
    async startAchDebit(input) {
      const result = await sim.startAchDebit(input);
      record('ach_debit', { ...input, gatewayRef: result.gatewayRef });
      return result;
    },
    async tokenizeCard(card, opts) {
      record('tokenize', opts);
      return sim.tokenizeCard(card, opts);
    },
  };
  return { processor, calls, failNext: (call: string) => failing.add(call) };
}
