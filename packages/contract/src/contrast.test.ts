import { describe, expect, it } from 'vitest';
import { contrast, formatRatio, luminance, mix, readableOn } from './contrast.js';

describe('contrast (WCAG 2.2 relative luminance)', () => {
  it('gives the extremes and known pairs', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    // The grey that just passes AA on white, in either order.
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrast('#ffffff', '#767676')).toBeCloseTo(4.54, 2);
    expect(contrast('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('never rounds a ratio up past a threshold', () => {
    expect(formatRatio(4.499)).toBe('4.4:1');
    expect(formatRatio(2.15)).toBe('2.1:1');
    expect(formatRatio(21)).toBe('21.0:1');
  });

  it('picks the text colour that reads better and mixes colours', () => {
    expect(readableOn('#1d4ed8')).toBe('#ffffff');
    expect(readableOn('#ffd400')).toBe('#111827');
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mix('#1d4ed8', '#ffffff', 1)).toBe('#1d4ed8');
  });
});
