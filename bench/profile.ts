/**
 * CPU profile of the server under one route's load: `tsx bench/profile.ts pglite|postgres payLink`.
 * Prints the functions with the most self time (by file), from node's --cpu-prof.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@remit/core/testing';
import { startProcess } from '../apps/server/src/testing/process.js';
import { routeLoads } from './loads.js';
import { serverEnv } from './server-env.js';
import { encryptionKey, setup, type Route } from './setup.js';
import { fmt } from './stats.js';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const route = (process.argv[3] ?? 'payLink') as Route;
const profDir = mkdtempSync(join(tmpdir(), 'remit-prof-'));
const db = kind === 'postgres' ? await createTestDatabase('remit_prof') : null;
const dataDir = db ? undefined : mkdtempSync(join(tmpdir(), 'remit-prof-db-'));
try {
  const s = await setup({ dataDir, databaseUrl: db?.url });
  const server = await startProcess('apps/server/src/main.ts', {
    ...serverEnv(),
    REMIT_ENCRYPTION_KEY: encryptionKey,
    ...(dataDir ? { REMIT_DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: db!.url }),
  }, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`] });
  try {
    console.log(`${route}: ${fmt(await routeLoads(server.base, s)[route]())}`);
  } finally {
    await server.stop();
  }
  const file = readdirSync(profDir).map((f) => join(profDir, f)).find((f) => readFileSync(f, 'utf8').length > 1000 && f.endsWith('.cpuprofile'));
  const prof = JSON.parse(readFileSync(file!, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const id of prof.samples) {
    const n = byId.get(id)!;
    const url = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(packages|apps)\//, '$1/');
    const key = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + 1);
    const pkg = url.split('/').slice(0, url.startsWith('@') ? 2 : 1).join('/') || n.callFrame.functionName;
    byFile.set(pkg, (byFile.get(pkg) ?? 0) + 1);
  }
  const total = prof.samples.length;
  const top = (m: Map<string, number>, k: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, c]) => `${((c / total) * 100).toFixed(1).padStart(5)}%  ${name}`).join('\n');
  console.log(`-- by package --\n${top(byFile, 15)}\n-- by function --\n${top(self, 30)}`);
} finally {
  rmSync(profDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await db?.drop();
}
