import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announce } from './announce.js';

describe('announce', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    document.body.innerHTML = '<div id="live" aria-live="polite">old</div>';
  });
  afterEach(() => vi.useRealTimers());

  it('empties the live region at once, then says the text', () => {
    const live = document.getElementById('live')!;
    announce('Card saved');
    expect(live.textContent).toBe('');
    vi.advanceTimersByTime(60);
    expect(live.textContent).toBe('Card saved');
  });

  it('says the same text again when asked twice', () => {
    const live = document.getElementById('live')!;
    announce('Copied');
    vi.advanceTimersByTime(60);
    announce('Copied');
    expect(live.textContent).toBe('');
    vi.advanceTimersByTime(60);
    expect(live.textContent).toBe('Copied');
  });

  it('does nothing on a page without a live region', () => {
    document.body.innerHTML = '';
    expect(() => announce('Saved')).not.toThrow();
  });
});
