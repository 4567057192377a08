import { expect, it } from 'vitest';
import { Coalescer } from './coalesce.js';

/** A send that waits until released, recording each batch's size. */
function gate() {
  const sizes: number[] = [];
  const releases: Array<(fail?: Error) => void> = [];
  const send = (n: number) => {
    const batch = sizes.push(n) - 1;
    return new Promise<number[]>((resolve, reject) => {
      releases.push((fail) => (fail ? reject(fail) : resolve(Array.from({ length: n }, (_, i) => batch * 100 + i))));
    });
  };
  return { sizes, send, release: (i: number, fail?: Error) => releases[i]!(fail) };
}
const tick = () => new Promise((r) => setImmediate(r));

it('sends a lone call at once, and joins the calls made while it is in flight into the next send, each with its own result in order', async () => {
  const c = new Coalescer<number>();
  const g = gate();
  const first = c.call('k', g.send);
  expect(g.sizes).toEqual([1]);
  const rest = [c.call('k', g.send), c.call('k', g.send), c.call('k', g.send)];
  await tick();
  expect(g.sizes).toEqual([1]);
  g.release(0);
  expect(await first).toBe(0);
  expect(g.sizes).toEqual([1, 3]);
  g.release(1);
  expect(await Promise.all(rest)).toEqual([100, 101, 102]);
  expect(c.inFlight).toBe(0);
});

it('keeps keys apart: another key is sent at once beside one in flight', async () => {
  const c = new Coalescer<number>();
  const g = gate();
  const a = c.call('a', g.send);
  const b = c.call('b', g.send);
  expect(g.sizes).toEqual([1, 1]);
  expect(c.inFlight).toBe(2);
  g.release(0);
  g.release(1);
  expect([await a, await b]).toEqual([0, 100]);
});

it('a failed send fails every call of its batch, and the calls that came meanwhile are still sent', async () => {
  const c = new Coalescer<number>();
  const g = gate();
  const first = [c.call('k', g.send)];
  const second = c.call('k', g.send);
  first.push(c.call('k', g.send));
  g.release(0, new Error('connection lost'));
  await expect(first[0]).rejects.toThrow('connection lost');
  expect(g.sizes).toEqual([1, 2]);
  g.release(1);
  expect(await second).toBe(100);
  expect(await first[1]).toBe(101);
});

it('a send that throws instead of rejecting fails its calls and frees the key', async () => {
  const c = new Coalescer<number>();
  await expect(
    c.call('k', () => {
      throw new Error('bad statement');
    }),
  ).rejects.toThrow('bad statement');
  expect(c.inFlight).toBe(0);
  expect(await c.call('k', async (n) => Array(n).fill(7))).toBe(7);
});
