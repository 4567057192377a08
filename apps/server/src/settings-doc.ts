import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { settingsTable, TABLE_HEADERS, type SettingsTable } from './settings.js';

/** docs/operations.md, whose settings tables sit between `<!-- settings:NAME -->` and `<!-- /settings:NAME -->`. */
export const OPERATIONS_DOC = new URL('../../../docs/operations.md', import.meta.url);

/** The document with every settings table rewritten from the list in settings.ts. */
export function withSettingsTables(markdown: string): string {
  let out = markdown;
  for (const table of Object.keys(TABLE_HEADERS) as SettingsTable[]) {
    const start = `<!-- settings:${table} -->`;
    const end = `<!-- /settings:${table} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/operations.md has no ${start} … ${end} markers`);
    out = `${out.slice(0, from + start.length)}\n${settingsTable(table)}\n${out.slice(to)}`;
  }
  return out;
}

// npm run docs:settings
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const doc = readFileSync(OPERATIONS_DOC, 'utf8');
  const next = withSettingsTables(doc);
  writeFileSync(OPERATIONS_DOC, next);
  console.log(
    next === doc
      ? 'docs/operations.md: settings tables already up to date'
      : 'docs/operations.md: settings tables rewritten',
  );
}
