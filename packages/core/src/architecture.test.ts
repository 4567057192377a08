import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'rolldown/utils';
import { describe, expect, it } from 'vitest';

/**
 * The repository's arrows (docs/architecture.md): no import cycle in packages/ and apps/ (type-only
 * imports included), `processor/` imports no domain folder of core, and every package declares
 * what its source imports. Reads the source text only: no database, so it runs in one pass.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CORE = join(ROOT, 'packages/core/src');

interface Pkg {
  name: string;
  dir: string;
  json: {
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  files: string[];
}

interface Import {
  spec: string;
  typeOnly: boolean;
}

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function workspacePackages(): Pkg[] {
  const pkgs: Pkg[] = [];
  for (const top of ['packages', 'apps']) {
    for (const name of readdirSync(join(ROOT, top))) {
      const dir = join(ROOT, top, name);
      if (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'src'))) continue;
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      pkgs.push({ name: json.name, dir, json, files: sourceFiles(join(dir, 'src')) });
    }
  }
  return pkgs;
}

/** Every `import`, `export … from` and `import()` of a module, read by a real parser (Oxc, through Rolldown). */
function importsOf(file: string, text: string): Import[] {
  const { module } = parseSync(file.replace(/\.m?js$/, '.ts'), text);
  return [
    ...module.staticImports.map((i) => ({
      spec: i.moduleRequest.value,
      typeOnly: i.entries.length > 0 && i.entries.every((e) => e.isType),
    })),
    ...module.staticExports.flatMap((x) =>
      x.entries.filter((e) => e.moduleRequest).map((e) => ({ spec: e.moduleRequest!.value, typeOnly: e.isType })),
    ),
    ...module.dynamicImports
      .map((d) => text.slice(d.moduleRequest.start, d.moduleRequest.end))
      .filter((s) => /^['"`][^'"`$]+['"`]$/.test(s))
      .map((s) => ({ spec: s.slice(1, -1), typeOnly: false })),
  ];
}

/** A relative import's file: `./x.js` is `x.ts` (or .tsx) in the source; a folder is its index. */
function resolveRelative(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  for (const c of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return null;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageName = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

const BUILTINS = new Set(builtinModules);
const isBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(packageName(spec));
const rel = (p: string) => relative(ROOT, p).split(sep).join('/');

/** Every import cycle of `graph` (its strongly connected components of more than one file, or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const pkgs = workspacePackages();
const textOf = new Map(pkgs.flatMap((p) => p.files.map((f) => [f, readFileSync(f, 'utf8')] as const)));
const importsOfFile = new Map([...textOf].map(([f, t]) => [f, importsOf(f, t)]));

/** Test code and test helpers: they may use the repository's shared test tools (the root's devDependencies). */
const isTestFile = (f: string) =>
  /\.test\.tsx?$|[\\/]testing[\\/]|[\\/](testing|test-support|test-database)\.ts$/.test(f);

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('architecture', () => {
  it('finds the imports of every statement form, and none in strings or comments', () => {
    // «…» stands for a quote, so that this file's own scan does not read the examples as its imports.
    const text = [
      'import { a } from «./a.js»;',
      'import type { B } from «../b.js»;',
      'import {\n  c,\n  type D,\n} from «./c.js»;',
      'export { e } from «./e.js»;',
      'export type { F } from «./f.js»;',
      'import «./g.css»;',
      'const h = () => import(«./h.js»);',
      '// import { x } from «./not-this.js»;',
      'const snippet = `import { y } from «./nor-this.js»`;',
    ]
      .join('\n')
      .replace(/[«»]/g, "'");
    expect(importsOf('x.ts', text)).toEqual([
      { spec: './a.js', typeOnly: false },
      { spec: '../b.js', typeOnly: true },
      { spec: './c.js', typeOnly: false },
      { spec: './g.css', typeOnly: false },
      { spec: './e.js', typeOnly: false },
      { spec: './f.js', typeOnly: true },
      { spec: './h.js', typeOnly: false },
    ]);
  });

  it('finds a cycle, type-only imports included', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle between files of packages/ and apps/, type-only imports included', () => {
    const graph = new Map<string, string[]>();
    const unresolved: string[] = [];
    for (const [file, imports] of importsOfFile) {
      const to: string[] = [];
      for (const { spec } of imports) {
        if (!spec.startsWith('.')) continue;
        const target = resolveRelative(file, spec);
        if (target === null) {
          if (!/\.(css|svg|png|json|html)(\?.*)?$/.test(spec)) unresolved.push(`${rel(file)} → ${spec}`);
        } else if (textOf.has(target)) to.push(target);
      }
      graph.set(file, to);
    }
    expect(unresolved).toEqual([]);
    expect(cycles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('has no import cycle between the workspace packages (their tests may use any package: the SDK’s run the server)', () => {
    const names = new Set(pkgs.map((p) => p.name));
    const graph = new Map<string, string[]>();
    for (const p of pkgs) {
      const to = new Set<string>();
      for (const f of p.files.filter((f) => !isTestFile(f))) {
        for (const { spec } of importsOfFile.get(f)!) {
          const name = packageName(spec);
          if (names.has(name) && name !== p.name) to.add(name);
        }
      }
      graph.set(p.name, [...to]);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps processor/ a port: it imports only itself, storage (db/) and core’s top-level modules, never a domain folder', () => {
    // The composition root and the barrels import everything: the processor must not reach them either.
    const wiring = new Set(
      ['open.ts', 'workers.ts', 'index.ts', 'testing.ts', 'test-database.ts'].map((f) => join(CORE, f)),
    );
    const processorDir = join(CORE, 'processor') + sep;
    const dbDir = join(CORE, 'db') + sep;
    const wrong: string[] = [];
    for (const [file, imports] of importsOfFile) {
      if (!file.startsWith(processorDir)) continue;
      for (const { spec } of imports) {
        if (!spec.startsWith('.')) continue;
        const target = resolveRelative(file, spec);
        if (target === null || target.startsWith(processorDir) || target.startsWith(dbDir)) continue;
        const topLevel = dirname(target) === CORE;
        if (!topLevel || wiring.has(target)) wrong.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('declares in each package.json every package its source imports', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const undeclared = new Set<string>();
    for (const p of pkgs) {
      const keys = (o?: Record<string, string>) => Object.keys(o ?? {});
      const runtime = new Set([
        ...keys(p.json.dependencies),
        ...keys(p.json.peerDependencies),
        ...keys(p.json.optionalDependencies),
      ]);
      // What a package's build compiles into its output (the browser bundles: every import; the server: our own
      // packages) may be a devDependency: the built package does not import it at run time.
      const bundlesAll = p.json.scripts?.build !== undefined && p.name !== '@remit/server';
      const compiledIn = (name: string) =>
        keys(p.json.devDependencies).includes(name) && (bundlesAll || name.startsWith('@remit/'));
      // Tests and test helpers may also use the repository's shared test tools (the root's devDependencies)
      // and any workspace package (the SDK's tests run the server; the core's check signatures with the SDK).
      const forTests = new Set([
        ...runtime,
        ...keys(p.json.devDependencies),
        ...keys(root.devDependencies),
        ...pkgs.map((q) => q.name),
      ]);
      for (const f of p.files) {
        for (const { spec } of importsOfFile.get(f)!) {
          if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('virtual:') || isBuiltin(spec)) continue;
          const name = packageName(spec);
          if (name === p.name || runtime.has(name) || compiledIn(name) || (isTestFile(f) && forTests.has(name)))
            continue;
          undeclared.add(`${name} in ${p.name} (${rel(f)})`);
        }
      }
    }
    expect([...undeclared]).toEqual([]);
  });
  it('keeps no module state in core: no top-level `let` outside storage (db/), test helpers aside', () => {
    // A cache or a counter lives in the object that owns it (the limiter, a prepared statement), so a
    // test's core starts as a production one does, whatever ran before it in the same process.
    const dbDir = join(CORE, 'db') + sep;
    const found = [...textOf]
      .filter(([f]) => f.startsWith(CORE + sep) && !f.startsWith(dbDir) && !isTestFile(f))
      .flatMap(([f, text]) =>
        text
          .split('\n')
          .map((line, i) => [line, i + 1] as const)
          .filter(([line]) => /^(export )?let /.test(line))
          .map(([, n]) => `${rel(f)}:${n}`),
      );
    expect(found).toEqual([]);
  });
});
