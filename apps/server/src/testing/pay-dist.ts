import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the fixture's index.html holds, so tests can find the injected state around it. */
export const FIXTURE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Pay</title>
<!--remit-state-->
<script type="module" src="/pay/assets/index-abc123.js"></script>
<link rel="stylesheet" href="/pay/assets/index-abc123.css">
</head>
<body><div id="app"><!--remit-app--></div></body>
</html>
`;

/**
 * The fixture's stand-in for `dist/ssr/ssr.js`: markup naming the state's page, in the locale
 * `?locale=` asks for (else `en`), with the title the real renderer would give a link.
 */
export const FIXTURE_RENDERER = `export function renderPage(state, search) {
  const locale = new URLSearchParams(search).get('locale') === 'es' ? 'es' : 'en';
  return { html: '<p class="rendered">' + state.page + '</p>', locale, title: state.page === 'error' ? 'Not found' : 'Pay · ' + state.view.merchant.name };
}
`;

/** Vite's manifest of the fixture: the entry and the Spanish chunk it imports when used. */
export const FIXTURE_MANIFEST = {
  'index.html': {
    file: 'assets/index-abc123.js',
    isEntry: true,
    dynamicImports: ['../../packages/contract/translations/es/pay.json'],
  },
  '../../packages/contract/translations/es/pay.json': {
    file: 'assets/messages-es-def456.js',
    isDynamicEntry: true,
    imports: ['index.html'],
  },
};

/**
 * A small stand-in for `apps/pay/dist` in a temp directory: an index.html with the state and
 * markup markers, a renderer, three hashed assets and the manifest naming them. Server tests use it so they do not depend on
 * the front end's build.
 */
export function writePayFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'remit-pay-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), FIXTURE_HTML);
  mkdirSync(join(dir, 'ssr'));
  writeFileSync(join(dir, 'ssr', 'ssr.js'), FIXTURE_RENDERER);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("pay");\n');
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{margin:0}\n');
  writeFileSync(join(dir, 'assets', 'messages-es-def456.js'), 'export const es = {};\n');
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(FIXTURE_MANIFEST));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The `PayPageState` a served page carries. */
export function stateOf(html: string): any {
  const m = /<script id="remit-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no remit-state script in the page');
  return JSON.parse(m[1]!);
}
