import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { batchedLog } from './log-destination.js';

const dir = mkdtempSync(join(tmpdir(), 'remit-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('batchedLog', () => {
  it("writes the lines of one turn together, at the turn's end, in order", async () => {
    const file = join(dir, 'a.log');
    const fd = openSync(file, 'w');
    try {
      const log = batchedLog(fd);
      log.write('one\n');
      log.write('two\n');
      expect(readFileSync(file, 'utf8')).toBe('');
      await new Promise((r) => setImmediate(r));
      expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
      log.write('three\n');
      await new Promise((r) => setTimeout(r, 5));
      expect(readFileSync(file, 'utf8')).toBe('one\ntwo\nthree\n');
    } finally {
      closeSync(fd);
    }
  });

  it('a line logged just before process.exit is still written', () => {
    const module = fileURLToPath(new URL('./log-destination.ts', import.meta.url));
    const script = `import { batchedLog } from ${JSON.stringify(module)}; const log = batchedLog(); log.write('first\\n'); setImmediate(() => { log.write('last\\n'); process.exit(3); });`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('first\nlast\n');
  });
});
