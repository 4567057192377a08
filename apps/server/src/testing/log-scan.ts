/** Collects what a server logs, line by line, for tests that read the log. */
export function logCapture() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    text: () => lines.join(''),
    entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown> & { level: number; msg?: string }),
  };
}

/** The sandbox test cards (docs/concepts.md "Test cards"), the example SSN and account numbers. */
const CARD =
  /\b(4242424242424242|5555555555554444|378282246310005|6011111111111117|4000000000000002|4000000000009995|4000000000000069|4000000000000127|4000000000003220)\b/;
const SSN = /\b\d{3}-\d{2}-\d{4}\b/;
const KEY = /\b(sk|mk)_(test|live)_[A-Za-z0-9_-]{8,}|whsec_[A-Za-z0-9+/=]{8,}/;

/**
 * Everything secret a log must never hold: test card numbers, SSNs, secret and merchant keys and
 * webhook secrets (by shape), plus the exact values given (account numbers, a date of birth…).
 * Returns what was found, empty when the log is clean.
 */
export function secretsIn(text: string, exact: string[] = []): string[] {
  const found: string[] = [];
  for (const re of [CARD, SSN, KEY]) {
    const m = re.exec(text);
    if (m) found.push(m[0]);
  }
  for (const v of exact) if (v && text.includes(v)) found.push(v);
  return found;
}
