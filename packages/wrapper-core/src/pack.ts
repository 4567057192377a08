import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

/**
 * Tests only: a wrapper as a user gets it. `npm pack` (which builds dist/ through prepack), the
 * tarball installed with the given packages into a fresh project outside the repository, and the
 * checks every wrapper's pack test runs on it (node, tsc, publint, attw).
 */
const exec = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);

/** Runs a command; a failure reports what it printed (tsc and attw print their findings on stdout). */
export async function run(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    return await exec(file, args, { ...opts, maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

/** The version of `name` installed in the repository: the fresh project gets the same. */
export const repoVersion = (name: string): string =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

export interface PackedApp {
  tarball: string;
  /** The fresh project's directory. */
  app: string;
  /** The package's name, e.g. `@remit/react`. */
  name: string;
  /** A file of the installed package, e.g. `dist/index.js`. */
  installed(file: string): string;
  /** Writes `file` in the project and runs it with node: its output. */
  node(file: string, text: string): Promise<string>;
  /** Writes a strict tsconfig over `file` (plus `compilerOptions`) and the file, and type-checks it with the repository's tsc. */
  tsc(file: string, text: string, compilerOptions: Record<string, unknown>): Promise<void>;
  /** publint (strict) and @arethetypeswrong/cli (ESM-only profile) on the tarball: throws on any finding. */
  lint(): Promise<void>;
  /** The installed dist/index.js: its text, the packages it imports, its gzip size. */
  bundle(): { js: string; imports: string[]; gzip: number };
  remove(): void;
}

/**
 * Packs the package at `pkgDir` and installs it in a new project with `deps` (name → version; the
 * repository's version when `undefined`). `install` flags are added to npm install's.
 */
export async function packAndInstall(
  pkgDir: string,
  deps: Record<string, string | undefined>,
  install: string[] = [],
): Promise<PackedApp> {
  const name = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).name as string;
  const tmp = mkdtempSync(join(tmpdir(), `remit-${name.split('/').pop()}-pack-`));
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: pkgDir });
    const tarball = join(tmp, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
    const app = join(tmp, 'app');
    mkdirSync(app);
    const dependencies: Record<string, string> = { [name]: `file:${tarball}` };
    for (const [dep, version] of Object.entries(deps)) dependencies[dep] = version ?? repoVersion(dep);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'remit-wrapper-user', private: true, type: 'module', dependencies }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...install], {
      cwd: app,
    });
    const installed = (file: string) => join(app, 'node_modules', name, file);
    return {
      tarball,
      app,
      name,
      installed,
      async node(file, text) {
        writeFileSync(join(app, file), text);
        return (await run(process.execPath, [file], { cwd: app })).stdout;
      },
      async tsc(file, text, compilerOptions) {
        const options = {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: [],
          ...compilerOptions,
        };
        writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: [file] }));
        writeFileSync(join(app, file), text);
        await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
          cwd: app,
        });
      },
      async lint() {
        const publint = await run(bin('publint'), ['run', tarball, '--strict']);
        if (!publint.stdout.includes('All good!')) throw new Error(`publint:\n${publint.stdout}`);
        await run(bin('attw'), [tarball, '--profile', 'esm-only', '--no-color']);
      },
      bundle() {
        const js = readFileSync(installed('dist/index.js'), 'utf8');
        return { js, imports: [...js.matchAll(/from\s*"([^"]+)"/g)].map((m) => m[1]!), gzip: gzipSync(js).length };
      },
      remove: () => rmSync(tmp, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
