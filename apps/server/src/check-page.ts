import { existsSync } from 'node:fs';
import type { EmbedPolicy } from '@remit/contract';

/**
 * `remit check-page <url> --public-key <pk>`: opens a merchant's payment page in headless Chromium
 * and checks it against the instructions of the SAQ A document (docs/embedding.md "Your PCI scope
 * (SAQ A)"): Remit's loader present and pinned, the page's CSP present and enough for the widgets
 * (and what more it allows), no other party's script running, the pay frame's origin and `allow`.
 */

export interface CheckPoint {
  ok: boolean;
  /** What was checked, the same words whatever the outcome. */
  name: string;
  /** What was found. */
  detail: string;
}

export interface PageReport {
  ok: boolean;
  points: CheckPoint[];
  /** Facts that pass or fail nothing: what the policy allows beyond Remit's needs, scripts it blocked. */
  notes: string[];
}

/** REMIT_CHROMIUM, else /usr/bin/chromium (and the usual other names), else null. */
export function findChromium(env: NodeJS.ProcessEnv): string | null {
  if (env.REMIT_CHROMIUM) return existsSync(env.REMIT_CHROMIUM) ? env.REMIT_CHROMIUM : null;
  return (
    ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p)) ?? null
  );
}

/** A policy's directives: name → sources (lower-cased names; sources as written). */
export function parseCsp(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** The sources a fetch directive falls back to, as CSP 3 says (`script-src-elem` → `script-src` → `default-src`). */
function sourcesOf(csp: Map<string, string[]>, ...names: string[]): string[] | undefined {
  for (const n of [...names, 'default-src']) if (csp.has(n)) return csp.get(n);
  return undefined;
}

const allowsOrigin = (sources: string[] | undefined, origin: string) =>
  !!sources && sources.some((s) => s === '*' || s.replace(/\/+$/, '').toLowerCase() === origin.toLowerCase());

/** What a page's policy must hold for the widgets, compared with the published one. */
export function checkPolicy(
  header: string | null,
  policy: EmbedPolicy,
  remit: string,
): { points: CheckPoint[]; notes: string[] } {
  const name = 'Content-Security-Policy present';
  if (!header)
    return {
      points: [{ ok: false, name, detail: 'the page sends no Content-Security-Policy (header or <meta>)' }],
      notes: [],
    };
  const csp = parseCsp(header);
  const points: CheckPoint[] = [{ ok: true, name, detail: header }];
  const notes: string[] = [];
  const need = (directive: string, sources: string[] | undefined) => {
    const ok = allowsOrigin(sources, remit);
    points.push({
      ok,
      name: `${directive} allows Remit (${remit})`,
      detail: sources ? sources.join(' ') || "(empty: 'none')" : 'not set (and no default-src): anything is allowed',
    });
  };
  const scripts = sourcesOf(csp, 'script-src-elem', 'script-src');
  need('script-src', scripts);
  need('connect-src', sourcesOf(csp, 'connect-src'));
  need('frame-src', sourcesOf(csp, 'frame-src', 'child-src'));
  const objects = sourcesOf(csp, 'object-src');
  points.push({
    ok: objects?.length === 1 && objects[0] === "'none'",
    name: "object-src 'none'",
    detail: objects ? objects.join(' ') : 'not set',
  });
  const base = csp.get('base-uri');
  points.push({ ok: !!base, name: 'base-uri set', detail: base ? base.join(' ') : 'not set' });
  const reports = [...(csp.get('report-uri') ?? []), ...(csp.get('report-to') ?? [])];
  points.push({
    ok: (csp.get('report-uri') ?? []).includes(policy.report_uri) || csp.has('report-to'),
    name: "violations reported to Remit (the policy's report-uri)",
    detail: reports.length ? reports.join(' ') : 'no report-uri or report-to',
  });
  // No other party's scripts: the script sources may be stricter than the published ones, never looser.
  const extra = (scripts ?? ['*']).filter((s) => !["'self'", remit].includes(s) && !/^'(nonce|sha\d+)-/.test(s));
  const loose = extra.filter((s) => s !== "'strict-dynamic'");
  points.push({
    ok: loose.length === 0,
    name: 'scripts allowed from the page and Remit only',
    detail: loose.length ? `also allows ${loose.join(' ')}` : (scripts ?? []).join(' '),
  });
  for (const d of ['connect-src', 'frame-src', 'img-src', 'style-src']) {
    const more = (sourcesOf(csp, d) ?? []).filter((s) => !["'self'", remit, "'none'"].includes(s));
    if (more.length) notes.push(`${d} also allows ${more.join(' ')}`);
  }
  return { points, notes };
}

interface Seen {
  header: string | null;
  scripts: Array<{ src: string; integrity: string; crossOrigin: string | null }>;
  loaded: string[];
  blocked: string[];
  frame: { src: string; allow: string } | null;
}

/** Opens the page in Chromium and reports every point; the browser is closed whatever happens. */
export async function checkPage(opts: {
  url: string;
  policy: EmbedPolicy;
  /** Remit's origin (PUBLIC_URL's). */
  remit: string;
  chromium: string;
  timeoutMs?: number;
}): Promise<PageReport> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: opts.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  let seen: Seen;
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    // Run before the page's own scripts (and outside its CSP): what the policy blocks, as the page sees it.
    await page.addInitScript(() => {
      const w = window as unknown as { __remitBlocked: string[] };
      w.__remitBlocked = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__remitBlocked.push(`${e.effectiveDirective} ${e.blockedURI}`),
      );
    });
    const res = await page.goto(opts.url, { waitUntil: 'load', timeout: opts.timeoutMs ?? 30_000 });
    const meta = await page
      .locator('meta[http-equiv="Content-Security-Policy" i]')
      .first()
      .getAttribute('content', { timeout: 1000 })
      .catch(() => null);
    // The pay frame comes with the customer's intent: the pointer on a button (one is made if none is there).
    await page.evaluate(() => {
      if (!document.querySelector('button')) document.body.append(document.createElement('button'));
    });
    await page
      .locator('button')
      .first()
      .hover({ timeout: 5000, force: true })
      .catch(() => undefined);
    await page
      .waitForSelector('iframe[allow]', { state: 'attached', timeout: opts.timeoutMs ?? 10_000 })
      .catch(() => undefined);
    seen = {
      header: (await res?.headerValue('content-security-policy')) ?? meta,
      ...(await page.evaluate(() => {
        const frame = [...document.querySelectorAll('iframe')].find((f) => f.src.includes('/pay/'));
        return {
          scripts: [...document.scripts].map((s) => ({
            src: s.src,
            integrity: s.integrity,
            crossOrigin: s.crossOrigin,
          })),
          loaded: performance
            .getEntriesByType('resource')
            .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script')
            .map((e) => e.name),
          blocked: (window as unknown as { __remitBlocked: string[] }).__remitBlocked,
          frame: frame ? { src: frame.src, allow: frame.allow } : null,
        };
      })),
    };
  } finally {
    await browser.close();
  }
  return judge(seen, opts.policy, opts.remit, opts.url);
}

/** The points, from what the browser saw. */
export function judge(seen: Seen, policy: EmbedPolicy, remit: string, pageUrl: string): PageReport {
  const points: CheckPoint[] = [];
  const pk = new URL(policy.loader_url).searchParams.get('remit_merchant_public_key');
  const loader = seen.scripts.find((s) => {
    try {
      const u = new URL(s.src);
      return u.origin === remit && /^\/js\/dynamic-launch(\.[\w-]+)?\.js$/.test(u.pathname);
    } catch {
      return false;
    }
  });
  points.push({
    ok: !!loader && new URL(loader.src).searchParams.get('remit_merchant_public_key') === pk,
    name: "Remit's loader present, with this merchant's public key",
    detail: loader ? loader.src : `no <script> of ${remit}/js/dynamic-launch…js on the page`,
  });
  points.push({
    ok: !!loader && loader.integrity === policy.integrity && loader.src.startsWith(policy.loader_url.split('?')[0]!),
    name: 'loader pinned by integrity (this release, its versioned address)',
    detail: !loader
      ? 'no loader'
      : loader.integrity
        ? `integrity ${loader.integrity}${loader.integrity === policy.integrity ? '' : ` (this release's is ${policy.integrity})`}`
        : 'the loader has no integrity attribute',
  });
  points.push({
    ok: !!loader && loader.crossOrigin !== null,
    name: 'loader loaded with crossorigin',
    detail: loader?.crossOrigin === null ? 'no crossorigin attribute' : `crossorigin="${loader?.crossOrigin ?? ''}"`,
  });
  const csp = checkPolicy(seen.header, policy, remit);
  points.push(...csp.points);
  const own = new URL(pageUrl).origin;
  const foreign = seen.loaded.filter((u) => {
    try {
      return ![own, remit].includes(new URL(u).origin);
    } catch {
      return false;
    }
  });
  points.push({
    ok: foreign.length === 0,
    name: 'no script of another party runs on the page',
    detail: foreign.length ? foreign.join(', ') : "only the page's own and Remit's scripts loaded",
  });
  points.push({
    ok: !!seen.frame && new URL(seen.frame.src).origin === remit && /\bpayment\b/.test(seen.frame.allow),
    name: 'the pay frame is Remit\'s, with allow="payment"',
    detail: seen.frame
      ? `${new URL(seen.frame.src).origin}, allow="${seen.frame.allow}"`
      : 'no pay frame appeared (did the widgets load? is the page in the allowed origins?)',
  });
  const notes = [...csp.notes];
  for (const b of seen.blocked) notes.push(`blocked by the policy: ${b}`);
  return { ok: points.every((p) => p.ok), points, notes };
}

/** The report as the command prints it: one line a point, failing ones marked. */
export function reportText(r: PageReport): string {
  const lines = r.points.map((p) => `${p.ok ? 'ok  ' : 'FAIL'}  ${p.name}: ${p.detail}`);
  for (const n of r.notes) lines.push(`note  ${n}`);
  const failing = r.points.filter((p) => !p.ok);
  lines.push(
    failing.length
      ? `\n${failing.length} point${failing.length === 1 ? '' : 's'} failing: ${failing.map((p) => p.name).join('; ')}`
      : '\nThe page meets the instructions.',
  );
  return `${lines.join('\n')}\n`;
}
