/** At most this many characters of a receiver's answer are kept and shown in the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 200;

/**
 * The part of a receiver's answer the delivery log keeps and shows: text only (markup, control,
 * format and lone surrogate characters removed, whitespace runs made one space), at most
 * RESPONSE_EXCERPT_CHARS characters, a cut marked with `…`. Enough to see why a receiver refused;
 * too little to read a service through the log (a sandbox's webhook may point at one).
 */
export function responseExcerpt(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  const text = body
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<[/!?]?[A-Za-z][^>]*(?:>|$)/g, ' ')
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(text);
  return chars.length > RESPONSE_EXCERPT_CHARS ? `${chars.slice(0, RESPONSE_EXCERPT_CHARS - 1).join('')}…` : text;
}
