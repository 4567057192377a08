import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkgUrl = new URL('../package.json', import.meta.url);

/** Every file an `exports` map names, however deeply its conditions nest. */
function targets(entry: unknown): string[] {
  if (typeof entry === 'string') return [entry];
  if (entry && typeof entry === 'object') return Object.values(entry).flatMap(targets);
  return [];
}

describe('@remit/server package.json', () => {
  it('exports only files that exist (the server is an application: it exports nothing)', () => {
    const pkg = JSON.parse(readFileSync(pkgUrl, 'utf8')) as { exports?: unknown; main?: string };
    const missing = [...targets(pkg.exports), ...(pkg.main ? [pkg.main] : [])].filter(
      (t) => !existsSync(fileURLToPath(new URL(t, pkgUrl))),
    );
    expect(missing).toEqual([]);
    expect(pkg.exports).toEqual({});
  });

  it('Node refuses to import it by name (no subpath is exported) rather than reaching a missing file', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "import('@remit/server').catch((e) => { console.log(e.code); })"], {
      cwd: fileURLToPath(new URL('.', pkgUrl)),
      encoding: 'utf8',
    });
    expect(r.stdout.trim()).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
