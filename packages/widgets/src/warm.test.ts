import { afterEach, describe, expect, it } from 'vitest';
import { takeWarmFrame, warmOnIntent, warmPayFrame } from './warm.js';

const BASE = 'https://remit.test';
const frames = () => [...document.querySelectorAll('iframe')];

afterEach(() => {
  document.body.innerHTML = '';
  (globalThis as { innerWidth: number }).innerWidth = 1024;
});

describe('warming the pay frame', () => {
  it('one hidden, unfocusable frame on /pay/preload per page, however often it is asked', () => {
    warmPayFrame(BASE);
    warmPayFrame(BASE);
    expect(frames().map((f) => [f.src, f.style.display, f.tabIndex, f.getAttribute('aria-hidden')])).toEqual([
      [`${BASE}/pay/preload`, 'none', -1, 'true'],
    ]);
  });

  it('not on a narrow screen (the pay page opens in a popup, another cache partition)', () => {
    (globalThis as { innerWidth: number }).innerWidth = 400;
    warmPayFrame(BASE);
    expect(frames()).toEqual([]);
  });

  it('waits for intent: focus on a button warms, focus on a paragraph does not', () => {
    document.body.innerHTML = '<p tabindex="0">Text</p><button>Pay</button>';
    warmOnIntent(BASE);
    expect(frames()).toEqual([]);
    document.querySelector('p')!.focus();
    expect(frames()).toEqual([]);
    document.querySelector('button')!.focus();
    expect(frames().map((f) => f.src)).toEqual([`${BASE}/pay/preload`]);
  });

  it('warms at once when a button already has the focus (the intent that loaded the chunk)', () => {
    document.body.innerHTML = '<button>Pay</button>';
    document.querySelector('button')!.focus();
    warmOnIntent(BASE);
    expect(frames()).toHaveLength(1);
  });
});

describe('taking the warm frame for the pay modal', () => {
  it('hands the frame over once (the next intent warms another), only while it is on the page and where moveBefore keeps it loaded', () => {
    const proto = Element.prototype as unknown as { moveBefore?: unknown };
    const had = 'moveBefore' in proto;
    proto.moveBefore ??= () => {};
    try {
      warmPayFrame(BASE);
      const first = frames()[0]!;
      // With the origin it was loaded from: the pay modal posts the link there, whatever the link's own address.
      expect(takeWarmFrame()).toMatchObject({ frame: first, origin: BASE });
      expect(takeWarmFrame()).toBeNull();
      warmPayFrame(BASE);
      expect(frames()).toHaveLength(2);
      frames()[1]!.remove();
      expect(takeWarmFrame()).toBeNull();
    } finally {
      if (!had) delete proto.moveBefore;
    }
    warmPayFrame(BASE);
    if (!had) expect(takeWarmFrame()).toBeNull(); // no moveBefore: the modal navigates a new frame as before
  });
});
