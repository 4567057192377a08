import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of README.md and docs/ resolves: the file exists in the repository, and a
 * `#anchor` names a heading of that page (GitHub's slugs). The docs must stand alone in a clone.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Text outside fenced code blocks and inline code: links there are examples, not links. */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of md.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** `[text](target)` links whose target is in the repository (no scheme, not protocol-relative). */
export function relativeLinks(md: string): string[] {
  return [...prose(md).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('//'));
}

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('links in README.md and docs/', () => {
  it('the helpers see what GitHub sees', () => {
    expect([
      ...anchors(
        '# Going live and operations\n## `PUBLIC_URL` and HOST\n## Rate limits\n## Rate limits\n```\n# not a heading\n```',
      ),
    ]).toEqual(['going-live-and-operations', 'public_url-and-host', 'rate-limits', 'rate-limits-1']);
    expect(relativeLinks('[a](docs/x.md#y) [b](https://e.com) [c](#z) `[d](no.md)` [e](mailto:a@b.c)')).toEqual([
      'docs/x.md#y',
      '#z',
    ]);
  });

  it.each(files.map((f) => [relative(root, f), f]))(
    '%s: every relative link names a file and a heading that exist',
    (_name, file) => {
      const broken: string[] = [];
      for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? join(dirname(file), decodeURIComponent(path)) : file;
        if (!target.startsWith(root) || !existsSync(target)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (
          anchor !== undefined &&
          target.endsWith('.md') &&
          !anchors(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))
        ) {
          broken.push(`${link}: no heading #${anchor} in ${relative(root, target)}`);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});
