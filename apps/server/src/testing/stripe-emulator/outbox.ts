import type Stripe from 'stripe';

/** What the outbox did with one event. */
export interface Delivery {
  event: Stripe.Event;
  /** HTTP status the endpoint answered; 0: unreachable; 'dropped' / 'held': a test control kept it back. */
  outcome: number | 'dropped' | 'held';
}

/** The object an event is about (a PaymentIntent, SetupIntent, charge…): test controls pick events by it. */
export const subjectsOf = (event: Stripe.Event): string[] => {
  const o = event.data.object as { id?: string };
  return typeof o.id === 'string' ? [o.id] : [];
};

/**
 * Stripe's event delivery to one webhook endpoint: every event the emulator makes is kept (as
 * Stripe's /v1/events keeps them) and, once an endpoint is set, POSTed to it signed, one at a time
 * in order. Tests may drop the next events about an object ("Stripe's event lost") or hold them
 * and send them late.
 */
export class Outbox {
  endpoint: string | null = null;
  readonly events: Stripe.Event[] = [];
  readonly deliveries: Delivery[] = [];
  private rules: { subject: string; mode: 'drop' | 'hold'; count: number }[] = [];
  private held: Stripe.Event[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly sign: (payload: string) => string) {}

  publish(event: Stripe.Event): Stripe.Event {
    this.events.push(event);
    const subjects = subjectsOf(event);
    const rule = this.rules.find((r) => r.count > 0 && subjects.includes(r.subject));
    if (rule) {
      rule.count--;
      if (rule.mode === 'hold') this.held.push(event);
      this.deliveries.push({ event, outcome: rule.mode === 'drop' ? 'dropped' : 'held' });
      return event;
    }
    if (this.endpoint) this.send(event);
    return event;
  }

  drop(subject: string, count: number) {
    this.rules.push({ subject, mode: 'drop', count });
  }

  hold(subject: string, count: number) {
    this.rules.push({ subject, mode: 'hold', count });
  }

  /** Sends the held events about `subject` now (all held ones without a subject); resolves once delivered. */
  async sendLate(subject?: string): Promise<Stripe.Event[]> {
    const due = this.held.filter((e) => subject === undefined || subjectsOf(e).includes(subject));
    this.held = this.held.filter((e) => !due.includes(e));
    for (const e of due) this.send(e);
    await this.settled();
    return due;
  }

  /** Resolves when every event published so far has been answered by the endpoint. */
  settled(): Promise<void> {
    return this.chain;
  }

  private send(event: Stripe.Event) {
    const endpoint = this.endpoint;
    if (!endpoint) return;
    this.chain = this.chain.then(async () => {
      const payload = JSON.stringify(event);
      let outcome = 0;
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': this.sign(payload) },
          body: payload,
        });
        outcome = res.status;
        await res.arrayBuffer();
      } catch {
        // Unreachable: Stripe would retry later; a test sees outcome 0 and may send it again.
      }
      this.deliveries.push({ event, outcome });
    });
  }
}
