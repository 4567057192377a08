/**
 * A query string or form body value whose percent-encoding is not UTF-8 (`%FF`, or `%ED%A0%80`,
 * a UTF-16 surrogate spelled in bytes). The input guard answers 400 naming the field; no route
 * ever sees one.
 */
export class MalformedText {
  constructor(readonly raw: string) {}
}

function decode(s: string): string | MalformedText {
  const plain = s.replace(/\+/g, ' ');
  if (!plain.includes('%')) return plain;
  try {
    return decodeURIComponent(plain);
  } catch {
    return new MalformedText(s);
  }
}

/**
 * `application/x-www-form-urlencoded` and the query string, parsed as URLSearchParams would but
 * without its silent U+FFFD: a value that does not decode is kept as `MalformedText` for the input
 * guard to refuse. A repeated name gives an array, as Fastify's default parser does.
 */
export function parseQueryString(str: string): Record<string, string | MalformedText | Array<string | MalformedText>> {
  const out: Record<string, string | MalformedText | Array<string | MalformedText>> = Object.create(null);
  for (const pair of str.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    // A name that does not decode is reported under its raw spelling.
    const name = key instanceof MalformedText ? key.raw : key;
    const seen = out[name];
    const v = key instanceof MalformedText ? new MalformedText(pair) : value;
    if (seen === undefined) out[name] = v;
    else if (Array.isArray(seen)) seen.push(v);
    else out[name] = [seen, v];
  }
  return out;
}
