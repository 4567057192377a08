import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dirOf, intlTag, LOCALES } from '../packages/contract/src/locales.js';
import { WIDGETS } from '../packages/contract/src/catalogue/widgets.js';

/** The widget chunk's hashed name, from the manifest its build writes. */
function widgetChunk(): string {
  const manifest = 'packages/widgets/dist/manifest.json';
  if (!existsSync(manifest)) return 'packages/widgets/dist/widgets.js';
  return `packages/widgets/dist/${(JSON.parse(readFileSync(manifest, 'utf8')) as { file: string }).file}`;
}

/** Budgets of docs/benchmarks.md, gzip. Bundles not built yet are listed as such. */
const BUDGETS: Array<{ name: string; file: string; budget: number }> = [
  { name: 'loader (dynamic-launch.js)', file: 'packages/loader/dist/dynamic-launch.js', budget: 1.3 * 1024 },
  { name: 'widget chunk', file: widgetChunk(), budget: 12 * 1024 },
  { name: 'React wrapper', file: 'packages/react/dist/index.js', budget: 2 * 1024 },
  { name: 'Vue wrapper', file: 'packages/vue/dist/index.js', budget: 2 * 1024 },
  { name: 'pay page JS + CSS', file: 'apps/pay/dist/assets', budget: 20 * 1024 },
];

const gzipFile = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

/**
 * The pay page's chunks fetched only when used (a language other than English), by the manifest
 * its build writes next to `assets/` (`dist/.vite/manifest.json`): outside the page's budget.
 */
export function lazyChunks(assets: string): string[] {
  const manifest = join(assets, '..', '.vite', 'manifest.json');
  if (!existsSync(manifest)) return [];
  const chunks = Object.values(
    JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, { file: string; isDynamicEntry?: boolean }>,
  );
  return chunks.filter((c) => c.isDynamicEntry).map((c) => c.file.replace(/^assets\//, ''));
}

/**
 * gzip bytes of a file, or of every .js and .css in a directory (hashed names) but its lazy
 * chunks, each gzipped alone as served.
 */
function gzipBytes(path: string): number {
  if (!path.endsWith('assets')) return gzipFile(path);
  const lazy = lazyChunks(path);
  return readdirSync(path)
    .filter((f) => (f.endsWith('.js') || f.endsWith('.css')) && !lazy.includes(f))
    .reduce((sum, f) => sum + gzipFile(join(path, f)), 0);
}

export function reportBundles() {
  console.log('\n== bundle sizes (gzip) ==');
  for (const b of BUDGETS) {
    if (!existsSync(b.file)) {
      console.log(`${b.name.padEnd(28)} not built yet (later issue)   budget ${(b.budget / 1024).toFixed(0)} KB`);
      continue;
    }
    const size = gzipBytes(b.file);
    console.log(
      `${b.name.padEnd(28)} ${(size / 1024).toFixed(2)} KB   budget ${(b.budget / 1024).toFixed(1)} KB (${size} B) ${size <= b.budget ? 'ok' : 'OVER'}`,
    );
    if (b.file.endsWith('assets'))
      for (const f of lazyChunks(b.file))
        console.log(
          `  + ${f} (when used)`.padEnd(29) +
            ` ${(gzipFile(join(b.file, f)) / 1024).toFixed(2)} KB (${gzipFile(join(b.file, f))} B)`,
        );
    // The widgets' languages: /js/widget-messages/{locale} as served, fetched only for a language other than English.
    if (b.name === 'widget chunk')
      for (const l of LOCALES.filter((x) => x !== 'en')) {
        const size = gzipSync(JSON.stringify({ locale: l, intl: intlTag(l), dir: dirOf(l), messages: WIDGETS[l] }), {
          level: 9,
        }).length;
        console.log(`  + widget-messages/${l} (when used)`.padEnd(29) + ` ${(size / 1024).toFixed(2)} KB (${size} B)`);
      }
  }
}
