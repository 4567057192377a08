import { runCli } from '../cli.js';

/** An `io` for `runCli` that keeps what the command writes. */
export function captureIo() {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

/** The operator CLI run in this process with `env`: its exit code and what it wrote. */
export async function runCliCaptured(args: string[], env: NodeJS.ProcessEnv) {
  const io = captureIo();
  const code = await runCli(args, env, io);
  return { code, out: io.stdout, err: io.stderr };
}
