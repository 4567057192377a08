/**
 * WCAG 2.2 contrast of two `#rrggbb` colours: relative luminance and the ratio between them
 * (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio). The one copy: the server checks an
 * appearance with it, the browser a per-page override.
 */

/** Text (1.4.3 AA) and non-text parts such as a focus ring (1.4.11). */
export const TEXT_CONTRAST = 4.5;
export const NON_TEXT_CONTRAST = 3;

/** Relative luminance of `#rrggbb`, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  let sum = 0;
  for (const [i, weight] of [
    [1, 0.2126],
    [3, 0.7152],
    [5, 0.0722],
  ] as const) {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    sum += weight * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }
  return sum;
}

/** Contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A ratio as people read it, never rounded up past a threshold: 4.49 is `4.4:1`, not `4.5:1`. */
export const formatRatio = (ratio: number): string => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;

/** Whichever of two candidate colours reads better on `background`. */
export const readableOn = (background: string, light = '#ffffff', dark = '#111827'): string =>
  contrast(background, light) >= contrast(background, dark) ? light : dark;

/** `a` mixed with `b`, `share` of `a` (0 to 1), channel by channel in sRGB. */
export function mix(a: string, b: string, share: number): string {
  let out = '#';
  for (const i of [1, 3, 5]) {
    const v = Math.round(parseInt(a.slice(i, i + 2), 16) * share + parseInt(b.slice(i, i + 2), 16) * (1 - share));
    out += v.toString(16).padStart(2, '0');
  }
  return out;
}
