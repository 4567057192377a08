/**
 * A second load tool beside autocannon, so that a tail of the tool's own making is not taken for
 * the server's: wrk (`apt-get install wrk`) when it is on PATH, else a plain Node keep-alive client.
 */
import { execFile, execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FixedRequest } from './loads.js';
import { percentile, type Figures } from './stats.js';

export function secondToolName(): 'wrk' | 'node-http' {
  if (process.env.BENCH_SECOND_TOOL === 'node') return 'node-http';
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (e) {
    // wrk --version exits 1 after printing its version: present all the same.
    return (e as { status?: number }).status === 1 ? 'wrk' : 'node-http';
  }
}

const lua = (s: string) => JSON.stringify(s); // a JSON string is a valid Lua string literal here (no \u escapes in our bodies)

const MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const duration = (v: string) => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
  return m ? Number(m[1]) * MS[m[2]!]! : NaN;
};

async function wrk(r: FixedRequest, connections: number, seconds: number): Promise<Figures> {
  const script = join(tmpdir(), `remit-wrk-${process.pid}.lua`);
  writeFileSync(
    script,
    [
      `wrk.method = ${lua(r.method)}`,
      `wrk.body = ${lua(r.body)}`,
      ...Object.entries(r.headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`),
    ].join('\n'),
  );
  try {
    const { stdout } = await promisify(execFile)('wrk', [
      '-t2',
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      '-s',
      script,
      r.url,
    ]);
    const pct = (p: string) => duration(new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(stdout)?.[1] ?? '');
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
    const count = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN) - non2xx;
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((a, x) => a + Number(x), 0) : 0);
    return { rps, count, p50: pct('50'), p99: pct('99'), errors };
  } finally {
    rmSync(script, { force: true });
  }
}

/** `connections` keep-alive sockets, each sending the next request when the last answer is in. */
async function nodeHttp(r: FixedRequest, connections: number, seconds: number): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(r.url);
  const headers = { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) };
  const latencies: number[] = [];
  let errors = 0;
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: r.method, headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(r.body);
    });
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const status = await one();
          if (status !== 200) errors++;
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    count: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

export function secondTool(r: FixedRequest, connections: number, seconds: number): Promise<Figures> {
  return secondToolName() === 'wrk' ? wrk(r, connections, seconds) : nodeHttp(r, connections, seconds);
}
