import { describe, expect, it } from 'vitest';
import { bundleForBrowser, CONTRACT_BUNDLES } from '../../../bench/contract-bundles.js';

/** `@remit/contract` must bundle for a browser: esbuild, platform browser, no Node built-in. */
describe('@remit/contract in a browser bundle', () => {
  it.each(CONTRACT_BUNDLES.filter((b) => b.name.startsWith('contract')))(
    '$name: builds with no Node built-in',
    async ({ source }) => {
      const r = await bundleForBrowser(source);
      expect(r.errors).toEqual([]);
      expect(r.nodeBuiltins).toEqual([]);
    },
  );

  // The ceiling grows only with wire shapes (the appearance schema took it past 40 KB; merchant verification, the
  // kit's /testing controls, the embed policy and five events past 44 KB, at 46 KB); no page imports it all.
  it('types-only use costs (almost) nothing; runtime use stays under 48 KB gzip', async () => {
    const types = await bundleForBrowser(CONTRACT_BUNDLES[0]!.source);
    expect(types.gzip).toBeLessThan(200);
    const all = await bundleForBrowser(`export * from '@remit/contract';`);
    expect(all.gzip).toBeGreaterThan(1000);
    expect(all.gzip).toBeLessThan(48 * 1024);
  });

  it('the card rules alone bring no zod: under 1 KB gzip', async () => {
    const rules = await bundleForBrowser(
      CONTRACT_BUNDLES.find((b) => b.name.startsWith('contract/card-rules'))!.source,
    );
    expect(rules.errors).toEqual([]);
    expect(rules.gzip).toBeLessThan(1024);
  });

  it('would catch a Node built-in (the check can fail)', async () => {
    const r = await bundleForBrowser(
      `import { createHash } from 'node:crypto'; import fs from 'fs'; export const x = [createHash, fs];`,
    );
    expect(r.nodeBuiltins.sort()).toEqual(['fs', 'node:crypto']);
  });
});
