import { describe, expect, it } from 'vitest';
import { inkFor } from './theme.js';

describe('inkFor', () => {
  it('writes white on dark brand colours and near-black on light ones', () => {
    expect(inkFor('#1d4ed8')).toBe('#ffffff');
    expect(inkFor('#000000')).toBe('#ffffff');
    expect(inkFor('#ffd400')).toBe('#111827');
    expect(inkFor('#ffffff')).toBe('#111827');
  });
});
