import { describe, expect, it } from 'vitest';
import { exactOrigin, isLocalOrigin } from './origins.js';

describe('exactOrigin', () => {
  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['https://Shop.Example.COM:8443', 'https://shop.example.com:8443'],
    ['https://shop.example.com:443', 'https://shop.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('%s is the origin %s', (v, o) => expect(exactOrigin(v)).toBe(o));

  it.each([
    'https://shop.example.com/',
    'https://shop.example.com/pay',
    'https://shop.example.com?x=1',
    'https://shop.example.com#x',
    'https://user@shop.example.com',
    'https://user:pw@shop.example.com',
    'ftp://shop.example.com',
    'javascript:alert(1)',
    'data:text/html,x',
    'shop.example.com',
    '*',
    'null',
    '',
    'https://',
    `https://${'a'.repeat(300)}.com`,
    'https://shop example.com',
  ])('%s is not one exact origin', (v) => expect(exactOrigin(v)).toBeNull());
});

describe('isLocalOrigin', () => {
  it('is the developer machine only', () => {
    expect(isLocalOrigin('http://localhost:5173')).toBe(true);
    expect(isLocalOrigin('http://127.0.0.1')).toBe(true);
    expect(isLocalOrigin('http://localhost.example.com')).toBe(false);
    expect(isLocalOrigin('https://shop.example.com')).toBe(false);
  });
});
