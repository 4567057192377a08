// Run before `npm start` and `npm run remit`: with the development tools installed, build first (so
// a checkout always runs what it holds); in a production install pruned of them (`npm prune
// --omit=dev`), use the build made before the prune, and say so plainly when there is none.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const what = process.argv[2] === 'server' ? 'server' : 'all';
const tool = what === 'server' ? 'esbuild' : 'vite';
const npm = process.env.npm_execpath;

if (existsSync(join(root, 'node_modules', tool))) {
  const args = ['run', what === 'server' ? 'build:server' : 'build', '--silent'];
  // npm_execpath is npm's own script when run by npm; otherwise the npm on PATH.
  if (npm) execFileSync(process.execPath, [npm, ...args], { cwd: root, stdio: 'inherit' });
  else execFileSync('npm', args, { cwd: root, stdio: 'inherit' });
} else {
  const needed = ['apps/server/dist/main.js', 'apps/server/dist/cli.js', 'apps/pay/dist/index.html', 'apps/portal/dist/index.html'];
  const missing = needed.filter((f) => !existsSync(join(root, f)));
  if (missing.length > 0) {
    console.error(`remit: not built (${missing.join(', ')} missing) and the build tools are not installed: run npm ci && npm run build before npm prune --omit=dev`);
    process.exit(1);
  }
}
