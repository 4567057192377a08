import { describe, expect, it } from 'vitest';
import { ClaimLoop, PollLoop } from './poll-loop.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PollLoop wake-ups', () => {
  it('an idle loop woken runs its pass at once', async () => {
    const starts: number[] = [];
    const loop = new PollLoop(async () => (starts.push(performance.now()), false), {
      pollMs: 10_000,
      wakeGapMs: 50,
      failureMessage: 'x',
    });
    loop.start();
    await sleep(100); // the first pass is done; the loop sleeps its 10 s poll
    const woken = performance.now();
    loop.wake();
    await sleep(20);
    await loop.stop();
    expect(starts).toHaveLength(2);
    expect(starts[1]! - woken).toBeLessThan(15);
  });

  it('a stream of wake-ups runs passes no closer than the gap, and none is lost', async () => {
    const starts: number[] = [];
    const loop = new PollLoop(async () => (starts.push(performance.now()), await sleep(2), false), {
      pollMs: 10_000,
      wakeGapMs: 40,
      failureMessage: 'x',
    });
    loop.start();
    const until = performance.now() + 400;
    while (performance.now() < until) {
      loop.wake();
      await sleep(1);
    }
    await sleep(60);
    await loop.stop();
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    // Without the gap a wake-up every millisecond would run some 130 passes of 2 ms here.
    expect(starts.length).toBeGreaterThanOrEqual(6);
    expect(starts.length).toBeLessThanOrEqual(12);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(38);
    // The last wake-up's work was looked at: a pass began after it.
    expect(starts.at(-1)!).toBeGreaterThan(until - 45);
  });

  it('wake(true), the loop’s own backlog, does not wait for the gap, during a pass or asleep', async () => {
    const starts: number[] = [];
    const loop = new PollLoop(async () => (starts.push(performance.now()), await sleep(5), false), {
      pollMs: 10_000,
      wakeGapMs: 500,
      failureMessage: 'x',
    });
    loop.start();
    await sleep(1); // during the first pass
    loop.wake(true);
    await sleep(30);
    const woken = performance.now();
    loop.wake(true); // asleep, well inside the gap
    await sleep(30);
    await loop.stop();
    expect(starts).toHaveLength(3);
    expect(starts[1]! - starts[0]!).toBeLessThan(100);
    expect(starts[2]! - woken).toBeLessThan(15);
  });
});

describe('PollLoop stop', () => {
  it.each([
    ['a pass that finds nothing', false, false],
    ['a pass that was woken during it', false, true],
    ['a pass that throws', true, false],
  ])('stop() during %s returns when that pass ends, not after the poll', async (_name, throws, woken) => {
    let passes = 0;
    const loop = new PollLoop(
      async () => {
        passes++;
        await sleep(100);
        if (throws) throw new Error('down');
        return false;
      },
      { pollMs: 60_000, failureMessage: 'x' },
    );
    loop.start();
    await sleep(20); // inside the first pass
    if (woken) loop.wake(true);
    const stopping = performance.now();
    await loop.stop();
    expect(performance.now() - stopping).toBeLessThan(1_000);
    expect(passes).toBe(1);
  });
});

describe('ClaimLoop prefetch', () => {
  it('under a backlog every claim is a full batch, claimed while the last one is worked; slots are never exceeded', async () => {
    let backlog = 40;
    const asked: number[] = [];
    const finishers: Array<() => void> = [];
    let inFlight = 0;
    let most = 0;
    let handled = 0;
    const loop = new ClaimLoop<number>({
      claim: async (n) => {
        asked.push(n);
        const k = Math.min(n, backlog);
        backlog -= k;
        return Array.from({ length: k }, (_, i) => i);
      },
      handle: () =>
        new Promise<void>((resolve) => {
          most = Math.max(most, ++inFlight);
          finishers.push(() => (inFlight--, handled++, resolve()));
        }),
      concurrency: 4,
      prefetch: true,
      pollMs: 1_000,
      failureMessage: 'test',
    });
    loop.start();
    const tick = () => new Promise((r) => setTimeout(r, 5));
    // The first batch goes into the slots and the next is claimed before any item is done.
    await tick();
    expect(asked).toEqual([4, 4]);
    expect(inFlight).toBe(4);
    // Items finish one at a time: the waiting batch refills the slots, then a full batch is claimed.
    while (handled < 40) {
      finishers.shift()?.();
      await tick();
    }
    await loop.stop();
    expect(most).toBe(4);
    expect(asked.slice(0, 10)).toEqual(Array(10).fill(4));
  });
});

describe('ClaimLoop ready', () => {
  it('a waiting item that is not ready keeps its place while later ones take the free slots', async () => {
    // Owner a may have one item in flight; b any number. The claim returns a's two items first.
    let batch: string[] = ['a1', 'a2', 'b1', 'b2'];
    const started: string[] = [];
    const finishers = new Map<string, () => void>();
    const inFlight = new Set<string>();
    const loop = new ClaimLoop<string>({
      claim: async () => batch.splice(0),
      handle: (item) =>
        new Promise<void>((resolve) => {
          started.push(item);
          inFlight.add(item);
          finishers.set(item, () => (inFlight.delete(item), resolve()));
        }),
      ready: (item) => !item.startsWith('a') || ![...inFlight].some((i) => i.startsWith('a')),
      concurrency: 3,
      prefetch: true,
      pollMs: 1_000,
      failureMessage: 'test',
    });
    loop.start();
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await tick();
    expect(started).toEqual(['a1', 'b1', 'b2']);
    finishers.get('b1')!(); // a slot frees, but a1 is still in flight: a2 waits
    await tick();
    expect(started).toEqual(['a1', 'b1', 'b2']);
    finishers.get('a1')!();
    await tick();
    expect(started).toEqual(['a1', 'b1', 'b2', 'a2']);
    batch = [];
    for (const item of ['b2', 'a2']) finishers.get(item)!();
    await loop.stop();
  });
});
