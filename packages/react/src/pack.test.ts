import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * @remit/react as a user gets it: `npm pack` (which builds dist/ through prepack), installed with
 * React alone into a project outside the repository, rendered on the server from a plain ESM
 * script, type-checked from a TSX file with tsc, and linted with publint and @arethetypeswrong/cli.
 */

const exec = promisify(execFile);
/** Runs a command; a failure reports what it printed (tsc and attw print their findings on stdout). */
async function run(file: string, args: string[], opts: { cwd?: string } = {}) {
  try {
    return await exec(file, args, { ...opts, maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}
const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkgDir, '../..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const tscJs = join(root, 'node_modules/typescript/bin/tsc');
const installed = (file: string) => join(app, 'node_modules/@remit/react', file);

let tmp: string;
let tarball: string;
let app: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'remit-react-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: pkgDir });
  tarball = join(tmp, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  app = join(tmp, 'app');
  mkdirSync(app);
  const version = (name: string) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'remit-react-user',
      private: true,
      type: 'module',
      dependencies: {
        '@remit/react': `file:${tarball}`,
        react: version('react'),
        'react-dom': version('react-dom'),
        '@types/react': version('@types/react'),
      },
    }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], { cwd: app });
}, 240_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('@remit/react from its packed tarball', () => {
  it('holds one ESM file (the loader inside, React outside, "use client" first) and standalone types; ≤ 2 KB gzip', () => {
    const pkg = JSON.parse(readFileSync(installed('package.json'), 'utf8'));
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.peerDependencies).toEqual({ react: expect.any(String) });
    expect(pkg.dependencies).toBeUndefined();
    const js = readFileSync(installed('dist/index.js'), 'utf8');
    expect(js.startsWith('"use client";')).toBe(true);
    expect(js).toContain('/js/dynamic-launch.js');
    expect([...js.matchAll(/from\s*"([^"]+)"/g)].map((m) => m[1])).toEqual(['react']);
    expect(gzipSync(js).length).toBeLessThanOrEqual(2048);
    for (const f of ['index.d.ts', 'components.d.ts', 'types.d.ts']) expect(readFileSync(installed(`dist/${f}`), 'utf8')).not.toMatch(/(from|import\()\s*['"]@remit\//);
    expect(() => readFileSync(installed('src/index.ts'))).toThrow();
  });

  it('renders on the server from a plain ESM script: buttons and the table placeholder, nothing loaded', async () => {
    writeFileSync(
      join(app, 'ssr.mjs'),
      `import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { GetPaymentPage, RequestPaymentonClick, CompletedTransactions } from '@remit/react';
console.log(renderToString(h('main', null,
  h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 12.3 }, 'Pay $12.30'),
  h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 5, phone_number: '4155550123' }),
  h(CompletedTransactions, { clientKey: 'pk_test_abc' }))));
`,
    );
    const { stdout } = await run(process.execPath, ['ssr.mjs'], { cwd: app });
    expect(stdout.trim()).toBe(
      '<main><button type="button">Pay $12.30</button><button type="button">Request payment</button><div data-remit-widget="completed-transactions"></div></main>',
    );
  });

  it('type-checks a TSX user with tsc: typed callbacks; a missing prop or a wrong callback fails', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['shop.tsx'],
      }),
    );
    writeFileSync(
      join(app, 'shop.tsx'),
      `import { GetPaymentPage, RequestPaymentonClick, CompletedTransactions, type PaymentResult, type RemitWidgetError } from '@remit/react';
export function Shop({ onPaid }: { onPaid: (id: string) => void }) {
  return (
    <>
      <GetPaymentPage clientKey="pk_test_abc" amount="12.30" baseUrl="https://remit.example"
        onSuccess={(r: PaymentResult) => { if (r.status === 'succeeded') onPaid(r.transaction_id); }}
        onError={(e: RemitWidgetError) => console.error(e.code, e.message)} onClose={() => {}}>Pay $12.30</GetPaymentPage>
      <RequestPaymentonClick clientKey="pk_test_abc" amount={5} phone_number="4155550123" onSuccess={(r) => console.log(r.phone_last_four)} />
      <CompletedTransactions clientKey="pk_test_abc" />
      {/* @ts-expect-error amount is required */}
      <GetPaymentPage clientKey="pk_test_abc" />
      {/* @ts-expect-error phone_number is required */}
      <RequestPaymentonClick clientKey="pk_test_abc" amount={5} />
      {/* @ts-expect-error a request's result has no transaction_id */}
      <RequestPaymentonClick clientKey="pk_test_abc" amount={5} phone_number="1" onSuccess={(r) => r.transaction_id} />
    </>
  );
}
`,
    );
    await run(process.execPath, [tscJs, '-p', 'tsconfig.json'], { cwd: app });
  });

  it('is clean under publint (strict) and @arethetypeswrong/cli (ESM-only profile)', async () => {
    const publint = await run(bin('publint'), ['run', tarball, '--strict']);
    expect(publint.stdout).toContain('All good!');
    await run(bin('attw'), [tarball, '--profile', 'esm-only', '--no-color']);
  });
});
