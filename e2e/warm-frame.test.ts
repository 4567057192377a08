import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, newPage, startWorld, type World } from './support.js';

/**
 * The warm pay frame (`/pay/preload`, any page may frame it) renders a link only when its parent
 * posts `remit:open`, and only when every ancestor's origin may frame that link (the link page's
 * own `frame-ancestors`); else it navigates to the link's page, which the browser then refuses to
 * frame. Sites are bare local servers on `localhost` (another site than Remit's 127.0.0.1).
 */
let w: World;
let remit: string;
let allowed: string;
let other: string;
let link: string;
const servers: Server[] = [];

/** A site: `/?f=<url>&f=<url>` frames each URL in turn (titled f0, f1, …). */
async function site(): Promise<string> {
  const server = createServer((req, res) => {
    const frames = new URL(req.url ?? '/', 'http://x').searchParams.getAll('f');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Site</title><body>${frames
        .map(
          (u, i) =>
            `<iframe title="f${i}" src="${u.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" width="480" height="700"></iframe>`,
        )
        .join('')}</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://localhost:${(server.address() as AddressInfo).port}`;
}

const framing = (...urls: string[]) => `/?${urls.map((u) => `f=${encodeURIComponent(u)}`).join('&')}`;

async function frameIn(where: Page | Frame, title: string): Promise<Frame> {
  const f = (await (await where.locator(`iframe[title="${title}"]`).elementHandle())!.contentFrame())!;
  await f.waitForLoadState('load');
  return f;
}

/** `from` posts `remit:open` for the link to its first frame, the shell. */
const open = (from: Page | Frame, id: string) =>
  from.evaluate(
    ([id, remit]) => window.frames[0]!.postMessage({ type: 'remit:open', link_id: id }, remit!),
    [id, remit],
  );

/** No frame of the page shows a card number, after the shell had time to act. */
async function noForm(page: Page) {
  await page.waitForTimeout(700);
  for (const f of page.frames()) expect(await f.locator('#card-number').count()).toBe(0);
}

beforeAll(async () => {
  w = await startWorld();
  remit = w.s.url;
  [allowed, other] = [await site(), await site()];
  const id = (
    await w.s.http({ method: 'GET', path: '/api/v1/widgets', auth: w.m.auth, json: { merchant_key: w.m.merchant_key } })
  ).body.data[0].id;
  const put = await w.s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: w.m.auth,
    json: { merchant_key: w.m.merchant_key, allowed_origins: [allowed] },
  });
  expect(put.status).toBe(200);
  link = await createLink(w); // frame_ancestors: [allowed]
});
afterAll(async () => {
  await w?.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe('the warm pay frame', () => {
  it('ignores remit:open from a window other than its parent (a sibling frame of another origin); renders for its parent, whose origin may frame the link', async () => {
    const page = await newPage(w);
    await page.goto(allowed + framing(`${remit}/pay/preload`, `${other}/`));
    const shell = await frameIn(page, 'f0');
    const sibling = await frameIn(page, 'f1');
    await sibling.evaluate(
      ([id]) => window.parent.frames[0]!.postMessage({ type: 'remit:open', link_id: id }, '*'),
      [link],
    );
    await noForm(page);
    expect(await shell.locator('#app').innerHTML()).toBe('');
    expect(shell.url()).toBe(`${remit}/pay/preload`);
    // The parent's own message is taken: the same shell shows the link (so the test above could fail).
    await open(page, link);
    await shell.getByLabel('Card number').waitFor();
    expect(await shell.getByRole('heading', { level: 1 }).textContent()).toMatch(/Pay/);
    await page.context().close();
  });

  it("a parent whose origin may not frame the link: the shell goes to the link's page, which the browser refuses to frame; no form", async () => {
    const page = await newPage(w);
    const answered: string[] = [];
    page.on(
      'response',
      (r) =>
        r.url().endsWith(`/pay/${link}`) &&
        answered.push(String(r.headers()['content-security-policy']).match(/frame-ancestors [^;]+/)![0]),
    );
    await page.goto(other + framing(`${remit}/pay/preload`));
    await frameIn(page, 'f0');
    await open(page, link);
    await expect.poll(() => answered).toEqual([`frame-ancestors ${allowed}`]);
    await noForm(page);
    await page.context().close();
  });

  it('a parent that may frame the link inside a top page that may not: refused as well (every ancestor counts, as in frame-ancestors)', async () => {
    const page = await newPage(w);
    const answered: string[] = [];
    page.on('response', (r) => r.url().endsWith(`/pay/${link}`) && answered.push(r.url()));
    await page.goto(other + framing(allowed + framing(`${remit}/pay/preload`)));
    const middle = await frameIn(page, 'f0');
    const shell = await frameIn(middle, 'f0');
    expect(shell.url()).toBe(`${remit}/pay/preload`);
    await open(middle, link);
    await expect.poll(() => answered).toHaveLength(1);
    await noForm(page);
    await page.context().close();
  });
});
