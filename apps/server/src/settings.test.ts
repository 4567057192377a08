import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { OPERATIONS_DOC, withSettingsTables } from './settings-doc.js';
import { SETTINGS, TEST_ONLY_SETTINGS } from './settings.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every environment variable the server's and core's own code reads (`env.NAME`, `env['NAME']`, or a quoted name passed on). */
function namesReadByCode(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'testing' && e.name !== 'node_modules') walk(path);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
        for (const m of text.matchAll(/'((?:REMIT|STRIPE|TWILIO|AWS|SMTP)_[A-Z0-9_]+)'/g)) names.add(m[1]!);
      }
    }
  };
  walk(join(root, 'apps/server/src'));
  walk(join(root, 'packages/core/src'));
  return names;
}

it('docs/operations.md shows the settings tables as settings.ts lists them (npm run docs:settings rewrites them)', () => {
  const doc = readFileSync(OPERATIONS_DOC, 'utf8');
  expect(doc).toBe(withSettingsTables(doc));
});

it('every variable the code reads has a row, and every row names a variable the code reads', () => {
  const documented = new Set(SETTINGS.flatMap((s) => s.names));
  const read = namesReadByCode();
  const missing = [...read].filter((n) => !documented.has(n) && !TEST_ONLY_SETTINGS.includes(n));
  expect(missing, 'read by the code but not in settings.ts').toEqual([]);
  expect(
    [...documented].filter((n) => !read.has(n)),
    'in settings.ts but read by no code',
  ).toEqual([]);
  for (const s of SETTINGS)
    expect([s.names, s.default.trim() !== '' && s.meaning.trim() !== '']).toEqual([s.names, true]);
});
