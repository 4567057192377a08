import { describe, expect, it } from 'vitest';
import { RESPONSE_EXCERPT_CHARS, responseExcerpt } from './response-excerpt.js';

describe('responseExcerpt', () => {
  it('keeps a short text or JSON answer as it is', () => {
    expect(responseExcerpt('{"received":true}')).toBe('{"received":true}');
    expect(responseExcerpt('ok')).toBe('ok');
    expect(responseExcerpt('')).toBe('');
    expect(responseExcerpt(null)).toBeNull();
  });

  it('removes markup, scripts, styles and comments, leaving the text', () => {
    const html =
      '<!doctype html><html><head><style>b{color:red}</style><script>steal()</script></head><body><!-- x --><h1>Forbidden</h1><p>No&nbsp;access</p></body></html>';
    expect(responseExcerpt(html)).toBe('Forbidden No&nbsp;access');
  });

  it('removes control, format and lone surrogate characters and folds whitespace', () => {
    expect(responseExcerpt('a\u0000b\u001b[31mc\u202ed\r\n\t e\ud800')).toBe('a b [31mc d e');
  });

  it(`cuts at ${RESPONSE_EXCERPT_CHARS} characters, counting a character outside the BMP as one`, () => {
    const cut = responseExcerpt('😀'.repeat(500))!;
    expect(Array.from(cut)).toHaveLength(RESPONSE_EXCERPT_CHARS);
    expect(cut.endsWith('😀…')).toBe(true);
    expect(responseExcerpt('x'.repeat(RESPONSE_EXCERPT_CHARS))).toBe('x'.repeat(RESPONSE_EXCERPT_CHARS));
  });

  it('is stable: an excerpt is its own excerpt', () => {
    const once = responseExcerpt(`<p>${'word '.repeat(100)}</p>`);
    expect(responseExcerpt(once)).toBe(once);
  });
});
