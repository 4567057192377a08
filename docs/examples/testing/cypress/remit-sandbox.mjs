// Starts `remit-sandbox` (from @remit/testing) for Cypress, or any tool that runs Node: resolves
// with what it printed (url, credentials, merchant, webhooksUrl) and a stop() that ends the whole
// process tree (`npx` and the sandbox under it), resolving with the command's exit code once all
// of it is gone.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const windows = process.platform === 'win32';

export function startRemitSandbox({ command = 'remit-sandbox', args = [] } = {}) {
  // A process group of its own: one signal reaches npx and the sandbox it started.
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], shell: windows, detached: !windows });
  const signalTree = (signal) => {
    try {
      if (windows) spawn('taskkill', ['/pid', String(child.pid), '/t', '/f']);
      else process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  // Should this process end without calling stop(), the sandbox does not outlive it.
  const onExit = () => signalTree('SIGTERM');
  process.once('exit', onExit);
  const treeGone = async () => {
    if (windows) return;
    for (;;) {
      try {
        process.kill(-child.pid, 0);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`remit-sandbox exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const sandbox = JSON.parse(line);
      const exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));
      const stop = async () => {
        signalTree('SIGTERM');
        const code = await exited;
        await treeGone();
        process.off('exit', onExit);
        return code;
      };
      resolve({ ...sandbox, stop });
    });
  });
}
