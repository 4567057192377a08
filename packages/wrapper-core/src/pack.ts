import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

/**
 * Tests only: the one tarball harness of every pack test (the wrappers, the loader, the SDK, the
 * test kit). Packages as a user gets them: one `npm pack -w …` at the repository's root (which
 * builds dist/ through each prepack), the tarballs installed together into a fresh project outside
 * the repository with public packages only, and the checks run there (node, tsc, publint, attw).
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

/**
 * Test files run side by side, and two `npm pack`s of one package would build its dist/ at once
 * (each prepack empties and writes it): one pack at a time across processes, a directory as the lock.
 */
async function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `remit-pack-lock-${Buffer.from(root).toString('hex').slice(-16)}`);
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      if (lockIsStale(lock)) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The lock's holder is gone (a killed run), or it is older than 5 minutes. */
function lockIsStale(lock: string): boolean {
  const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
  if (since === undefined) return false;
  if (Date.now() - since > 300_000) return true;
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false; // just made, its pid not yet written, or just removed
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

export interface PackedApp {
  /** The packed packages' names, in the order given; the first is the default of the methods below. */
  names: string[];
  /** Each package's tarball, by name. */
  tarballs: Record<string, string>;
  /** The first package's tarball. */
  tarball: string;
  /** The fresh project's directory. */
  app: string;
  /** The first package's name, e.g. `@remit/react`. */
  name: string;
  /** A file of an installed package, e.g. `dist/index.js`. */
  installed(file: string, name?: string): string;
  /** Runs a command in the project. */
  run(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }>;
  /** Writes `file` in the project and runs it with node: its output. */
  node(file: string, text: string, env?: NodeJS.ProcessEnv): Promise<string>;
  /**
   * Writes a strict tsconfig over `files` (name → text; a text of `null` is a file already there)
   * plus `compilerOptions`, and type-checks them with the repository's tsc.
   */
  tsc(files: Record<string, string | null>, compilerOptions?: Record<string, unknown>): Promise<void>;
  /** publint (strict) and @arethetypeswrong/cli (ESM-only profile) on a tarball: throws on any finding. */
  lint(name?: string): Promise<void>;
  /** The installed dist/index.js: its text, the packages it imports, its gzip size. */
  bundle(name?: string): { js: string; imports: string[]; gzip: number };
  remove(): void;
}

/**
 * Packs the workspace packages `names` with one `npm pack` and installs their tarballs in a new
 * project with `deps` (name → version; the repository's version when `undefined`), as
 * devDependencies when `dev`. One install: every check of a test file runs in that project.
 */
export async function packAndInstall(
  names: string[],
  deps: Record<string, string | undefined> = {},
  opts: { dev?: boolean } = {},
): Promise<PackedApp> {
  const tmp = mkdtempSync(join(tmpdir(), `remit-${names[0]!.split('/').pop()}-pack-`));
  try {
    // Not --json: a prepack's own output shares npm's stdout. The tarballs are named `remit-<pkg>-<version>.tgz`.
    await oneAtATime(() =>
      run('npm', ['pack', ...names.flatMap((n) => ['-w', n]), '--pack-destination', tmp], { cwd: root }),
    );
    const files = readdirSync(tmp);
    const tarballs = Object.fromEntries(
      names.map((n) => {
        const file = files.find((f) => new RegExp(`^${n.slice(1).replace('/', '-')}-\\d[^/]*\\.tgz$`).test(f));
        if (!file) throw new Error(`npm pack made no tarball of ${n}: ${files.join(', ')}`);
        return [n, join(tmp, file)];
      }),
    );
    const app = join(tmp, 'app');
    mkdirSync(app);
    const dependencies: Record<string, string> = {};
    for (const name of names) dependencies[name] = `file:${tarballs[name]}`;
    for (const [dep, version] of Object.entries(deps)) dependencies[dep] = version ?? repoVersion(dep);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'remit-merchant-app',
        private: true,
        type: 'module',
        [opts.dev ? 'devDependencies' : 'dependencies']: dependencies,
      }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], { cwd: app });
    const installed = (file: string, name = names[0]!) => join(app, 'node_modules', name, file);
    const inApp = (file: string, args: string[], env?: NodeJS.ProcessEnv) =>
      run(file, args, { cwd: app, env: env && { ...process.env, ...env } });
    return {
      names,
      tarballs,
      tarball: tarballs[names[0]!]!,
      app,
      name: names[0]!,
      installed,
      run: inApp,
      async node(file, text, env) {
        writeFileSync(join(app, file), text);
        return (await inApp(process.execPath, [file], env)).stdout;
      },
      async tsc(files, compilerOptions = {}) {
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
        for (const [file, text] of Object.entries(files)) if (text !== null) writeFileSync(join(app, file), text);
        const config = `tsconfig.${Object.keys(files)[0]!.replace(/\W/g, '-')}.json`;
        writeFileSync(join(app, config), JSON.stringify({ compilerOptions: options, files: Object.keys(files) }));
        await inApp(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config]);
      },
      async lint(name = names[0]!) {
        const tarball = tarballs[name]!;
        const publint = await run(bin('publint'), ['run', tarball, '--strict']);
        if (!publint.stdout.includes('All good!')) throw new Error(`publint ${name}:\n${publint.stdout}`);
        await run(bin('attw'), [tarball, '--profile', 'esm-only', '--no-color']);
      },
      bundle(name) {
        const js = readFileSync(installed('dist/index.js', name), 'utf8');
        return { js, imports: [...js.matchAll(/from\s*"([^"]+)"/g)].map((m) => m[1]!), gzip: gzipSync(js).length };
      },
      remove: () => rmSync(tmp, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/**
 * A page's install block (the ```sh block with `npm pack`): the packages it packs (`-w`) and the
 * tarballs it installs, so a test can hold it to what it packed and installed itself.
 */
export function installBlock(markdown: string): { packs: string[]; installs: string[] } {
  const block = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].find((m) => /^npm pack /m.test(m[1]!));
  if (!block) throw new Error('no ```sh block with npm pack');
  const text = block[1]!;
  return {
    packs: [...text.matchAll(/-w (\S+)/g)].map((m) => m[1]!),
    installs: [...text.matchAll(/^npm install .*?\/tmp\/remit-packages\/(\S+\.tgz)$/gm)].map((m) => m[1]!),
  };
}
