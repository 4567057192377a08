import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Budgets of DESIGN.md, gzip. Bundles not built yet are listed as such. */
const BUDGETS: Array<{ name: string; file: string; budget: number }> = [
  { name: 'loader (dynamic-launch.js)', file: 'packages/loader/dist/dynamic-launch.js', budget: 2 * 1024 },
  { name: 'widget chunk', file: 'packages/widgets/dist/widgets.js', budget: 15 * 1024 },
  { name: 'React wrapper', file: 'packages/react/dist/index.js', budget: 2 * 1024 },
  { name: 'Vue wrapper', file: 'packages/vue/dist/index.js', budget: 2 * 1024 },
  { name: 'pay page JS + CSS', file: 'apps/pay/dist/assets', budget: 20 * 1024 },
];

/** gzip bytes of a file, or of every .js and .css in a directory (hashed names), each gzipped alone as served. */
function gzipBytes(path: string): number {
  if (!path.endsWith('assets')) return gzipSync(readFileSync(path)).length;
  return readdirSync(path)
    .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
    .reduce((sum, f) => sum + gzipSync(readFileSync(join(path, f)), { level: 9 }).length, 0);
}

export function reportBundles() {
  console.log('\n== bundle sizes (gzip) ==');
  for (const b of BUDGETS) {
    if (!existsSync(b.file)) {
      console.log(`${b.name.padEnd(28)} not built yet (later issue)   budget ${(b.budget / 1024).toFixed(0)} KB`);
      continue;
    }
    const size = gzipBytes(b.file);
    console.log(`${b.name.padEnd(28)} ${(size / 1024).toFixed(2)} KB   budget ${(b.budget / 1024).toFixed(0)} KB ${size <= b.budget ? 'ok' : 'OVER'}`);
  }
}
