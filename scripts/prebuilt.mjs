// Run before `npm start` and `npm run remit`: with the development tools installed, build what the
// server runs (the pay page, the portal, the widgets, the loader, the server) where its sources
// changed since it was last built here, and nothing else, so a restart is quick; in a production
// install pruned of them (`npm prune --omit=dev`), use the build made before the prune, and say so
// plainly when there is none.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const what = process.argv[2] === 'server' ? 'server' : 'all';
const npm = process.env.npm_execpath;

/** Every package.json and the lock change what a build resolves; each step adds its own sources. */
const COMMON = ['package.json', 'package-lock.json', 'tsconfig.json'];
const SHARED = ['packages/contract/src', 'packages/form-kit/src'];
/** In build order: a step's inputs may be an earlier step's output (the loader names the widget chunk). */
const STEPS = [
  {
    ws: '@remit/pay',
    inputs: ['apps/pay', ...SHARED],
    outputs: ['apps/pay/dist/index.html', 'apps/pay/dist/ssr/ssr.js'],
  },
  { ws: '@remit/portal', inputs: ['apps/portal', ...SHARED], outputs: ['apps/portal/dist/index.html'] },
  {
    ws: '@remit/widgets',
    inputs: ['packages/widgets', 'packages/loader/src', ...SHARED],
    outputs: ['packages/widgets/dist/manifest.json'],
  },
  {
    ws: '@remit/loader',
    inputs: ['packages/loader', 'packages/widgets/dist/manifest.json', ...SHARED],
    outputs: ['packages/loader/dist/dynamic-launch.js'],
  },
  {
    ws: '@remit/server',
    inputs: ['apps/server', 'packages/core', ...SHARED],
    outputs: ['apps/server/dist/main.js', 'apps/server/dist/cli.js'],
    server: true,
  },
];
const STAMP = join(root, 'node_modules/.cache/remit-prebuilt.json');

if (existsSync(join(root, 'node_modules', what === 'server' ? 'esbuild' : 'vite'))) {
  const stamps = existsSync(STAMP) ? JSON.parse(readFileSync(STAMP, 'utf8')) : {};
  for (const step of STEPS.filter((s) => what === 'all' || s.server)) {
    // The inputs' contents and the outputs' times: an output rebuilt or removed by hand since counts as changed.
    const stamp = `${digest([...COMMON, ...step.inputs])} ${step.outputs.map((f) => (existsSync(join(root, f)) ? statSync(join(root, f)).mtimeMs : 'none')).join(' ')}`;
    if (stamps[step.ws] === stamp) continue;
    console.error(`remit: building ${step.ws} (new or changed since its last build)…`);
    const args = ['run', 'build', '-w', step.ws, '--silent'];
    // npm_execpath is npm's own script when run by npm; otherwise the npm on PATH.
    if (npm) execFileSync(process.execPath, [npm, ...args], { cwd: root, stdio: 'inherit' });
    else execFileSync('npm', args, { cwd: root, stdio: 'inherit' });
    stamps[step.ws] =
      `${digest([...COMMON, ...step.inputs])} ${step.outputs.map((f) => statSync(join(root, f)).mtimeMs).join(' ')}`;
    mkdirSync(dirname(STAMP), { recursive: true });
    writeFileSync(STAMP, JSON.stringify(stamps, null, 2));
  }
} else {
  const needed = [
    'apps/server/dist/main.js',
    'apps/server/dist/cli.js',
    'apps/pay/dist/index.html',
    'apps/portal/dist/index.html',
  ];
  const missing = needed.filter((f) => !existsSync(join(root, f)));
  if (missing.length > 0) {
    console.error(
      `remit: not built (${missing.join(', ')} missing) and the build tools are not installed: run npm ci && npm run build before npm prune --omit=dev`,
    );
    process.exit(1);
  }
}

/** One hash of the files under `paths` (their names and contents), build outputs and dependencies left out. */
function digest(paths) {
  const hash = createHash('sha256');
  const walk = (rel) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return void hash.update(`${rel}\0missing\0`);
    if (statSync(abs).isFile()) return void hash.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
    for (const name of readdirSync(abs).sort()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      walk(`${rel}/${name}`);
    }
  };
  for (const p of paths) walk(p);
  return hash.digest('hex');
}
