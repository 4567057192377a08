// Starts `remit-sandbox` (from @remit/testing) for Cypress, or any tool that runs Node: resolves
// with what it printed (url, credentials, merchant, webhooksUrl) and a stop() that sends SIGTERM.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export function startRemitSandbox({ command = 'remit-sandbox', args = [] } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], shell: process.platform === 'win32' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`remit-sandbox exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const sandbox = JSON.parse(line);
      const stopped = new Promise((done) => child.once('exit', done));
      resolve({ ...sandbox, stop: () => (child.kill('SIGTERM'), stopped) });
    });
  });
}
