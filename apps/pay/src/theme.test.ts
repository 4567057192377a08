// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { linkAppearance } from './theme.js';

describe('linkAppearance', () => {
  afterEach(() => {
    for (const l of document.head.querySelectorAll('link')) l.remove();
  });

  it("links the merchant's stylesheet once, and nothing for the default look", () => {
    linkAppearance(null);
    expect(document.head.querySelector('link')).toBeNull();
    linkAppearance('/pay/appearance.css?theme=night');
    linkAppearance('/pay/appearance.css?theme=night');
    const links = document.head.querySelectorAll('link[data-appearance]');
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('rel')).toBe('stylesheet');
    expect(links[0]!.getAttribute('href')).toBe('/pay/appearance.css?theme=night');
  });

  it('leaves the one the server rendered in the head', () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      '<link rel="stylesheet" href="/pay/appearance.css?theme=flat" data-appearance>',
    );
    linkAppearance('/pay/appearance.css?theme=night');
    expect([...document.head.querySelectorAll('link')].map((l) => l.getAttribute('href'))).toEqual([
      '/pay/appearance.css?theme=flat',
    ]);
  });
});
