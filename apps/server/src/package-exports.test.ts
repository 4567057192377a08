import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkgUrl = new URL('../package.json', import.meta.url);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every file an `exports` map names, however deeply its conditions nest. */
function targets(entry: unknown): string[] {
  if (typeof entry === 'string') return [entry];
  if (entry && typeof entry === 'object') return Object.values(entry).flatMap(targets);
  return [];
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? tsFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('@remit/server package.json', () => {
  it('exports only files that exist: the app factory (for the test kit) and the test harness, for other packages’ tests', () => {
    const pkg = JSON.parse(readFileSync(pkgUrl, 'utf8')) as { exports?: unknown; main?: string };
    const missing = [...targets(pkg.exports), ...(pkg.main ? [pkg.main] : [])].filter(
      (t) => !existsSync(fileURLToPath(new URL(t, pkgUrl))),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(pkg.exports as object)).toEqual(['./embed', './testing']);
  });

  it('Node refuses its bare name (no "." export) rather than reaching a missing file', () => {
    const r = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "import('@remit/server').catch((e) => { console.log(e.code); })"],
      {
        cwd: fileURLToPath(new URL('.', pkgUrl)),
        encoding: 'utf8',
      },
    );
    expect(r.stdout.trim()).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});

describe('imports across packages', () => {
  it('no file of a package reaches into another package by a relative path (bench/ is no package)', () => {
    const roots = ['packages', 'apps'].flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)));
    const offenders: string[] = [];
    for (const pkgDir of roots) {
      if (!existsSync(join(pkgDir, 'src'))) continue;
      for (const file of tsFiles(join(pkgDir, 'src'))) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
          const target = resolve(join(file, '..'), m[1]!);
          const other = roots.find((d) => d !== pkgDir && target.startsWith(d + sep));
          if (other) offenders.push(`${relative(root, file)} → ${m[1]}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
