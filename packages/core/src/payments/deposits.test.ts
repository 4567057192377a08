import { describe, expect, it } from 'vitest';
import { imageType } from './deposits.js';

describe('check images are recognized by content', () => {
  it.each([
    ['jpg', [0xff, 0xd8, 0xff, 0xe0, 0x00]],
    ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]],
    ['tif', [0x49, 0x49, 0x2a, 0x00, 0x08]],
    ['tif', [0x4d, 0x4d, 0x00, 0x2a, 0x00]],
  ])('%s', (ext, bytes) => {
    expect(imageType(Buffer.from(bytes))).toBe(ext);
  });

  it.each([
    ['PDF', Buffer.from('%PDF-1.7')],
    ['GIF', Buffer.from('GIF89a')],
    ['empty', Buffer.alloc(0)],
    ['short JPEG prefix', Buffer.from([0xff, 0xd8])],
  ])('refuses %s', (_n, data) => {
    expect(imageType(data)).toBeNull();
  });
});
