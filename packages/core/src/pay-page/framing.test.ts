import { describe, expect, it } from 'vitest';
import { framingOrigins } from './framing.js';

describe('framingOrigins', () => {
  it("any origin in sandbox when the merchant set none; else the merchant's origins and the link's", () => {
    expect(framingOrigins('sandbox', [], null)).toEqual(['*']);
    expect(framingOrigins('sandbox', [], 'https://a.example')).toEqual(['*']);
    expect(framingOrigins('sandbox', ['https://a.example'], 'https://b.example')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(framingOrigins('sandbox', ['https://a.example'], 'https://a.example')).toEqual(['https://a.example']);
  });

  it("in production only the link's origin when the merchant set none, else no one", () => {
    expect(framingOrigins('production', [], null)).toEqual([]);
    expect(framingOrigins('production', [], 'https://b.example')).toEqual(['https://b.example']);
  });
});
