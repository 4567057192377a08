import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * What `@remit/contract` costs a browser bundle: esbuild, platform browser, minified, gzip. Used by
 * the contract's bundle test (no Node built-in may be pulled in) and printed by `npm run bench`.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

export interface BrowserBundle {
  bytes: number;
  gzip: number;
  /** Node built-ins the bundle tried to import (each is a build error on platform browser). */
  nodeBuiltins: string[];
  errors: string[];
}

/** Bundles `source` (an ES module resolved from the repository root) for the browser. */
export async function bundleForBrowser(source: string): Promise<BrowserBundle> {
  const nodeBuiltins = new Set<string>();
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'node-builtins',
        setup(b) {
          // Records every built-in import, however spelled, and keeps it out of the bundle.
          b.onResolve({ filter: /.*/ }, (args) => {
            if (!builtins.has(args.path)) return undefined;
            nodeBuiltins.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  }).catch((e: { errors?: Array<{ text: string }> }) => ({
    outputFiles: [],
    errors: e.errors ?? [{ text: String(e) }],
  }));
  const code = result.outputFiles?.[0]?.contents ?? new Uint8Array();
  return {
    bytes: code.length,
    gzip: code.length ? gzipSync(code).length : 0,
    nodeBuiltins: [...nodeBuiltins],
    errors: result.errors.map((e) => e.text),
  };
}

/** A webhook event union and the pay link view in the API both zod 4 and zod/mini share. */
const sameSchemas = (from: string) => `
import * as z from '${from}';
const s = z.string(), n = z.number();
const merchant = z.object({ name: s, logo_url: z.nullable(s), primary_color: z.nullable(s), accepts_payments: z.boolean() });
const amounts = z.object({ currency: z.literal('USD'), amount: n, tax: n, surcharge: n, discount: n, subtotal: n, fee: z.object({ card: n, ach: n }), total: z.object({ card: n, ach: n }) });
export const view = z.object({ link_id: s, kind: z.enum(['pay_link', 'request', 'authorization']), status: z.enum(['open', 'paid']), merchant, order_id: s, invoice_number: z.nullable(s), description: z.nullable(s), amounts, methods: z.object({ card: z.boolean(), ach: z.boolean() }), preauth: z.boolean(), require_3ds: z.boolean(), embed_origin: z.nullable(s) });
const ev = (t, data) => z.object({ event_type: z.literal(t), data: z.object(data), id: s, created_at: s });
export const event = z.discriminatedUnion('event_type', [
  ev('payment.success', { transaction_id: s, merchant_id: s, amount: n, net_amount: n, fee_amount: n, order_id: s, last_four: s, brand: s, link_id: s }),
  ev('payment.refund', { merchant_id: s, transaction_id: s, linked_txn_id: s, parent_transaction_id: s, sales_id: s, order_createdfrom: s, amount: n, txn_id: s, txn_date: s, type: z.literal('Refund'), Status: z.literal('Success') }),
  ev('ach.update', { merchant_id: s, status: z.enum(['Approved', 'Declined']), tran_id: s, message: z.enum(['Approved', 'Insufficient Funds']), return_transaction_id: z.optional(s) }),
]);
export const parse = (x) => [view.safeParse(x), event.safeParse(x)];
`;

export const CONTRACT_BUNDLES: Array<{ name: string; source: string }> = [
  {
    name: 'contract, types only',
    source: `import type { WebhookEvent, PayLinkView } from '@remit/contract';
export const kind = (e: WebhookEvent, v: PayLinkView) => [e.event_type, v.status];`,
  },
  {
    name: 'contract, parse webhook event',
    source: `import { webhookEventSchema } from '@remit/contract'; export const parse = (x: unknown) => webhookEventSchema.parse(x);`,
  },
  {
    name: 'contract, parse pay link view',
    source: `import { payLinkViewSchema } from '@remit/contract'; export const parse = (x: unknown) => payLinkViewSchema.parse(x);`,
  },
  { name: 'contract, everything', source: `export * from '@remit/contract';` },
  {
    name: 'contract/card-rules (the pay page)',
    source: `export { cardBrand, cardLayout, luhnValid, abaRoutingValid } from '@remit/contract/card-rules';`,
  },
  { name: 'same schemas in zod 4', source: sameSchemas('zod') },
  { name: 'same schemas in zod/mini', source: sameSchemas('zod/mini') },
];

export async function reportContractBundles() {
  console.log('\n== @remit/contract in a browser bundle (esbuild, minified) ==');
  for (const b of CONTRACT_BUNDLES) {
    const r = await bundleForBrowser(b.source);
    const status =
      r.errors.length || r.nodeBuiltins.length ? `  ERRORS: ${[...r.errors, ...r.nodeBuiltins].join('; ')}` : '';
    console.log(
      `${b.name.padEnd(34)} ${(r.bytes / 1024).toFixed(2).padStart(7)} KB  gzip ${(r.gzip / 1024).toFixed(2).padStart(6)} KB${status}`,
    );
  }
}
